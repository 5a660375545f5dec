import { defineConfig } from '@playwright/test';

// The project's own tests: contract artefacts, sandbox behaviour, suite guards and reporters.
// The conformance suite itself is configured in ../../playwright.config.ts.

/**
 * The files whose tests run the suite in child processes, tens of seconds each: they go first (Playwright
 * hands out tests in project order), so that the thousand short tests fill the workers' last minutes
 * instead of one long test ending the run alone (docs/proving-the-suite.md, "Figures").
 */
const LONG = [
  'suite-sharding',
  'suite-failing-run',
  'suite-depth-plan',
  'suite-hostile',
  'suite-exploration',
  'suite-certificate',
  'suite-evidence',
  'suite-guards',
  'auth-granted-scope',
  'auth-login',
  'cli-package',
  'auth-attribution',
  'allure-history',
  'report-page',
  'suite-own-errors',
  'auth-tls',
  'suite-preflight-scope',
  'suite-run-error',
  'suite-rate-429',
  'suite-remote-webhooks',
  'suite-rate-limit-headers',
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Four on the 2-core machine: most self tests wait on a child run (its sandbox's answers, a rate-limit
  // window, a hung request's timeout), so two workers left about one core idle; four keep both busy.
  workers: 4,
  // Safety nets against a hang, never a measure of speed (no self test asserts how long anything took): every
  // test passes with two CPU-bound processes beside the self tests on the 2-core machine, where it takes
  // several times as long as alone. Tests that run the suite in a child process take WHOLE_RUN_TIMEOUT_MS
  // (tests/self/safety-nets.ts).
  timeout: 300_000,
  expect: { timeout: 30_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../../reports/self-results',
  // The suite's build, which the child runs of its command run (global-setup.ts).
  globalSetup: './global-setup.ts',
  projects: [
    { name: 'long', testMatch: LONG },
    { name: 'short', testIgnore: LONG },
  ],
});
