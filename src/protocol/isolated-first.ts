// How a worker knows that the others wait for the isolated tests: the run's reporters hold the one that tells
// them when those have ended (src/runner/report/isolated-first-reporter.ts; src/config/run-plan.ts `isolatedFirst`).
import type { FullConfig } from '@playwright/test';
import { suiteModule } from '../run-state/package.ts';

/** The reporter in every run's list (src/runner/run/reporters.ts, playwright.config.ts). */
export const ISOLATED_FIRST_REPORTER = suiteModule('src/runner/report/isolated-first-reporter.ts');

/** Whether the run's reporters (Playwright's resolved list, as a worker sees it) hold that one. */
export const isolatedFirstShown = (reporters: FullConfig['reporter']): boolean =>
  reporters.some(([name]) => name === ISOLATED_FIRST_REPORTER);
