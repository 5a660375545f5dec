// The conformance suite. Target, credentials and profile come from CONFORMANCE_* variables (README);
// without CONFORMANCE_BASE_URL the run starts the embedded sandbox itself (src/run/global-setup.ts).
import { defineConfig } from '@playwright/test';
import { Tags } from './src/config/profiles.ts';
import { reportPath } from './src/run/reports-dir.ts';

const profile = process.env.CONFORMANCE_PROFILE ?? 'ci-gate';
const isolated = new RegExp(Tags.isolated);
// CONFORMANCE_GREP selects tests in both projects. (Playwright's --grep also works, but a teardown project
// ignores it, so the isolated tests would always run after the selection.)
const selection = process.env.CONFORMANCE_GREP ? new RegExp(process.env.CONFORMANCE_GREP) : undefined;

export default defineConfig({
  testDir: './tests/conformance',
  outputDir: reportPath('test-results'),
  globalSetup: './src/run/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A conformance verdict must not depend on luck: no retries.
  retries: 0,
  workers: process.env.CONFORMANCE_WORKERS ? Number(process.env.CONFORMANCE_WORKERS) : 2,
  timeout: 60_000,
  reporter: [
    ['list'],
    ['html', { outputFolder: reportPath('html'), open: 'never' }],
    ['junit', { outputFile: reportPath('junit.xml') }],
    ['allure-playwright', { resultsDir: reportPath('allure-results'), detail: false, suiteTitle: false }],
    ['./src/report/conformance-reporter.ts', { profile }],
  ],
  // Traces and videos would carry tokens: off.
  use: { trace: 'off', video: 'off', screenshot: 'off' },
  projects: [
    // Everything that can share the target with other tests.
    { name: 'conformance', grep: selection, grepInvert: isolated, teardown: 'isolated' },
    // Tests that disturb the target for everyone (a 429 burst, revoking the grant): after the rest, one at a time.
    {
      name: 'isolated',
      grep: selection ? new RegExp(`^(?=.*${isolated.source})(?=.*(?:${selection.source}))`) : isolated,
      workers: 1,
      fullyParallel: false,
    },
  ],
});
