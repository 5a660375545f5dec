// The "could it fail here?" audit of a run's report. A requirement the report passes, or warns about, rests on
// evidence when every test the report counts as passing it recorded a `pass` finding for it
// (verdict.evidence: what it observed that could have shown a violation) and at least one such test exists.
// A warning alone is evidence only for a requirement that is a reading as a whole: it is the departure seen.
// A check that could not have seen a violation stops as not verified instead, and is not counted here.
import type { ConformanceReport, RequirementResult, TestResultSummary } from './model.ts';

export interface Unevidenced {
  requirement: string;
  status: RequirementResult['status'];
  /** The passing tests that recorded no evidence for it; empty when no test passed it at all. */
  tests: string[];
}

/** The tests the report counts as passing `id` (as build-report.ts does: passed, and not "not verified" for it). */
const passing = (tests: readonly TestResultSummary[], id: string): TestResultSummary[] =>
  tests.filter(
    (test) =>
      test.outcome === 'pass' &&
      test.requirements.includes(id) &&
      !test.findings.some((finding) => finding.outcome === 'not-verified' && finding.requirement === id),
  );

const hasEvidence = (test: TestResultSummary, id: string): boolean =>
  test.findings.some((finding) => finding.outcome === 'pass' && finding.requirement === id);

/** Every requirement the report gives pass or warning without evidence, with the tests that lack it. */
export function unevidencedVerdicts(report: ConformanceReport): Unevidenced[] {
  return report.requirements.flatMap((requirement) => {
    const { id, status, level } = requirement;
    if (status !== 'pass' && status !== 'warning') return [];
    const passed = passing(report.tests, id);
    if (passed.length === 0)
      return status === 'warning' && level === 'READING' ? [] : [{ requirement: id, status, tests: [] }];
    const bare = passed.filter((test) => !hasEvidence(test, id)).map((test) => test.title);
    return bare.length === 0 ? [] : [{ requirement: id, status, tests: bare }];
  });
}
