// The reporters of a run, one list for the two places that report: a run (playwright.config.ts) and a merge of
// shards' blob reports (merge.config.ts, `physiology-conformance merge-reports`). Paths are the package's own,
// so an installed suite finds them from any working directory.
import type { ReporterDescription } from '@playwright/test';
import { ISOLATED_FIRST_REPORTER } from '../../protocol/isolated-first.ts';
import { KEPT_FAILURES_REPORTER } from '../../protocol/kept-failures.ts';
import { suiteModule } from '../../run-state/package.ts';
import { reportPath } from '../../run-state/reports-dir.ts';

/**
 * What a shard reports: its tests, for `merge-reports` (PLAYWRIGHT_BLOB_OUTPUT_DIR names where), and, before
 * the blob writes them, its record: what it saw outside its tests, sent, and ran against (src/runner/report/shard-reporter.ts).
 */
export const SHARD_REPORTERS = `${KEPT_FAILURES_REPORTER},${ISOLATED_FIRST_REPORTER},${suiteModule('src/runner/report/shard-reporter.ts')},blob`;

/** The reports of a whole run: Playwright's HTML, Allure's results, and the conformance result and its forms. */
export const reportReporters = (): ReporterDescription[] => [
  ['html', { outputFolder: reportPath('html'), open: 'never' }],
  [
    suiteModule('src/runner/report/allure/allure-results-reporter.ts'),
    { resultsDir: reportPath('allure-results'), detail: false, suiteTitle: false },
  ],
  // conformance.json and every form rendered from it (src/runner/report/write-report.ts).
  [suiteModule('src/runner/report/conformance-reporter.ts')],
];
