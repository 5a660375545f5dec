// A checkout's own commands: every developer script (`npm run`) answers --help with its usage, status 0, and
// refuses an option it does not state with status 2 and one line, never a stack trace (the scripts that run
// the product's command are cli-help.spec.ts's); the README's `npx physiology-conformance` runs in a checkout
// without a build (bin/ falls back to the sources).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { packageRoot } from '../../src/run-state/package.ts';

const scripts = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The scripts that run a tool's own command line (Biome, tsc, Playwright): their --help is the tool's. */
const TOOLS = ['lint', 'typecheck', 'test:self'];
const developerScripts = Object.keys(scripts).filter((name) => !scripts[name]?.includes('src/cli/main.ts'));

async function npmRun(script: string, ...args: string[]): Promise<{ code: number; output: string }> {
  return promisify(execFile)('npm', ['run', '-s', script, '--', ...args], { cwd: packageRoot }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

for (const script of developerScripts)
  test(`npm run ${script} -- --help: its usage, status 0`, async () => {
    const { code, output } = await npmRun(script, '--help');
    expect(code, output).toBe(0);
    expect(output).toMatch(TOOLS.includes(script) ? /usage|Usage|Version/ : /^Usage: /m);
  });

for (const script of developerScripts.filter((name) => !TOOLS.includes(name)))
  test(`npm run ${script} -- --no-such-option: one line and the usage, status 2`, async () => {
    const { code, output } = await npmRun(script, '--no-such-option');
    expect(code, output).toBe(2);
    expect(output).toContain('--no-such-option');
    expect(output).not.toMatch(/^\s+at /m);
  });

test('npx physiology-conformance in a checkout without a build runs the sources', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(packageRoot, 'bin', 'physiology-conformance.mjs'), '--help'],
    { cwd: packageRoot },
  );
  expect(stdout).toContain('Usage: physiology-conformance');
});
