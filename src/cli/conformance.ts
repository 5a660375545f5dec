// `npm run conformance [-- playwright args]`: runs the conformance suite (playwright.config.ts), then
// renders the Allure report, and exits with the suite's verdict.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { reportPath } from '../run/reports-dir.ts';
import { allureCli, playwrightCli } from './playwright.ts';

const suite = spawnSync(process.execPath, [playwrightCli(), 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
});

if (existsSync(reportPath('allure-results'))) {
  const allure = spawnSync(
    process.execPath,
    [
      allureCli(),
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
      ? `Allure report: ${reportPath('allure/index.html')}`
      : `Allure report not rendered:\n${allure.stderr}`,
  );
}

process.exit(suite.status ?? 1);
