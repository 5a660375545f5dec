// Assertions that speak the contract's language, and the other verdicts a check can reach. Every failure
// names the requirement, the request (with a curl reproduction, credentials redacted) and the offending
// field or value. Besides failing, a check can record its evidence (what a pass rests on), warn (the target
// departs from the suite's reading of a loosely stated point), note what the target does where the seed
// says "not shown", or stop as not verified or blocked (a skip, never a pass). Each is a Finding
// (src/report/finding.ts) the reporter reads; a failure becomes one where it ends the test.
import { type TestInfo, test } from '@playwright/test';
import { formatViolation, validate } from '../contract/validators.ts';
import { isJsonContentType } from '../http/content-type.ts';
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';
import { type Finding, REQUIREMENT_ANNOTATION, recordFinding, stopReason } from '../report/finding.ts';
import { keepRaised } from './raised-failures.ts';

/** Records `finding` on the test, redacted (a quoted body may carry a token the service just issued). */
function record(testInfo: TestInfo, finding: Finding): void {
  const { message, evidence } = finding;
  recordFinding(testInfo, {
    ...finding,
    message: redactText(message),
    ...(evidence === undefined ? {} : { evidence: redactText(evidence) }),
  });
}

/** The one requirement the test declared through verifies(). */
export function declaredRequirement(testInfo: TestInfo): string {
  const requirement = testInfo.annotations.find((a) => a.type === REQUIREMENT_ANNOTATION)?.description;
  if (!requirement) throw new Error(`"${testInfo.title}" is not declared with verifies()`);
  return requirement;
}

/** Ends the check without a verdict (not verified, blocked, omitted, a run error): a skip, never a pass. */
export function stopWith(testInfo: TestInfo, stop: Omit<Finding, 'requirement'>): never {
  const finding = { requirement: declaredRequirement(testInfo), ...stop };
  record(testInfo, finding);
  testInfo.skip(true, stopReason(finding));
  throw new Error('unreachable: testInfo.skip throws');
}

/**
 * What a passing check of `requirement` rested on: what it observed that could have shown a violation, e.g.
 * "182 records of 8 pages, 140 SCORED", with the request's line when one request says it.
 */
export function evidence(requirement: string, text: string, context?: Exchange): void {
  record(test.info(), {
    requirement,
    outcome: 'pass',
    message: context ? `${text} (${firstLine(context)})` : text,
  });
}

/** The target departs from the suite's reading of a loosely stated point (see `reading` in the catalogue). */
export function warn(requirement: string, observed: string, context?: Exchange): void {
  record(test.info(), {
    requirement,
    outcome: 'warning',
    message: context ? `${observed} (${firstLine(context)})` : observed,
    ...(context ? { evidence: describeExchange(context) } : {}),
  });
}

/** Records what the target does on a point the seed leaves open ("not shown"). */
export function note(requirement: string, text: string): void {
  record(test.info(), { requirement, outcome: 'note', message: text });
}

/** One requirement of a check that goes on could not be verified (the others keep their verdict). */
export function notVerifiedHere(requirement: string, reason: string): void {
  record(test.info(), { requirement, outcome: 'not-verified', message: reason });
}

/** Ends the check as not verified: what was missing, and what would supply it. */
export function notVerified(reason: string): never {
  return stopWith(test.info(), { outcome: 'not-verified', message: reason });
}

/** Ends the check as not verified because the prerequisite `requirement` failed. */
export function blockedBy(requirement: string, reason: string): never {
  return stopWith(test.info(), { outcome: 'blocked', message: reason, prerequisite: requirement });
}

/** `GET http://…/v2/cycle?limit=0 → 200`, without the curl line. */
const firstLine = (exchange: Exchange): string => describeExchange(exchange).split('\n')[0] ?? '';

/** A check's failure: its finding, and as text "[ID] message" and the evidence, for whoever reads the error. */
export class ConformanceFailure extends Error {
  readonly finding: Finding;

  constructor(
    readonly requirement: string,
    message: string,
    /** The request behind the failure (describeExchange: with its curl line), or other context. */
    evidence?: string,
  ) {
    // Redacted here, before Playwright sees it: a quoted body may carry a token the service just issued.
    const finding: Finding = {
      requirement,
      outcome: 'fail',
      message: redactText(message),
      ...(evidence ? { evidence: redactText(evidence) } : {}),
    };
    super(`[${requirement}] ${finding.message}${finding.evidence ? `\n${finding.evidence}` : ''}`);
    this.name = 'ConformanceFailure';
    this.finding = finding;
    keepRaised(this);
  }
}

/** Fails with every problem found, so one run shows them all (capped to keep messages readable). */
export function expectNone(requirement: string, problems: readonly string[], context?: Exchange): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 15).map((problem) => `  - ${problem}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  throw new ConformanceFailure(
    requirement,
    `${problems.length} violation(s):\n${shown.join('\n')}`,
    context && describeExchange(context),
  );
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
    `expected status ${allowed.join(' or ')}, got ${exchange.status}${body ? ` (body: ${body})` : ''}`,
    describeExchange(exchange),
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
 * How a check reads a refusal's status: `expected` (the seed's, or the suite's reading where the seed is
 * loose) passes, `tolerated` (another reasonable refusal; 'any 4xx': every other client error) is a
 * warning, and any other status fails.
 */
export interface RefusalReading {
  expected: readonly number[];
  tolerated: readonly number[] | 'any 4xx';
}

/**
 * A request that must be refused. `asked` names what it asked for, which must exist and be the caller's own
 * (e.g. "user A's own cycle 1234"), so that an answer served where it should be refused shows as served: a
 * 404 for an id nobody owns is no evidence of a refusal. Served fails `requirement`, a 5xx fails
 * ERR-NO-5XX-ON-CLIENT-INPUT, and the refusal's status is judged by `reading`; what was refused, and how, is
 * the pass's evidence.
 */
export function expectRefusal(
  requirement: string,
  exchange: Exchange,
  reading: RefusalReading,
  asked: string,
): void {
  const { status } = exchange;
  expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', exchange);
  expectThat(requirement, status >= 400, `${asked} was served with status ${status}, not refused`, exchange);
  const { expected, tolerated } = reading;
  if (!expected.includes(status)) {
    const allowed = tolerated === 'any 4xx' ? status < 500 : tolerated.includes(status);
    const statuses = [...expected, ...(tolerated === 'any 4xx' ? ['another 4xx'] : tolerated)];
    expectThat(
      requirement,
      allowed,
      `${asked} was refused with ${status}, not ${statuses.join(' or ')}`,
      exchange,
    );
    warn(requirement, `${asked} was refused with ${status}, not ${expected.join(' or ')}`, exchange);
  }
  evidence(requirement, `${asked} refused`, exchange);
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
export const declaredVerdict = (testInfo: TestInfo): Verdict => verdictFor(declaredRequirement(testInfo));

function verdictFor(requirement: string): Verdict {
  const bound = Object.entries(requirementVerdicts).map(([name, verdict]) => [
    name,
    (...rest: unknown[]) =>
      (verdict as (requirement: string, ...rest: unknown[]) => unknown)(requirement, ...rest),
  ]);
  return { requirement, ...Object.fromEntries(bound) } as Verdict;
}
