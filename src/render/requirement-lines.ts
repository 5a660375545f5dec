// A requirement's result as lines of text, from the result alone: its failures (each test's finding, with
// the request line and its curl) and why it was not verified with how to verify it. The CI forms share them.
import type { ConformanceResult, ResultFinding, ResultRequirement } from '../result/schema.ts';

type NotVerifiedLine = ResultRequirement['notVerified'][number];
/** The lines of `requirement`'s not verified that an error left it (the run's, or the suite's own). */
export const errorLines = (requirement: ResultRequirement): NotVerifiedLine[] =>
  requirement.notVerified.filter((line) => line.kind === 'run-error');

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

/** A failure in one line for a title or an attribute: its first two lines ("2 violation(s): - …"), cut. */
export function headline(failure: string): string {
  const line = failure
    .split('\n')
    .slice(0, 2)
    .map((part) => part.trim())
    .join(' ');
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** "owner ops-team; ticket API-231; until 2026-12-31" of a known failure, where the expectations give them. */
export const ownershipLine = ({
  owner,
  ticket,
  expires,
}: NonNullable<ConformanceResult['expiredDeviations']>[number]): string =>
  [owner && `owner ${owner}`, ticket && `ticket ${ticket}`, expires && `until ${expires}`]
    .filter(Boolean)
    .join('; ');

/** "offending field(s): /body/records" of a finding that names them, else ''. */
export const fieldsLine = ({ fields }: Pick<ResultFinding, 'fields'>): string =>
  fields ? `offending field${fields.length > 1 ? 's' : ''}: ${fields.join(', ')}` : '';

/**
 * The failures of `requirement`: each fail finding naming it, with its offending fields and its evidence
 * (the request and its curl).
 */
export function failureLines(result: ConformanceResult, requirement: ResultRequirement): string[] {
  const lines = result.tests.flatMap((test) =>
    test.findings
      .filter((finding) => finding.outcome === 'fail' && finding.requirement === requirement.id)
      .map((finding) =>
        [`${test.title}: ${finding.message}`, fieldsLine(finding), finding.evidence ?? '']
          .filter(Boolean)
          .join('\n'),
      ),
  );
  // A failure no test owns (a latency budget in strict mode) is stated by its warnings.
  return lines.length > 0 ? lines : requirement.warnings.map((line) => `${line.test}: ${line.message}`);
}
