// Writes reports/conformance.json, then every other form of the report from that file as written (so each
// renders the published result and nothing else, and an older result renders again: `render`):
// conformance.md, junit.xml (per test), junit-requirements.xml and ctrf-report.json (per requirement), the
// report page, and the GitHub job summary where GITHUB_STEP_SUMMARY names one.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceResult } from '../../result/schema.ts';
import { readResult } from '../../result/validate.ts';
import { githubRunUrl, processVariable } from '../../run-state/process-variables.ts';
import { reportPath, reportsDir } from '../../run-state/reports-dir.ts';
import { ctrfReport } from '../render/ctrf.ts';
import { githubSummary } from '../render/github-summary.ts';
import { junitRequirementsXml } from '../render/junit-requirements.ts';
import { junitXml } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport } from './model.ts';
import { renderPage } from './page/document.tsx';
import { pageView } from './page/from-report.ts';
import { type FormFile, MATRIX_REPORT, PAGE } from './report-files.ts';
import { readHistory, requirementHistoryPath } from './requirement-history.ts';
import { runSideLines } from './run-side.ts';

export { MATRIX_REPORT, PAGE, REPORT_FILES } from './report-files.ts';

/** The forms of a result, each a file of the reports directory. */
export const RENDERED: Readonly<Record<FormFile, (result: ConformanceResult) => string>> = {
  'conformance.md': renderMarkdown,
  'junit.xml': junitXml,
  'junit-requirements.xml': junitRequirementsXml,
  'ctrf-report.json': (result) => `${JSON.stringify(ctrfReport(result), null, 2)}\n`,
};

/**
 * Writes every form of `result` into `dir` (the page with the trend of `historyFile`), and the GitHub job
 * summary when there is one; the files written.
 */
export function renderResult(result: ConformanceResult, dir: string, historyFile: string): string[] {
  mkdirSync(dir, { recursive: true });
  const view = pageView(result, readHistory(historyFile));
  const forms = { ...RENDERED, [PAGE]: (_: ConformanceResult) => renderPage(view) };
  const written = Object.entries(forms).map(([name, render]) => {
    writeFileSync(join(dir, name), render(result));
    return join(dir, name);
  });
  const summary = processVariable('GITHUB_STEP_SUMMARY');
  if (summary) {
    // The summary's new failures are the page's, against the baseline or the last run of the history.
    const { changes } = view;
    const newFailures = changes && { ids: changes.newFailures, against: changes.against };
    appendFileSync(summary, githubSummary(result, { newFailures, runUrl: githubRunUrl() }));
    written.push(summary);
  }
  return written;
}

/** Writes conformance.json, then every form rendered from it as written; the result as read back. */
export function writeReport(report: ConformanceReport): ConformanceResult {
  mkdirSync(reportsDir, { recursive: true });
  const file = reportPath('conformance.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const result = readResult(file);
  renderResult(result, reportsDir, requirementHistoryPath());
  return result;
}

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
