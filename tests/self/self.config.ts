import { defineConfig } from '@playwright/test';

// The project's own tests: contract artefacts, sandbox behaviour, suite guards and reporters.
// The conformance suite itself is configured in ../../playwright.config.ts.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../../reports/self-results',
});
