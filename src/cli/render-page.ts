// Renders the page of a given conformance.json (`physiology-conformance render-page`): the result is checked
// against the published schema first, so a file that is not one is refused by name, with nothing written.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { reportPage } from '../report/page/report-page.ts';
import { REQUIREMENT_HISTORY } from '../report/requirement-history.ts';
import { PAGE } from '../report/write-report.ts';
import { readResult } from '../result/validate.ts';

export function renderPageOf(file: string, options: { output?: string; history?: string }): number {
  const report = readResult(file);
  const output = options.output ?? join(dirname(file), PAGE);
  const html = reportPage(report, options.history ?? join(dirname(file), REQUIREMENT_HISTORY));
  writeFileSync(output, html);
  console.log(`${output} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB)`);
  return 0;
}
