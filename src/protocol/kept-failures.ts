// How a worker knows that a check's failure may keep it: the run's reporters start with the one that shows
// such a failure as a failure again (src/runner/report/kept-failures-reporter.ts), else Playwright replaces it.
import type { FullConfig } from '@playwright/test';
import { suiteModule } from '../run-state/package.ts';

/** The reporter that comes first in any list of the run's (src/runner/run/reporters.ts). */
export const KEPT_FAILURES_REPORTER = suiteModule('src/runner/report/kept-failures-reporter.ts');

/** Whether the run's reporters (Playwright's resolved list, as a worker sees it) start with that one. */
export const keptFailuresShown = (reporters: FullConfig['reporter']): boolean =>
  reporters[0]?.[0] === KEPT_FAILURES_REPORTER;
