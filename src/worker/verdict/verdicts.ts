// The one vocabulary of a check: a Verdict, bound to a requirement, fails it (each failure naming the
// requirement, the request with a curl reproduction, credentials redacted, and the offending field), records
// what a pass rests on (evidence), warns where the target departs from the suite's reading of a loosely
// stated point, notes what it does where the seed says "not shown", or stops the check as not verified or
// blocked (a skip, never a pass). Each is a Finding (src/protocol/finding.ts) the reporter reads; a failure
// becomes one where it ends the test. A test reaches its own through the `verdict` fixture.
import { type TestInfo, test } from '@playwright/test';
import { isOperationId, type Operation } from '../../contract/operation-model.ts';
import { operationById, operations } from '../../contract/operations.ts';
import { jsonBodyRequirement, type RequirementId, successRequirement } from '../../contract/requirements.ts';
import { attributed } from '../../contract/rule-requirements.ts';
import { formatViolation, validate } from '../../contract/validators.ts';
import { isJsonContentType } from '../../http/content-type.ts';
import {
  BODY,
  bodyField,
  bodyOf,
  type Exchange,
  headerField,
  STATUS,
  succeeded,
} from '../../http/exchange.ts';
import { ConformanceFailure, type FailureBasis } from '../../protocol/failure.ts';
import { failedSoftly, recordSoftFailure } from './soft-failures.ts';
import { blockedBy, declaredRequirement, notVerified, record } from './stops.ts';
import { exchangeEvidence, firstLine, groupedLines, LISTED, statusMessage } from './verdict-messages.ts';

/** A problem a check found, and the offending field of the answer where it knows it (a JSON pointer). */
export type Problem = string | { text: string; field?: string };

/**
 * How a check reads a refusal's status: `expected` (the seed's, or the suite's reading where the seed is
 * loose) passes, `tolerated` (another reasonable refusal; 'any 4xx': every other client error) is a
 * warning, and any other status fails.
 */
export interface RefusalReading {
  expected: readonly number[];
  tolerated: readonly number[] | 'any 4xx';
}

/** The rule that holds for every request, valid or not: a client's input never gets a 5xx. */
const NO_5XX_ON_CLIENT_INPUT = 'ERR-NO-5XX-ON-CLIENT-INPUT';

/**
 * Requirements any check may give a verdict on without declaring them, because they hold wherever a check
 * sends a request: no 5xx on client input, each operation's answer to a valid request (its OP-*
 * requirement, which a shared read charges too, src/worker/user-data/collections.ts), and JSON bodies (OP-JSON-BODIES). Any other requirement a check
 * judges (passes with evidence, fails, leaves not verified), it declares (verifies()'s `also`): its tag is
 * what selects the check for that requirement (`--grep`, the mutation gate), and the report counts the check
 * in the requirement's verdict. A note or a warning, which any check may record (src/runner/report/build-report.ts),
 * needs no declaration.
 */
const judgedAnywhere = new Set([
  NO_5XX_ON_CLIENT_INPUT,
  ...operations.map(successRequirement),
  ...operations.map(jsonBodyRequirement),
]);

/** The contract's operation an exchange is, where its client named it. */
const operationOfExchange = ({ operation }: Exchange): Operation | undefined =>
  operation !== undefined && isOperationId(operation) ? operationById(operation) : undefined;

/** What a pass's evidence rests on beside its text: the one exchange that says it, how many observations. */
export interface EvidenceOptions {
  exchange?: Exchange;
  count?: number;
}

/** The checks of a verdict that may record their failure and go on (verdict.soft). */
const SOFT_CHECKS = [
  'fail',
  'expectThat',
  'expectNone',
  'expectStatus',
  'expectSuccess',
  'expectSchema',
  'expectNo5xx',
] as const;

/** A verdict's checks that record a failure on the test and go on: it ends failed once its body ends. */
export type SoftVerdict = {
  [Check in (typeof SOFT_CHECKS)[number]]: (...args: Parameters<Verdict[Check]>) => void;
};

/** The verdicts of one requirement, on the running test: `verdict.expectStatus(exchange, 200)`. */
export class Verdict {
  constructor(
    readonly requirement: string,
    /** Undefined: it may judge the requirement; else why it may only note and warn (verdict.of). */
    private readonly undeclared?: string,
  ) {}

  /**
   * The verdicts of another requirement the check reports on. Any check may note or warn about any
   * requirement; it judges only one the test declares (its own, verifies()'s `also`) or one any check may
   * judge (no 5xx on client input, an operation's OP-*): any other judgement throws, whatever its outcome.
   */
  of(requirement: RequirementId): Verdict {
    const { tags, title } = test.info();
    const judges = tags.includes(`@${requirement}`) || judgedAnywhere.has(requirement);
    return new Verdict(
      requirement,
      judges
        ? undefined
        : `"${title}" judges ${requirement} without declaring it: add it to verifies()'s \`also\` (a note or a warning needs none)`,
    );
  }

