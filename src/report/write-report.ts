// Writes reports/conformance.json and reports/conformance.md from a built report.
import { mkdirSync, writeFileSync } from 'node:fs';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport } from './model.ts';
import { runErrorLine } from './run-errors.ts';

export function writeReport(report: ConformanceReport): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(reportPath('conformance.md'), renderMarkdown(report));
}

/** The file of a matrix run's reports, one per target (src/config/run-plan.ts). */
export const MATRIX_REPORT = 'matrix.json';

export function writeMatrixReport(reports: Record<string, ConformanceReport>): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath(MATRIX_REPORT), `${JSON.stringify(reports)}\n`);
}

/** The one-line verdict the console shows. */
export function verdictLine(report: ConformanceReport): string {
  const { passed, failed, skipped } = report.totals;
  const r = report.requirementTotals;
  return (
    (report.runError ? `Run error (${report.runError.kind}): ${runErrorLine(report.runError)}\n` : '') +
    (report.stoppedSending ? `Run stopped sending: ${report.stoppedSending}\n` : '') +
    (report.selection.length > 0
      ? `Run narrowed to part of the profile: ${report.selection.join('; ')}\n`
      : '') +
    `Conformance: ${report.verdict.toUpperCase()}: ${passed} passed, ${failed} failed, ${skipped} skipped; ` +
    `requirements: ${r.pass} pass, ${r.fail} fail, ${r.warning} warning, ${r['not-verified']} not verified, ${r.note} note; ` +
    `${report.requestsSent} requests; ${reportPath('conformance.md')}`
  );
}
