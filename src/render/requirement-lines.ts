// A requirement's result as lines of text, from the result alone: its failures (each test's finding, with
// the request line and its curl) and why it was not verified with how to verify it. The CI forms share them.
import type { ConformanceResult, ResultRequirement } from '../result/schema.ts';

type NotVerifiedLine = ResultRequirement['notVerified'][number];

/** "title: reason (how to verify)": the variables to set, the prerequisite that failed, the remedy. */
export function notVerifiedLine(line: NotVerifiedLine): string {
  const how =
    line.kind === 'blocked'
      ? `blocked by ${line.prerequisite}`
      : line.kind === 'configuration' && line.variables
        ? `set ${line.variables.join(', ')}`
        : line.kind === 'run-error'
          ? line.remedy
          : line.kind === 'data'
            ? 'needs data the target did not hold'
            : undefined;
  return `${line.test}: ${line.message}${how ? ` (${how})` : ''}`;
}

/** The failures of `requirement`: each fail finding naming it, with its evidence (the request and its curl). */
export function failureLines(result: ConformanceResult, requirement: ResultRequirement): string[] {
  const lines = result.tests.flatMap((test) =>
    test.findings
      .filter((finding) => finding.outcome === 'fail' && finding.requirement === requirement.id)
      .map((finding) => [`${test.title}: ${finding.message}`, finding.evidence ?? ''].join('\n').trim()),
  );
  // A failure no test owns (a latency budget in strict mode) is stated by its warnings.
  return lines.length > 0 ? lines : requirement.warnings.map((line) => `${line.test}: ${line.message}`);
}
