// `physiology-conformance`: every subcommand answers --help (also asked of Playwright, after `run --`) and
// --version with status 0 and does nothing else: no run, no report, nothing written in the reports
// directory; a usage error is status 2.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { rows } from '../../src/config/variables.ts';
import { packageVersion } from '../../src/run-state/package.ts';
import { EXIT_STATUSES, withVerdictTable } from '../../src/runner/report/exit-statuses.ts';
import { cli } from '../../src/runner/run/run-step.ts';

const SUBCOMMANDS = [
  'run',
  'merge-reports',
  'doctor',
  'login',
  'check-recording',
  'verify-report',
  'render',
  'verify-webhook',
  'sandbox',
];

// Made again before each batch of this file's tests a worker runs: an earlier batch's afterAll removed it.
const reports = join(tmpdir(), `conformance-cli-reports-${process.pid}`);
test.beforeAll(() => {
  mkdirSync(reports, { recursive: true });
  writeFileSync(join(reports, 'conformance.json'), '{}');
});
test.afterAll(() => rmSync(reports, { recursive: true, force: true }));

/** The command with `args`: its status and output, with the reports directory above. */
async function physiologyConformance(...args: string[]): Promise<{ code: number; output: string }> {
  const [command, commandArgs] = cli(...args);
  const env = { ...process.env, CONFORMANCE_REPORTS_DIR: reports };
  return promisify(execFile)(command, commandArgs, { env }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

test('the command lists exactly its subcommands, and every variable of the table', async () => {
  const { code, output } = await physiologyConformance('--help');
  expect(code, output).toBe(0);
  const listed = [...output.matchAll(/^ {2}([a-z-]+) /gm)].map(([, name]) => name);
  expect(listed.filter((name) => name !== 'help')).toEqual(SUBCOMMANDS);
  const unlisted = rows()
    .map(([name]) => name)
    .filter((name) => !new RegExp(`^ {2}${name}\\b`, 'm').test(output));
  expect(unlisted).toEqual([]);
});

for (const name of SUBCOMMANDS)
  test(`${name} --help and --version exit 0 and leave the reports directory untouched`, async () => {
    const help = await physiologyConformance(name, '--help');
    expect(help.code, help.output).toBe(0);
    expect(help.output).toContain(`Usage: physiology-conformance ${name}`);
    expect(help.output).toMatch(/Exit status:\n {2}0 /);
    const version = await physiologyConformance(name, '--version');
    expect(version).toEqual({ code: 0, output: `${packageVersion()}\n` });
    expect(readdirSync(reports)).toEqual(['conformance.json']);
  });

test("run answers a help asked of Playwright, and lists the run's variables", async () => {
  const { code, output } = await physiologyConformance('run', '--', '--help');
  expect(code, output).toBe(0);
  expect(output).toContain('Usage: physiology-conformance run');
  expect(output).toContain('CONFORMANCE_BASE_URL');
  expect(output).not.toContain('Allure report');
  expect(readdirSync(reports)).toEqual(['conformance.json']);
});

test('a usage error is status 2, in one line', async () => {
  const unknown = await physiologyConformance('doctor', '--no-such-option');
  expect(unknown.code).toBe(2);
  expect(unknown.output.trim()).toBe("error: unknown option '--no-such-option'");
  const missing = await physiologyConformance('verify-report', join(reports, 'missing.json'));
  expect(missing.code).toBe(2);
  expect(missing.output).toMatch(/^verify-report: ENOENT[^\n]*\n$/);
});

test("the README's verdict table is the exit statuses' table (npm run docs:tables writes it)", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain('<!-- exit-statuses:begin -->');
  expect(withVerdictTable(readme)).toBe(readme);
  for (const { code, verdict } of Object.values(EXIT_STATUSES))
    expect(readme).toMatch(new RegExp(`\\| ${verdict.replace(/[()]/g, '\\$&')} \\|.*\\| ${code} \\|`));
});
