// Builds the conformance report from test results: per requirement, its status; and the gate verdict,
// in which documented deviations do not count and stale ones do.
import type { Requirement } from '../contract/requirements.ts';
import { type Expectation, expectationFor } from './expectations.ts';
import type { ConformanceReport, RequirementResult, TestResultSummary } from './model.ts';

export type RunMeta = Pick<
  ConformanceReport,
  'target' | 'baseUrl' | 'profile' | 'environment' | 'startedAt' | 'durationMs' | 'requestsSent'
> & { interrupted: boolean };

function requirementStatus(
  requirement: Requirement,
  tests: TestResultSummary[],
): RequirementResult['status'] {
  if (requirement.level === 'UNSPECIFIED') return 'unspecified';
  if (tests.some((test) => test.status === 'failed')) return 'fail';
  if (tests.some((test) => test.status === 'passed')) return 'pass';
  if (tests.length > 0) return 'skip';
  return 'untested';
}

export function buildReport(
  tests: TestResultSummary[],
  catalogue: readonly Requirement[],
  expectations: readonly Expectation[],
  meta: RunMeta,
): Omit<ConformanceReport, 'digest'> {
  const gateFailures: string[] = [];
  const deviations: ConformanceReport['deviations'] = [];
  for (const test of tests) {
    const expectation = expectationFor(expectations, test.title, test.requirements);
    if (test.status === 'failed' && expectation) {
      deviations.push({ test: test.title, key: expectation.key, reason: expectation.reason });
    } else if (test.status === 'failed') {
      gateFailures.push(`failed: ${test.title}`);
    }
  }
  for (const expectation of expectations) {
    const covered = tests.filter(
      (test) => test.title === expectation.key || test.requirements.includes(expectation.key),
    );
    if (
      covered.some((test) => test.status === 'passed') &&
      !covered.some((test) => test.status === 'failed')
    ) {
      gateFailures.push(
        `expected failure no longer happens: ${expectation.key} (${expectation.reason}); remove it from the expectations file`,
      );
    }
  }
  const known = new Set(catalogue.map((requirement) => requirement.id));
  const requirements: RequirementResult[] = catalogue.map((requirement) => {
    const declaring = tests.filter((test) => test.requirements.includes(requirement.id));
    return {
      id: requirement.id,
      level: requirement.level,
      section: requirement.section,
      text: requirement.text,
      status: requirementStatus(requirement, declaring),
      verifiable: requirement.verifiable,
      reason: requirement.reason,
      tests: declaring.map((test) => ({
        title: test.title,
        status: test.status,
        skipReason: test.skipReason,
      })),
      notes: [...new Set(declaring.flatMap((test) => test.notes))],
      deviation: deviations.find((deviation) => deviation.key === requirement.id)?.reason,
    };
  });
  const { interrupted, ...run } = meta;
  return {
    ...run,
    totals: {
      passed: tests.filter((test) => test.status === 'passed').length,
      failed: tests.filter((test) => test.status === 'failed').length,
      skipped: tests.filter((test) => test.status === 'skipped').length,
    },
    verdict: gateFailures.length === 0 && !interrupted ? 'pass' : 'fail',
    gateFailures,
    deviations,
    unknownRequirementTags: [
      ...new Set(tests.flatMap((test) => test.requirements).filter((id) => !known.has(id))),
    ],
    requirements,
    tests,
  };
}
