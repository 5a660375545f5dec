// Runs a command as a child process with its output streamed, and times it.
import { spawn } from 'node:child_process';

export interface StepResult {
  name: string;
  ok: boolean;
  code: number | null;
  durationMs: number;
  detail?: string;
}

export function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  quiet = false,
): Promise<{ code: number | null; durationMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: quiet ? 'ignore' : 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('close', (code) => resolve({ code, durationMs: Date.now() - started }));
  });
}

export const tsx = (script: string, ...args: string[]): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', script, ...args],
];
