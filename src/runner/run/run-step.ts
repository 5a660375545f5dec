// Runs a command as a child process with its output streamed, and times it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../run-state/package.ts';

export interface StepResult {
  name: string;
  ok: boolean;
  code: number | null;
  durationMs: number;
  detail?: string;
  /** Why the step did not run on this machine (it is then neither passed nor failed). */
  skipped?: string;
}

export function runProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  quiet = false,
): Promise<{ code: number | null; durationMs: number; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    // A quiet step keeps the end of its output, to say why it failed.
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('close', (code) => resolve({ code, durationMs: Date.now() - started, output }));
  });
}

export const tsx = (script: string, ...args: string[]): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', script, ...args],
];

/** A way to start the suite's command with its arguments, for a child process. */
export type SuiteCommand = (...args: string[]) => [string, string[]];

/** The suite's command (`physiology-conformance`, src/cli/main.ts) with its arguments, for a child process. */
export const cli: SuiteCommand = (...args) => tsx(join(packageRoot, 'src/cli/main.ts'), ...args);
