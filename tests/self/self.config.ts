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
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../../reports/self-results',
});