  /**
   * This verdict's checks, each recording its failure and going on (the OpenID suite's
   * callAndContinueOnFailure): `verdict.soft.expectNone(problems, exchange)`, once per read a check judges.
   */
  get soft(): SoftVerdict {
    const softly =
      (check: (...args: never[]) => unknown) =>
      (...args: never[]) => {
        try {
          check.apply(this, args);
        } catch (error) {
          if (!(error instanceof ConformanceFailure)) throw error;
          recordSoftFailure(test.info(), error);
        }
      };
    return Object.fromEntries(SOFT_CHECKS.map((name) => [name, softly(this[name])])) as SoftVerdict;
  }

  /** Throws when this verdict may not judge its requirement (see `of`). */
  private judging(): void {
    if (this.undeclared) throw new Error(this.undeclared);
  }

  /**
   * What a passing check rested on: what it observed that could have shown a violation, e.g. "182 records of
   * 8 pages, 140 SCORED", with the request's line where one `exchange` says it; `count`, how many observations
   * (182: the baseline compares it from run to run; 1 when not given). None where it failed softly already.
   */
  evidence(text: string, { exchange, count }: EvidenceOptions = {}): void {
    this.judging();
    const testInfo = test.info();
    if (failedSoftly(testInfo, this.requirement)) return;
    record(testInfo, {
      requirement: this.requirement,
      outcome: 'pass',
      message: exchange ? `${text} (${firstLine(exchange)})` : text,
      ...(count === undefined ? {} : { count: Math.max(1, count) }),
    });
  }

  /** The target departs from the suite's reading of a loosely stated point (see `reading` in the catalogue). */
  warn(observed: string, context?: Exchange): void {
    record(test.info(), {
      requirement: this.requirement,
      outcome: 'warning',
      message: context ? `${observed} (${firstLine(context)})` : observed,
      ...(context ? exchangeEvidence(context) : {}),
    });
  }

  /** Records what the target does on a point the seed leaves open ("not shown"). */
  note(text: string): void {
    record(test.info(), { requirement: this.requirement, outcome: 'note', message: text });
  }

  /** The requirement could not be verified, but the check goes on (its other requirements keep their verdict). */
  notVerifiedHere(reason: string): void {
    this.judging();
    record(test.info(), { requirement: this.requirement, outcome: 'not-verified', message: reason });
  }

  /** Ends the check as not verified, of this verdict's requirement: what was missing. */
  notVerified(reason: string): never {
    this.judging();
    return notVerified(reason, [], this.requirement);
  }

  /** Ends the check as not verified, of this verdict's requirement, because the prerequisite failed. */
  blockedBy(prerequisite: string, reason: string): never {
    this.judging();
    return blockedBy(prerequisite, reason, this.requirement);
  }

  /**
   * Fails with `message`; `evidence` shows it: the exchange (its line and curl, and its id), or other text;
   * `fields`, where in the exchange's answer the rule broke (JSON pointers: `/status`, `/body/records/3/id`),
   * or the whole basis where the evidence is text about an exchange (a sign-in's redirect chain).
   */
  fail(message: string, evidence?: string | Exchange, fields?: readonly string[] | FailureBasis): never {
    this.judging();
    const basis = Array.isArray(fields) ? { fields } : (fields as FailureBasis | undefined);
    throw new ConformanceFailure(this.requirement, message, evidence, basis);
  }

  /**
   * Fails with every problem found, so one run shows them all (capped to keep messages readable); the
   * offending fields those shown name, of `context`'s answer.
   */
  expectNone(problems: readonly Problem[], context?: Exchange): void {
    this.judging();
    if (problems.length === 0) return;
    const all = problems.map((problem) => (typeof problem === 'string' ? { text: problem } : problem));
    const shown = all.length > LISTED ? groupedLines(all) : all.map((problem) => `  - ${problem.text}`);
    const fields = context
      ? [...new Set(all.flatMap((problem) => problem.field ?? []))].slice(0, LISTED)
      : [];
    this.fail(`${problems.length} violation(s):\n${shown.join('\n')}`, context, fields);
  }

  /** `field`: where in `context`'s answer the rule broke (a JSON pointer into {status, headers, body}). */
  expectThat(condition: boolean, message: string, context?: Exchange, field?: string): void {
    this.judging();
    if (!condition) this.expectNone([{ text: message, field }], context);
  }

  expectStatus(exchange: Exchange, expected: number | readonly number[]): void {
    this.judging();
    const allowed = typeof expected === 'number' ? [expected] : expected;
    if (allowed.includes(exchange.status)) return;
    this.fail(statusMessage(`status ${allowed.join(' or ')}`, exchange), exchange, [STATUS]);
  }

  /** The request was served: any 2xx (`what` says what was asked, where the request alone does not). */
  expectSuccess(exchange: Exchange, what?: string): void {
    this.judging();
    if (succeeded(exchange)) return;
    this.fail(`${what ? `${what}: ` : ''}${statusMessage('a success (2xx)', exchange)}`, exchange, [STATUS]);
  }

  expectEmptyBody(exchange: Exchange): void {
    this.expectThat(
      exchange.text === '',
      `expected no body, got ${exchange.text.length} bytes: ${exchange.text.slice(0, 200)}`,
      exchange,
      BODY,
    );
  }

