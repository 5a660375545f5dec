// The run in Allure: one result of its own ("Conformance run verdict"), at the top of the report, with the
// run error, the gate failures and the incomplete list as its message, and the summary (requirement counts per area) and
// the latency table as CSV attachments, which Allure shows as tables.
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { redactText } from '../../../http/redact.ts';
import { reportPath } from '../../../run-state/reports-dir.ts';
import type { RunVerdict } from '../exit-statuses.ts';
import type { ConformanceReport } from '../model.ts';
import { areaCounts, overBudget, p95Change } from '../overview.ts';
import { runSideLines } from '../run-side.ts';

const csv = (rows: readonly (readonly (string | number | undefined)[])[]): string =>
  rows.map((row) => row.map((value) => `"${String(value ?? '').replace(/"/g, '""')}"`).join(',')).join('\n');

const summaryCsv = (report: ConformanceReport): string =>
  csv([
    ['area', 'pass', 'fail', 'warning', 'not verified'],
    ...areaCounts(report.requirements).map((a) => [a.area, a.pass, a.fail, a.warning, a.notVerified]),
  ]);

const latencyCsv = (report: ConformanceReport): string =>
  csv([
    [
      'operation',
      'count',
      'p50 ms',
      'p95 ms',
      'max ms',
      'budget (p95) ms',
      'over budget',
      'p95 since baseline',
    ],
    ...(report.latency ?? []).map((row) => [
      row.operationId,
      row.count,
      row.p50,
      row.p95,
      row.max,
      row.budgetMs,
      overBudget(row) ? 'yes' : '',
      p95Change(row),
    ]),
  ]);

/** Allure's own "broken" says what ERROR does: the run, not the target, went wrong. */
const ALLURE_STATUS: Record<RunVerdict, string> = {
  pass: 'passed',
  fail: 'failed',
  incomplete: 'skipped',
  error: 'broken',
};

export function markAllure(report: ConformanceReport): void {
  const dir = reportPath('allure-results');
  if (!existsSync(dir)) return;
  const uuid = randomUUID();
  const now = Date.now();
  // An ERROR's cause first; a FAIL's failures first, then what cut the run short.
  const runSide = runSideLines(report);
  const details = [
    ...(report.verdict === 'error' ? runSide : []),
    ...(report.selection.length > 0
      ? [`narrowed to part of the profile: ${report.selection.join('; ')}`]
      : []),
    ...report.gateFailures,
    ...(report.verdict === 'error' ? [] : runSide),
    ...report.incomplete.map((r) => `not verified: ${r.id}: ${r.reasons.join('; ')}`),
  ].join('\n');
  const attachments = [
    { name: 'summary by area', body: summaryCsv(report) },
    { name: 'latency per operation', body: latencyCsv(report) },
  ].map(({ name, body }) => {
    const source = `${randomUUID()}-attachment.csv`;
    writeFileSync(`${dir}/${source}`, body);
    return { name, source, type: 'text/csv' };
  });
  writeFileSync(
    `${dir}/${uuid}-result.json`,
    JSON.stringify({
      uuid,
      name: `Conformance run verdict: ${report.verdict.toUpperCase()}`,
      fullName: 'conformance run verdict',
      historyId: 'conformance-run-verdict',
      status: ALLURE_STATUS[report.verdict],
      statusDetails: { message: redactText(details) },
      stage: 'finished',
      labels: [{ name: 'suite', value: 'run verdict' }],
      attachments,
      start: now,
      stop: now,
    }),
  );
}
