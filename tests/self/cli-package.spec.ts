// The package partners install (slow, about 30 s): `npm pack` (which builds the suite to JavaScript), an
// install into an empty folder from the npm cache where it can, then the installed command: --help, and a
// run against the embedded sandbox that passes and writes its reports in the user's folder. The installed
// suite runs its build without tsx: tsx is not even installed there, so nothing could load TypeScript.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { readResult } from '../../src/result/validate.ts';
import { BUILT_DIR } from '../../src/run-state/package.ts';
import { installTarball, packCheckout } from '../../src/runner/run/installed-package.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'conformance-package-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('the packed suite installs and its built command runs from the user folder, without tsx', {
  tag: '@slow',
}, async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const user = join(folder, 'user');
  const { stderr } = await installTarball(await packCheckout(folder), user);
  expect(stderr).not.toContain('EBADENGINE');

  const installed = join(user, 'node_modules', 'physiology-conformance');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
  expect(() => createRequire(join(installed, 'package.json')).resolve('tsx')).toThrow();
  expect(existsSync(join(installed, BUILT_DIR, 'src', 'cli', 'main.js'))).toBe(true);
  // Its TypeScript sources stay in the checkout: the package ships their build alone.
  expect(
    ['src', 'tests', 'playwright.config.ts'].filter((name) => existsSync(join(installed, name))),
  ).toEqual([]);

  const help = await run('npx', ['physiology-conformance', '--help'], { cwd: user });
  expect(help.stdout).toContain('Usage: physiology-conformance');

  const env = { ...process.env, CONFORMANCE_ENV_FILE: undefined, CONFORMANCE_REPORTS_DIR: undefined };
  const suite = await run('npx', ['physiology-conformance', 'run'], { cwd: user, env, maxBuffer: 2 ** 26 });
  // The workers ran the built spec files, and the report names each test's source.
  expect(suite.stdout).toContain(`${BUILT_DIR}/tests/conformance/operations.spec.js`);
  const report = readResult(join(user, 'reports', 'conformance.json'));
  expect(report.verdict).toBe('pass');
  expect(report.tests.map((result) => result.file)).toContain('tests/conformance/operations.spec.ts');
});
