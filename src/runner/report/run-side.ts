// What the run's own side did to a run, as the reports say it: the run-wide error (an ERROR's cause; on a
// FAIL, what cut the run short, said after the failures) and the causes that stopped only some checks.

import { runErrorLine } from '../../run-state/run-error.ts';
import type { ConformanceReport } from './model.ts';

/** How many checks the run-wide error stopped (not verified, never failed). */
const stoppedChecks = (report: ConformanceReport): number =>
  report.tests.filter((test) => test.outcome === 'error' && test.runError?.cause === report.runError?.cause)
    .length;

/**
 * What the run's own side did to the run, in lines: the run error (on a FAIL, after the failures: the run
 * was cut short), and the run-side causes that stopped only some checks.
 */
export function runSideLines(report: ConformanceReport): string[] {
  const { runError } = report;
  const cut =
    runError &&
    (report.verdict === 'error'
      ? `Run error (${runError.kind}): ${runErrorLine(runError)}`
      : runError.kind === 'suite'
        ? `Beside the failures, the suite's own code failed (suite): ${runErrorLine(runError)}; ${stoppedChecks(report)} check(s) not verified`
        : `The run was cut short (${runError.kind}): ${runErrorLine(runError)}; ${stoppedChecks(report)} check(s) not verified`);
  return [
    ...(cut ? [cut] : []),
    ...(report.runSideStops ?? []).map(
      (stop) =>
        `Not verified on the run's side (${stop.kind}): ${runErrorLine(stop)}; ${stop.checks} check(s)`,
    ),
  ];
}
