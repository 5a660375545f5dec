// The summary conformance.md opens with: requirement counts per area, then the latency table (with the
// budget and the p95 change against the baseline when those are set), then the input classes covered.
import { inputsLines } from './input-coverage.ts';
import type { LatencyRow } from './latency.ts';
import type { ConformanceReport } from './model.ts';
import { areaCounts, overBudget, p95Change } from './summary.ts';

function latencyLines(rows: readonly LatencyRow[]): string[] {
  if (rows.length === 0) return ['', 'No timed answer of a contract operation was recorded.'];
  const budgeted = rows.some((row) => row.budgetMs !== undefined);
  const compared = rows.some((row) => row.baseline !== undefined);
  const head = ['Operation', 'Count', 'p50 ms', 'p95 ms', 'max ms'];
  if (budgeted) head.push('Budget (p95) ms');
  if (compared) head.push('p95 since baseline');
  const body = rows.map((row) => {
    const cells = [row.operationId, row.count, row.p50, row.p95, row.max].map(String);
    if (budgeted)
      cells.push(row.budgetMs === undefined ? '' : `${row.budgetMs}${overBudget(row) ? ' ⚠️ over' : ''}`);
    if (compared) cells.push(p95Change(row));
    return `| ${cells.join(' | ')} |`;
  });
  return ['', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body];
}

export function summaryLines(report: ConformanceReport): string[] {
  const areas = areaCounts(report.requirements).filter(
    (a) => a.pass + a.fail + a.warning + a.notVerified > 0,
  );
  return [
    '',
    '## Summary',
    '',
    '| Area | ✅ pass | ❌ fail | ⚠️ warning | ⏸ not verified |',
    '|---|---|---|---|---|',
    ...areas.map((a) => `| ${a.area} | ${a.pass} | ${a.fail} | ${a.warning} | ${a.notVerified} |`),
    '',
    '### Latency of the target (ms, per operation, from the answers this run recorded)',
    ...latencyLines(report.latency ?? []),
    ...inputsLines(report.inputs),
  ];
}
