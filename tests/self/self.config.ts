import { defineConfig } from '@playwright/test';

// The project's own tests: contract artefacts, sandbox behaviour, suite guards and reporters.
// The conformance suite itself is configured in ../../playwright.config.ts.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Many self tests wait on a child process or a server: two workers keep both cores busy.
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../../reports/self-results',
});
