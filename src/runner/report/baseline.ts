// CONFORMANCE_BASELINE: this run against a previous run's conformance.json, requirement by requirement:
// new failures, fixed, still failing, newly not verified, newly verified, and requirements whose evidence
// shrank (their evidence counts, e.g. 182 records, add up to less than before); and whether the contract or
// the catalogue changed between the two, so that a change is not blamed on the target. With
// CONFORMANCE_FAIL_ON=new the gate looks only at new failures.
import type { FailOn } from '../../config/suite-config.ts';
import { verdictOf } from '../../result/outcomes.ts';
import { readResult } from '../../result/validate.ts';
import type { EXIT_STATUSES, RunVerdict } from './exit-statuses.ts';
import type { LatencyRow } from './latency/latency.ts';
import type { ConformanceReport, RequirementResult, SinceLastRun } from './model.ts';

type Compared = Pick<ConformanceReport, 'requirements'> & Partial<Pick<ConformanceReport, 'contract'>>;

export function compareWithBaseline(
  current: Compared,
  previous: Compared,
  baseline: string,
  mode: FailOn = 'any',
): SinceLastRun {
  const before = new Map<string, RequirementResult>(previous.requirements.map((r) => [r.id, r]));
  const ids = (test: (now: RequirementResult, then: RequirementResult | undefined) => boolean) =>
    current.requirements.flatMap((r) => (test(r, before.get(r.id)) ? [r.id] : []));
  const failing = (r: RequirementResult | undefined) => r?.status === 'fail' && r.deviation === undefined;
  return {
    baseline,
    failOn: mode,
    newFailures: ids((now, then) => failing(now) && !failing(then)),
    fixed: ids((now, then) => failing(then) && !failing(now) && now.status !== 'omitted'),
    stillFailing: ids((now, then) => failing(now) && failing(then)),
    newlyNotVerified: ids((now, then) => now.status === 'not-verified' && then?.status !== 'not-verified'),
    newlyVerified: ids((now, then) => now.status === 'pass' && then?.status === 'not-verified'),
    evidenceShrank: current.requirements.flatMap((now) => {
      const then = before.get(now.id);
      if (!then || now.status !== 'pass' || then.status !== 'pass') return [];
      return now.evidenceCount < then.evidenceCount
        ? [{ id: now.id, before: then.evidenceCount, after: now.evidenceCount }]
        : [];
    }),
    ...(current.contract && previous.contract
      ? {
          contractChanged: current.contract.spec !== previous.contract.spec,
          catalogueChanged: current.contract.catalogue !== previous.contract.catalogue,
        }
      : {}),
  };
}

/** The latency rows with the baseline's p95 of each operation the baseline timed. */
export const withBaselineLatency = (
  rows: readonly LatencyRow[],
  previous: readonly LatencyRow[] | undefined,
): LatencyRow[] =>
  rows.map((row) => {
    const then = previous?.find((p) => p.operationId === row.operationId);
    return then ? { ...row, baseline: { p95: then.p95 } } : row;
  });

/** The report with its "since last run" section when a baseline (CONFORMANCE_BASELINE) names a report. */
export function withBaseline<T extends ConformanceReport>(
  report: T,
  file: string | undefined,
  mode: FailOn = 'any',
): T {
  if (!file) return report;
  const previous = readResult(file);
  return {
    ...report,
    sinceLastRun: compareWithBaseline(report, previous, file, mode),
    ...(report.latency ? { latency: withBaselineLatency(report.latency, previous.latency) } : {}),
  };
}

/**
 * The verdict the gate acts on: the run verdict, or with CONFORMANCE_FAIL_ON=new only new failures (a run
 * error stays one where no new failure outranks it).
 */
export function gateVerdict(
  report: Pick<ConformanceReport, 'verdict' | 'verdictBesideFailures' | 'sinceLastRun' | 'runError'>,
): RunVerdict {
  const since = report.sinceLastRun;
  // Only a FAIL is judged against the baseline: an INCOMPLETE (a narrowed run too) or an ERROR stays one.
  if (since?.failOn !== 'new' || report.verdict !== 'fail') return report.verdict;
  if (since.newFailures.length > 0) return 'fail';
  return report.verdictBesideFailures ?? verdictOf(report.runError ? ['error'] : []);
}

/** The exit status a report's run ends with: its gate verdict's, a configuration error's own. */
export function exitStatusOf(
  report: Pick<ConformanceReport, 'verdict' | 'verdictBesideFailures' | 'sinceLastRun' | 'runError'>,
): keyof typeof EXIT_STATUSES {
  const verdict = gateVerdict(report);
  return verdict === 'error' && report.runError?.kind === 'configuration' ? 'configuration' : verdict;
}
