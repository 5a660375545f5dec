// How a check tells the reporter which classes of the input space it covered (issue 31), and how deep it went:
// an annotation per class it sent and judged, `{ type: 'input-class', description: '["limit","17","listCycles"]' }`
// (family, value, where), and the plan it read through as a `depth` annotation (src/worker/user-data/depth.ts).
import type { TestInfo } from '@playwright/test';

export const INPUT_CLASS_ANNOTATION = 'input-class';
/** The annotation that carries the plan a test read through (JSON of the DepthPlan, src/worker/user-data/depth.ts). */
export const DEPTH_ANNOTATION = 'depth';

/** Records that the running test sent and judged `values` of a class `family` (on `where`: a collection...). */
export function recordCovered(
  testInfo: TestInfo,
  family: string,
  values: readonly string[],
  where = '',
): void {
  for (const value of values) {
    const description = JSON.stringify([family, value, where]);
    if (!testInfo.annotations.some((a) => a.type === INPUT_CLASS_ANNOTATION && a.description === description))
      testInfo.annotations.push({ type: INPUT_CLASS_ANNOTATION, description });
  }
}
