// A check states the one requirement it verifies once: check('PAG-LIMIT-MAX', 'limit over 25 …', body)
// derives the test's title ("PAG-LIMIT-MAX: limit over 25 …"), its tag (@PAG-LIMIT-MAX, which the
// mutation gate and `--grep` select on) and binds the `verdict` fixture to it, so assertions take no ID.
// Requirements the check also touches on the way (a schema, JSON bodies) are declared in `also`.
import type { TestDetails } from '@playwright/test';
import { test } from './dataset.ts';
import { VerdictMark } from './verdicts.ts';

type CheckBody = Parameters<typeof test>[2];

export interface CheckOptions {
  /** Further requirements whose failures this check may report (each tagged, so selection finds it). */
  also?: readonly string[];
  /** Profile tags (src/config/profiles.ts `Tags`), e.g. writes or non-production. */
  tag?: readonly string[];
}

export function check(requirement: string, title: string, body: CheckBody): void;
export function check(requirement: string, title: string, options: CheckOptions, body: CheckBody): void;
export function check(
  requirement: string,
  title: string,
  optionsOrBody: CheckOptions | CheckBody,
  maybeBody?: CheckBody,
): void {
  const [options, body] =
    typeof optionsOrBody === 'function' ? [{}, optionsOrBody] : [optionsOrBody, maybeBody as CheckBody];
  const details: TestDetails = {
    tag: [requirement, ...(options.also ?? [])].map((id) => `@${id}`).concat(options.tag ?? []),
    annotation: { type: VerdictMark.requirement, description: requirement },
  };
  test(`${requirement}: ${title}`, details, body);
}

export { test };
