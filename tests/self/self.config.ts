import { defineConfig } from '@playwright/test';

// The project's own tests: contract artefacts, sandbox behaviour, suite guards and reporters.
// The conformance suite itself is configured in ../../playwright.config.ts.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Two, as on the CI machine (2 cores): most self tests wait on a child run or a sandbox, and Playwright's
  // default (half the cores) would leave one core idle.
  workers: 2,
  // Safety nets against a hang, never a measure of speed (no self test asserts how long anything took): every
  // test passes with two CPU-bound processes beside the self tests on the 2-core machine, where it takes
  // several times as long as alone. Tests that run the suite in a child process take WHOLE_RUN_TIMEOUT_MS
  // (tests/self/safety-nets.ts).
  timeout: 300_000,
  expect: { timeout: 30_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../../reports/self-results',
});