  expectJsonContentType(exchange: Exchange): void {
    const type = exchange.headers['content-type'] ?? '';
    this.expectThat(
      isJsonContentType(type),
      `content-type is "${type}", not application/json`,
      exchange,
      headerField('content-type'),
    );
  }

  /**
   * The body as JSON (nulls read as absent). One that is not JSON fails the rule it breaks, whatever the check
   * asked it for: OP-JSON-BODIES where the catalogue states it for the exchange's operation (else that
   * operation's own), this verdict's requirement for an answer of no operation (a sign-in step).
   */
  json<T = unknown>(exchange: Exchange): T {
    this.judging();
    const body = bodyOf<T>(exchange);
    if (body.ok) return body.value;
    const op = operationOfExchange(exchange);
    return new Verdict(op ? jsonBodyRequirement(op) : this.requirement).fail(
      `the body is not JSON (${exchange.status}, content-type ${exchange.headers['content-type'] ?? 'none'}): ${JSON.stringify(exchange.text.slice(0, 200))}`,
      exchange,
      [BODY],
    );
  }

  /** The records of a collection page's body (none where it carries none); a body not JSON fails as in json(). */
  pageRecords(exchange: Exchange): unknown[] {
    const { records } = this.json<{ records?: unknown }>(exchange);
    return Array.isArray(records) ? records : [];
  }

  /**
   * Validates `data` (a response body or part of it, at `at`) against a schema of schemas/: each violation
   * fails this requirement, naming the requirement its rule states where that is another
   * (src/contract/rule-requirements.ts).
   */
  expectSchema(schema: string, data: unknown, context?: Exchange, at = ''): void {
    this.judging();
    this.expectNone(
      validate(schema, data).errors.map((violation) => {
        const { requirement } = attributed(violation);
        const rule = requirement === this.requirement ? '' : ` → ${requirement}`;
        const text = `${at ? `${at}: ` : ''}${formatViolation(violation)}${rule}`;
        // `data` is the answer's body unless `at` names a part of it (whose place in the body is unknown).
        return at ? text : { text, field: bodyField(violation.pointer) };
      }),
      context,
    );
  }

  /** Never a 5xx: the one rule that holds for every request, valid or not. */
  expectNo5xx(exchange: Exchange): void {
    this.expectThat(exchange.status < 500, `server error ${exchange.status}`, exchange, STATUS);
  }

  /**
   * A request that must be refused. `asked` names what it asked for, which must exist and be the caller's
   * own (e.g. "user A's own cycle 1234"), so that an answer served where it should be refused shows as
   * served: a 404 for an id nobody owns is no evidence of a refusal. Served fails this requirement, a 5xx
   * fails ERR-NO-5XX-ON-CLIENT-INPUT, and the refusal's status is judged by `reading`; what was refused, and
   * how, is the pass's evidence.
   */
  expectRefusal(exchange: Exchange, reading: RefusalReading, asked: string): void {
    this.judging();
    const { status } = exchange;
    new Verdict(NO_5XX_ON_CLIENT_INPUT).expectNo5xx(exchange);
    this.expectThat(
      status >= 400,
      `${asked} was served with status ${status}, not refused`,
      exchange,
      STATUS,
    );
    const { expected, tolerated } = reading;
    if (!expected.includes(status)) {
      const allowed = tolerated === 'any 4xx' ? status < 500 : tolerated.includes(status);
      const statuses = [...expected, ...(tolerated === 'any 4xx' ? ['another 4xx'] : tolerated)];
      this.expectThat(
        allowed,
        `${asked} was refused with ${status}, not ${statuses.join(' or ')}`,
        exchange,
        STATUS,
      );
      this.warn(`${asked} was refused with ${status}, not ${expected.join(' or ')}`, exchange);
    }
    this.evidence(`${asked} refused`, { exchange });
  }

  /**
   * The answer to a request the suite reads as one to refuse with 400 that may be served all the same (a
   * cursor that is not the previous response's): a 5xx, or a served record that is not the caller's (whose
   * identities are `own`), fails; any answer but 400 is a warning.
   */
  expectNoLeak(
    exchange: Exchange,
    what: string,
    own: ReadonlySet<string>,
    identityOf: (record: Record<string, unknown>) => string,
  ): void {
    this.judging();
    this.expectThat(exchange.status < 500, `${what}: server error ${exchange.status}`, exchange, STATUS);
    if (exchange.status === 400) return;
    if (exchange.status === 200) {
      const records = this.json<{ records?: Record<string, unknown>[] }>(exchange).records ?? [];
      const foreign = records.map(identityOf).filter((identity) => !own.has(identity));
      this.expectThat(
        foreign.length === 0,
        `${what}: served ${foreign.length} record(s) that are not the caller's (e.g. ${foreign[0]})`,
        exchange,
        '/body/records',
      );
    }
    this.warn(`${what}: answered ${exchange.status}, not 400`, exchange);
  }
}

/** The verdicts of the requirement the running test declared through verifies(): its `verdict` fixture. */
export const declaredVerdict = (testInfo: TestInfo): Verdict => new Verdict(declaredRequirement(testInfo));
