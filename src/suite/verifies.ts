// A test states the one requirement it verifies once:
//   test(...verifies('PAG-LIMIT-MAX', 'limit over 25 …'), async ({ api, verdict }) => …)
// derives the test's title ("PAG-LIMIT-MAX: limit over 25 …") and its tag (@PAG-LIMIT-MAX, which the
// mutation gate and `--grep` select on), and binds the `verdict` fixture to it, so assertions take no ID.
// It returns test()'s arguments rather than calling test(), so Playwright records the spec file's line.
// Requirements the test also reports on the way (a schema, JSON bodies) are declared in `also`.
import type { TestDetails } from '@playwright/test';
import { REQUIREMENT_ANNOTATION } from '../report/finding.ts';

export interface VerifiesOptions {
  /** Further requirements whose failures this test may report (each tagged, so selection finds it). */
  also?: readonly string[];
  /** Profile tags (src/config/profiles.ts `Tags`), e.g. writes or non-production. */
  tag?: readonly string[];
}

export function verifies(
  requirement: string,
  title: string,
  options: VerifiesOptions = {},
): [title: string, details: TestDetails] {
  return [
    `${requirement}: ${title}`,
    {
      tag: [requirement, ...(options.also ?? [])].map((id) => `@${id}`).concat(options.tag ?? []),
      annotation: { type: REQUIREMENT_ANNOTATION, description: requirement },
    },
  ];
}
