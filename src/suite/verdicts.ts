// Assertions that speak the contract's language, and the other verdicts a check can reach. Every failure
// names the requirement, the request (with a curl reproduction, credentials redacted) and the offending
// field or value. Besides failing, a check can:
//   - record its evidence (what it saw, e.g. "182 records of 8 pages"), so a pass says how much it rests on;
//   - warn: the target departs from the suite's reading of a point the seed states loosely (a READING
//     requirement); never a failure unless strict mode (CONFORMANCE_STRICT=1) is on;
//   - stop as not verified (too little data, a capability the configuration lacks) or blocked (a
//     prerequisite failed): a skip whose reason the reporter classifies, never a pass;
//   - note what the target does where the seed says "not shown".
// The reporter (src/report/) reads these as test annotations and skip reasons; the prefixes are below.
import { type TestInfo, test } from '@playwright/test';
import { formatViolation, validate } from '../contract/validators.ts';
import { isJsonContentType } from '../http/content-type.ts';
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';

/** Annotation types and skip-reason prefixes of the verdict model (shared with the reporter). */
export const VerdictMark = {
  /** annotation: the one requirement a check declares (src/suite/verifies.ts) */
  requirement: 'requirement',
  evidence: 'evidence',
  warning: 'warning',
  note: 'note',
  /** annotation: one requirement of a test that otherwise ran could not be verified */
  requirementNotVerified: 'not-verified',
  notVerified: 'not verified: ',
  blocked: 'blocked by ',
  omitted: 'omitted: ',
  /** annotation: the requests the test sent, as JSON `{"user":N,"partner":M}` */
  requests: 'requests',
} as const;

const annotate = (type: string, requirement: string, text: string) =>
  test.info().annotations.push({ type, description: `${requirement}: ${text}` });

/** What a passing check of `requirement` rested on, e.g. "182 records of 8 pages, 140 SCORED". */
export function evidence(requirement: string, text: string): void {
  annotate(VerdictMark.evidence, requirement, text);
}

/** The target departs from the suite's reading of a loosely stated point (see `reading` in the catalogue). */
export function warn(requirement: string, observed: string, context?: Exchange): void {
  annotate(VerdictMark.warning, requirement, context ? `${observed} (${firstLine(context)})` : observed);
}

/** Records what the target does on a point the seed leaves open ("not shown"). */
export function note(requirement: string, text: string): void {
  annotate(VerdictMark.note, requirement, text);
}

/** One requirement of a check that goes on could not be verified (the others keep their verdict). */
export function notVerifiedHere(requirement: string, reason: string): void {
  annotate(VerdictMark.requirementNotVerified, requirement, reason);
}

/** Ends the check as not verified: what was missing, and what would supply it. */
export function notVerified(reason: string): never {
  test.skip(true, `${VerdictMark.notVerified}${reason}`);
  throw new Error('unreachable: test.skip throws');
}

/** Ends the check as not verified because the prerequisite `requirement` failed. */
export function blockedBy(requirement: string, reason: string): never {
  test.skip(true, `${VerdictMark.blocked}${requirement}: ${reason}`);
  throw new Error('unreachable: test.skip throws');
}

/** `GET http://…/v2/cycle?limit=0 → 200`, without the curl line. */
const firstLine = (exchange: Exchange): string => describeExchange(exchange).split('\n')[0] ?? '';

/** The requirement a ConformanceFailure's message names: `[ID] …`, possibly after the error class name. */
export function namedRequirement(message: string): string | undefined {
  return /^(?:\w*Error: |ConformanceFailure: )?\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\]/.exec(message)?.[1];
}

export class ConformanceFailure extends Error {
  constructor(
    readonly requirement: string,
    message: string,
  ) {
    // Redacted here, before Playwright sees it: a quoted body may carry a token the service just issued.
    super(redactText(`[${requirement}] ${message}`));
    this.name = 'ConformanceFailure';
  }
}

