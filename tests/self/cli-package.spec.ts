// The package partners install (slow, about 30 s): `npm pack`, an install into an empty folder from the npm
// cache where it can (`npm ci` cached every tarball; npm 11 also wants full registry metadata, which only the
// registry has), then the installed command: --help, and a run against the embedded sandbox that passes and
// writes its reports in the user's folder.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { readResult } from '../../src/result/validate.ts';
import { packageRoot } from '../../src/run-state/package.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'conformance-package-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('the packed suite installs and its command runs from the user folder', {
  tag: '@slow',
}, async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  await run('npm', ['pack', '--pack-destination', folder], { cwd: packageRoot });
  const [tarball] = readdirSync(folder).filter((name) => name.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  const user = join(folder, 'user');
  mkdirSync(user);
  const install = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, tarball ?? '')],
    { cwd: user },
  );
  expect(install.stderr).not.toContain('EBADENGINE');

  const help = await run('npx', ['physiology-conformance', '--help'], { cwd: user });
  expect(help.stdout).toContain('Usage: physiology-conformance');

  const env = { ...process.env, CONFORMANCE_ENV_FILE: undefined, CONFORMANCE_REPORTS_DIR: undefined };
  await run('npx', ['physiology-conformance', 'run'], { cwd: user, env });
  const report = readResult(join(user, 'reports', 'conformance.json'));
  expect(report.verdict).toBe('pass');
});
