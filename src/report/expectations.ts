// Known deviations: a YAML file (CONFORMANCE_EXPECTATIONS) mapping a requirement ID or a test title to
// its expected outcome, with a reason. An expected failure does not fail the gate; an expected failure
// that stops happening does, so the list cannot rot.
import { readFileSync } from 'node:fs';
import { parseYaml } from '../contract/yaml-file.ts';

export interface Expectation {
  /** A requirement ID or a test title. */
  key: string;
  outcome: 'fail';
  reason: string;
}

export function loadExpectations(path: string | undefined): Expectation[] {
  if (!path) return [];
  const document = parseYaml(readFileSync(path, 'utf8')) as {
    expectations?: Record<string, { outcome?: string; reason?: string }>;
  };
  return Object.entries(document?.expectations ?? {}).map(([key, value]) => {
    if (value?.outcome !== 'fail' || !value.reason) {
      throw new Error(`${path}: expectation "${key}" needs outcome: fail and a reason`);
    }
    return { key, outcome: 'fail', reason: value.reason };
  });
}

/** The expectation that covers a failing test, through its title or one of its requirement IDs. */
export function expectationFor(
  expectations: readonly Expectation[],
  title: string,
  requirementIds: readonly string[],
): Expectation | undefined {
  return expectations.find(
    (expectation) => expectation.key === title || requirementIds.includes(expectation.key),
  );
}
