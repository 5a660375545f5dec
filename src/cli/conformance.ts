// `npm run conformance [-- playwright args]`: runs the conformance suite (playwright.config.ts), then
// renders the Allure report, and exits with the suite's verdict.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { reportPath } from '../run/reports-dir.ts';

const require = createRequire(import.meta.url);
const bin = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

const suite = spawnSync(
  process.execPath,
  [bin('@playwright/test', 'cli.js'), 'test', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);

if (existsSync(reportPath('allure-results'))) {
  const allure = spawnSync(
    process.execPath,
    [
      bin('allure', 'cli.js'),
      'generate',
      reportPath('allure-results'),
      '-o',
      reportPath('allure'),
      '-c',
      'src/report/allurerc.mjs',
    ],
    { stdio: 'pipe', encoding: 'utf8' },
  );
  console.log(
    allure.status === 0
      ? 'Allure report: reports/allure/index.html'
      : `Allure report not rendered:\n${allure.stderr}`,
  );
}

process.exit(suite.status ?? 1);
