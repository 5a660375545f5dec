// CONFORMANCE_LATENCY_BUDGET judged on the recorded numbers, never by a timed assertion: the report's
// latency table gets each operation's budget, and an operation whose p95 is over its budget is a warning of
// LAT-BUDGET (specs/requirements.yaml: the seed states no latency, the budget is the team's), a failure
// only with CONFORMANCE_STRICT=1.
import type { LatencyBudgets } from '../../../config/variable-parsers.ts';
import { outcomeOfVerdict, verdictOf } from '../../../result/outcomes.ts';
import { requirementTotalsOf } from '../build-report.ts';
import type { ConformanceReport, RequirementResult } from '../model.ts';
import { overBudget } from '../overview.ts';
import type { LatencyRow } from './latency.ts';

export const LATENCY_REQUIREMENT = 'LAT-BUDGET';

/** Who states LAT-BUDGET's result: the run's latency table, no test of its own. */
const BY_THE_RUN = 'the latency table of the run';

const budgetOf = (budgets: LatencyBudgets, operationId: string): number | undefined =>
  budgets[operationId] ?? budgets['*'];

/** The rows with their budgets. */
export const withBudgets = (rows: readonly LatencyRow[], budgets: LatencyBudgets): LatencyRow[] =>
  rows.map((row) => {
    const budgetMs = budgetOf(budgets, row.operationId);
    return budgetMs === undefined ? row : { ...row, budgetMs };
  });

/** LAT-BUDGET's result from the judged rows. */
function judged(
  requirement: RequirementResult,
  rows: readonly LatencyRow[],
  strict: boolean,
): RequirementResult {
  const budgeted = rows.filter((row) => row.budgetMs !== undefined);
  const over = budgeted.filter(overBudget);
  if (budgeted.length === 0)
    return {
      ...requirement,
      status: 'not-verified',
      notVerified: [
        { test: BY_THE_RUN, message: 'no answer of an operation with a budget was recorded', kind: 'data' },
      ],
    };
  const line = (row: LatencyRow) =>
    `${row.operationId}: p95 ${row.p95} ms ${overBudget(row) ? 'over' : 'within'} the budget of ${row.budgetMs} ms (${row.count} answer(s), max ${row.max} ms)`;
  if (over.length === 0)
    return {
      ...requirement,
      status: 'pass',
      evidence: budgeted.map((row) => ({ test: BY_THE_RUN, message: line(row), count: row.count })),
      evidenceCount: budgeted.reduce((sum, row) => sum + row.count, 0),
    };
  return {
    ...requirement,
    status: strict ? 'fail' : 'warning',
    warnings: over.map((row) => ({ test: BY_THE_RUN, message: line(row) })),
  };
}

/** The report with its latency table and, when budgets are set, LAT-BUDGET judged (strict: the gate too). */
export function withLatency<T extends ConformanceReport>(
  report: T,
  rows: readonly LatencyRow[],
  budgets: LatencyBudgets,
): T {
  const latency = withBudgets(rows, budgets);
  if (Object.keys(budgets).length === 0) return { ...report, latency };
  const results = report.requirements.map((r) =>
    r.id === LATENCY_REQUIREMENT ? judged(r, latency, report.strict) : r,
  );
  const failed = results.find((r) => r.id === LATENCY_REQUIREMENT && r.status === 'fail');
  const gateFailures = failed
    ? [
        ...report.gateFailures,
        `latency over budget (CONFORMANCE_STRICT=1): ${failed.warnings.map((w) => w.message).join('; ')}`,
      ]
    : report.gateFailures;
  return {
    ...report,
    latency,
    requirements: results,
    requirementTotals: requirementTotalsOf(results),
    gateFailures,
    // A failure outranks a run error (worstOf): the run's error stays beside it.
    verdict: verdictOf([...(failed ? (['fail'] as const) : []), outcomeOfVerdict(report.verdict)]),
    ...(failed && report.verdict !== 'fail' ? { verdictBesideFailures: report.verdict } : {}),
  };
}
