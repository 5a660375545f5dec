// A requirement's result as lines of text, from the result alone: its failures (each test's finding, with
// the request line and its curl) and why it was not verified with how to verify it. The CI forms share them.
import type { ConformanceResult, ResultFinding, ResultRequirement } from '../../result/schema.ts';
import type { Cause } from './causes.ts';

type NotVerifiedLine = ResultRequirement['notVerified'][number];
/** The lines of `requirement`'s not verified that an error left it (the run's, or the suite's own). */
export const errorLines = (requirement: ResultRequirement): NotVerifiedLine[] =>
  requirement.notVerified.filter((line) => line.kind === 'run-error');

/** How an entry the data cannot show is marked wherever it is listed: it is no part of the verdict. */
export const UNCOUNTED = 'cannot be observed with this data (not counted)';

/** A MUST requirement this data cannot show (a stated rule no client observes here), left out of the verdict. */
export const isUncounted = (
  requirement: Pick<ResultRequirement, 'level' | 'verifiable' | 'status'>,
): boolean =>
  requirement.level === 'MUST' && !requirement.verifiable && requirement.status === 'not-verified';

/** What would verify a requirement a check could not: what to set or to fix, never the reason again. */
export function howToVerify(
  line: NotVerifiedLine,
  requirement?: Pick<ResultRequirement, 'verifiable' | 'reason'>,
): string {
  switch (line.kind) {
    case 'configuration':
      return line.variables?.length ? `set ${line.variables.join(', ')}` : 'configure what the reason names';
    case 'run-error':
      return line.remedy ?? 'clear the run error';
    case 'not-run':
      return 'run the whole profile, to its end';
    case 'blocked':
      return `fix ${line.prerequisite ?? 'its prerequisite'} first`;
    default:
      // A rule this data cannot show: the catalogue says what would.
      return requirement && !requirement.verifiable && requirement.reason
        ? requirement.reason
        : 'users whose data has it (CONFORMANCE_USER, CONFORMANCE_USER_B), or a target that holds it';
  }
}

/** Why a requirement was not verified, once per reason: the checks that gave it, and how to verify it. */
export interface NotVerifiedReason {
  kind: NotVerifiedLine['kind'];
  message: string;
  howToVerify: string;
  prerequisite?: string;
  tests: string[];
}

/** A requirement's not-verified lines, the same reason (kind, message, remedy) once, with its checks. */
export function notVerifiedReasons(requirement: ResultRequirement): NotVerifiedReason[] {
  const reasons = new Map<string, NotVerifiedReason>();
  for (const line of requirement.notVerified) {
    const how = howToVerify(line, requirement);
    const key = `${line.kind}\n${line.message}\n${how}`;
    const known = reasons.get(key);
    if (known) known.tests.push(line.test);
    else
      reasons.set(key, {
        kind: line.kind,
        message: line.message,
        howToVerify: how,
        prerequisite: line.prerequisite,
        tests: [line.test],
      });
  }
  return [...reasons.values()];
}

/** "11 checks: reason (how to verify)", once per reason; a requirement this data cannot show says so. */
export function notVerifiedLines(requirement: ResultRequirement): string[] {
  const lines = notVerifiedReasons(requirement).map(
    ({ tests, message, howToVerify: how }) =>
      `${tests.length === 1 ? tests[0] : `${tests.length} checks`}: ${message} (${how})`,
  );
  const [first, ...rest] = lines;
  return isUncounted(requirement) && first ? [`${UNCOUNTED}: ${first}`, ...rest] : lines;
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

/** The curl of a finding: its exchange's, else the `reproduce:` line of its evidence. */
export function curlOf(result: ConformanceResult, finding: ResultFinding): string | undefined {
  return result.exchanges.find((exchange) => exchange.id === finding.exchange)?.curl ?? finding.curl;
}

/** The finding a cause names first (its failures' first). */
export const firstFindingOf = (result: ConformanceResult, cause: Cause): ResultFinding | undefined => {
  const [first] = cause.findings;
  return first && result.tests.find((test) => test.title === first.test)?.findings[first.index];
};