/** Fails with every problem found, so one run shows them all (capped to keep messages readable). */
export function expectNone(requirement: string, problems: readonly string[], context?: Exchange): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 15).map((problem) => `  - ${problem}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  const where = context ? `\n${describeExchange(context)}` : '';
  throw new ConformanceFailure(requirement, `${problems.length} violation(s):\n${shown.join('\n')}${where}`);
}

export function expectThat(
  requirement: string,
  condition: boolean,
  message: string,
  context?: Exchange,
): void {
  if (!condition) expectNone(requirement, [message], context);
}

export function expectStatus(
  requirement: string,
  exchange: Exchange,
  expected: number | readonly number[],
): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (allowed.includes(exchange.status)) return;
  const body = exchange.text.length > 300 ? `${exchange.text.slice(0, 300)}…` : exchange.text;
  throw new ConformanceFailure(
    requirement,
    `expected status ${allowed.join(' or ')}, got ${exchange.status}${body ? ` (body: ${body})` : ''}\n${describeExchange(exchange)}`,
  );
}

export function expectJsonContentType(requirement: string, exchange: Exchange): void {
  const type = exchange.headers['content-type'] ?? '';
  expectThat(
    requirement,
    isJsonContentType(type),
    `content-type is "${type}", not application/json`,
    exchange,
  );
}

/** Validates `data` (a response body or part of it) against a schema of schemas/. */
export function expectSchema(
  requirement: string,
  schema: string,
  data: unknown,
  context?: Exchange,
  at = '',
): void {
  const result = validate(schema, data);
  expectNone(
    requirement,
    result.errors.map((violation) => (at ? `${at}: ` : '') + formatViolation(violation)),
    context,
  );
}

/** Never a 5xx: the one rule that holds for every request, valid or not. */
export function expectNo5xx(requirement: string, exchange: Exchange): void {
  expectThat(requirement, exchange.status < 500, `server error ${exchange.status}`, exchange);
}

/**
 * A refusal whose status the seed does not name: served (below 400) fails `requirement`, a 5xx fails
 * ERR-NO-5XX-ON-CLIENT-INPUT, and a 4xx other than the suite's reading (`expected`) is a warning.
 */
export function expectRefusal(requirement: string, exchange: Exchange, expected: readonly number[]): void {
  expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', exchange);
  expectThat(
    requirement,
    exchange.status >= 400,
    `served with status ${exchange.status}, not refused`,
    exchange,
  );
  if (!expected.includes(exchange.status))
    warn(requirement, `refused with ${exchange.status}, not ${expected.join(' or ')}`, exchange);
}

/** The assertions and verdicts above, each bound to one requirement (a check's own). */
const requirementVerdicts = {
  evidence,
  warn,
  note,
  notVerifiedHere,
  expectNone,
  expectThat,
  expectStatus,
  expectJsonContentType,
  expectSchema,
  expectNo5xx,
  expectRefusal,
};

type WithoutRequirement<F> = F extends (requirement: string, ...rest: infer A) => infer R
  ? (...rest: A) => R
  : never;

/** The verdicts of one check, bound to the requirement it declares: `verdict.expectStatus(exchange, 200)`. */
export type Verdict = { readonly requirement: string } & {
  readonly [K in keyof typeof requirementVerdicts]: WithoutRequirement<(typeof requirementVerdicts)[K]>;
};

/** The verdicts of the requirement the running test declared through verifies(). */
export function declaredVerdict(testInfo: TestInfo): Verdict {
  const requirement = testInfo.annotations.find((a) => a.type === VerdictMark.requirement)?.description;
  if (!requirement)
    throw new Error(`"${testInfo.title}" uses the verdict fixture but is not declared with verifies()`);
  return verdictFor(requirement);
}

function verdictFor(requirement: string): Verdict {
  const bound = Object.entries(requirementVerdicts).map(([name, verdict]) => [
    name,
    (...rest: unknown[]) =>
      (verdict as (requirement: string, ...rest: unknown[]) => unknown)(requirement, ...rest),
  ]);
  return { requirement, ...Object.fromEntries(bound) } as Verdict;
}
