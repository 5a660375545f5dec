// Runs a command as a child process with its output streamed, and times it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BUILT_DIR, packageRoot } from '../../run-state/package.ts';

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

/**
 * The suite's build the self tests' child runs run (SELF_TESTS_SUITE_BUILD: `npm run build -- --into DIR`,
 * made by tests/self/global-setup.ts), if any: the commands below then start it instead of the sources.
 */
export const suiteBuild = (): string | undefined => process.env.SELF_TESTS_SUITE_BUILD || undefined;

/** The file of the suite's module `source` (e.g. src/cli/main.ts) a child process loads: the checkout's, or the build's. */
export const suiteFile = (source: string): string => {
  const build = suiteBuild();
  return build ? join(build, BUILT_DIR, source.replace(/\.ts$/, '.js')) : join(packageRoot, source);
};

/** The suite's command (`physiology-conformance`, src/cli/main.ts) with its arguments, for a child process. */
export const cli: SuiteCommand = (...args) =>
  suiteBuild()
    ? [process.execPath, [suiteFile('src/cli/main.ts'), ...args]]
    : tsx(suiteFile('src/cli/main.ts'), ...args);

/**
 * Playwright test of the suite (its configuration, playwright.config.ts) with `args`, for a child process: the
 * arguments after the CLI's path, and the variables the build's Playwright processes need.
 */
export const suiteTestArgs = (...args: string[]): { args: string[]; env: NodeJS.ProcessEnv } =>
  suiteBuild()
    ? // The build's modules are JavaScript: Playwright's TypeScript loader (on Node 20 a hop to a loader thread
      // for every module) has nothing to compile.
      { args: ['test', '-c', suiteFile('playwright.config.ts'), ...args], env: { PW_DISABLE_TS_ESM: '1' } }
    : { args: ['test', ...args], env: {} };
