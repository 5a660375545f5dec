// Renders the page of a given conformance.json (`physiology-conformance render-page`).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConformanceReport } from '../report/model.ts';
import { reportPage } from '../report/page/report-page.ts';
import { PAGE } from '../report/write-report.ts';

const HISTORY = 'requirement-history.jsonl';

export function renderPageOf(file: string, options: { output?: string; history?: string }): number {
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  const output = options.output ?? join(dirname(file), PAGE);
  const html = reportPage(report, options.history ?? join(dirname(file), HISTORY));
  writeFileSync(output, html);
  console.log(`${output} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB)`);
  return 0;
}
