// The exit status of a run from the report it wrote (`run`, `merge-reports`): the verdict's, or ERROR when it
// wrote none.
import { existsSync } from 'node:fs';
import type { ConformanceResult } from '../../result/schema.ts';
import { readResult } from '../../result/validate.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import { exitStatusOf } from '../report/baseline.ts';
import { EXIT_CODES } from '../report/exit-statuses.ts';

/**
 * The exit status of the report the run wrote: its verdict's (an INCOMPLETE `allowed` passes), or ERROR
 * when it wrote none (`status`: how the process that should have written it ended).
 */
export function reportExitCode(status: number, allowed: (report: ConformanceResult) => boolean): number {
  if (!existsSync(reportPath('conformance.json'))) {
    console.error(
      `Conformance: ERROR: the run ended (status ${status}) without a report: the suite's own trouble, see above`,
    );
    return EXIT_CODES.error;
  }
  const report = readResult(reportPath('conformance.json'));
  const verdict = exitStatusOf(report);
  return verdict === 'incomplete' && allowed(report) ? EXIT_CODES.pass : EXIT_CODES[verdict];
}
