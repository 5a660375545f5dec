// Writes reports/conformance.json, reports/conformance.md and the page, reports/index.html, from a built
// report (the page with the trend of the requirement history).
import { mkdirSync, writeFileSync } from 'node:fs';
import { reportPath, reportsDir } from '../run-state/reports-dir.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport } from './model.ts';
import { reportPage } from './page/report-page.ts';
import { requirementHistoryPath } from './requirement-history.ts';
import { runSideLines } from './run-side.ts';

/** The page of a run, beside conformance.md. */
export const PAGE = 'index.html';

export function writeReport(report: ConformanceReport): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(reportPath('conformance.md'), renderMarkdown(report));
  writeFileSync(reportPath(PAGE), reportPage(report, requirementHistoryPath()));
}

/** The file of a matrix run's reports, one per target (src/config/run-plan.ts). */
export const MATRIX_REPORT = 'matrix.json';

export function writeMatrixReport(reports: Record<string, ConformanceReport>): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath(MATRIX_REPORT), `${JSON.stringify(reports)}\n`);
}

/** The verdict the console shows: a FAIL first, then what cut the run short; an ERROR's cause first. */
export function verdictLine(report: ConformanceReport): string {
  const { passed, failed, skipped } = report.totals;
  const r = report.requirementTotals;
  const verdict =
    `Conformance: ${report.verdict.toUpperCase()}: ${passed} passed, ${failed} failed, ${skipped} skipped; ` +
    `requirements: ${r.pass} pass, ${r.fail} fail, ${r.warning} warning, ${r['not-verified']} not verified, ${r.note} note; ` +
    `${report.requestsSent} requests; ${reportPath('conformance.md')}`;
  const stopped = [
    ...(report.stoppedSending ? [`Run stopped sending: ${report.stoppedSending}`] : []),
    ...(report.selection.length > 0
      ? [`Run narrowed to part of the profile: ${report.selection.join('; ')}`]
      : []),
  ];
  const lines =
    report.verdict === 'error'
      ? [...runSideLines(report), ...stopped, verdict]
      : [verdict, ...runSideLines(report), ...stopped];
  return lines.join('\n');
}
