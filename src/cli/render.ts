// `physiology-conformance render FILE [--out DIR]`: renders every form of a conformance result (Markdown,
// JUnit per test and per requirement, CTRF, the page, the GitHub summary where GITHUB_STEP_SUMMARY is set)
// from the conformance.json alone, so a result an older suite wrote renders again with this one.
import { dirname, join } from 'node:path';
import { InvalidResult, readResult } from '../result/validate.ts';
import { REQUIREMENT_HISTORY } from '../runner/report/requirement-history.ts';
import { renderResult } from '../runner/report/write-report.ts';

/**
 * Its exit status: 0 rendered, 1 the file is not a conformance result of the schema. The page's trend reads
 * `history`, by default the requirement history beside the file (runs after the result's are left out).
 */
export function render(
  file: string,
  out = dirname(file),
  history = join(dirname(file), REQUIREMENT_HISTORY),
): number {
  let result: ReturnType<typeof readResult>;
  try {
    result = readResult(file);
  } catch (error) {
    if (!(error instanceof InvalidResult)) throw error;
    console.error(error.message);
    return 1;
  }
  for (const written of renderResult(result, out, history)) console.log(written);
  return 0;
}
