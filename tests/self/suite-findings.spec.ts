// A check's outcome travels as a typed finding (src/protocol/finding.ts): every outcome of the closed list goes
// from the check through the test's annotations to the report's summary unchanged, an outcome outside the
// list is refused, and a failure is charged to its finding's requirement, never to what its text names.
import { expect, test } from '@playwright/test';
import { SignInAutomationError } from '../../src/auth/sign-in-errors.ts';
import { RequestRefused } from '../../src/http/request-refused.ts';
import { TransportFailure } from '../../src/http/transport-failure.ts';
import { ConformanceFailure } from '../../src/protocol/failure.ts';
import {
  FINDING_OUTCOMES,
  type Finding,
  type FindingOutcome,
  findingsOf,
} from '../../src/protocol/finding.ts';
import type { TestOutcome } from '../../src/runner/report/model.ts';
import { summarise } from '../../src/runner/report/test-result.ts';
import {
  failedOnChecksAlone,
  judgedBody,
  stoppedByRunError,
} from '../../src/worker/suite/ending-recorder.ts';
import { stopWith } from '../../src/worker/verdict/stops.ts';
import { Verdict } from '../../src/worker/verdict/verdicts.ts';
import {
  type Ended,
  endedTest,
  failedWith,
  messagesOf,
  skipReasonOf,
  stoppableInfo,
} from './findings-support.ts';

const CYCLES = { method: 'GET', url: 'http://x/v2/cycle', headers: {} };

const RUN_ERROR = { kind: 'sign-in' as const, cause: 'no form on the page', remedy: 'try the browser' };

/** What a check records on the running test (this self test), taken off it again. */
function recordedHere(check: () => void): Ended['annotations'] {
  const { annotations } = test.info();
  const from = annotations.length;
  check();
  return annotations.splice(from);
}

const passedWith = (check: () => void) => ({
  status: 'passed' as const,
  outcome: 'pass' as const,
  annotations: recordedHere(check),
});

function stopped(stop: Omit<Finding, 'requirement'>, outcome: TestOutcome) {
  const info = stoppableInfo();
  skipReasonOf(() => stopWith(info, stop));
  return { status: 'skipped' as const, outcome, annotations: info.annotations };
}

/** How a check reaches each outcome, and how the test then ends. */
const CHECKS: Record<FindingOutcome, () => Ended & { outcome: TestOutcome }> = {
  pass: () => passedWith(() => new Verdict('PAG-A').evidence('182 records of 8 pages')),
  fail: () => ({
    ...failedWith([new ConformanceFailure('PAG-A', '1 violation(s)', 'GET http://x/v2/cycle → 200')]),
    outcome: 'fail',
  }),
  warning: () => passedWith(() => new Verdict('PAG-A').warn('limit=0 served 10 records')),
  'not-verified': () => stopped({ outcome: 'not-verified', message: 'no SCORED cycle' }, 'not-verified'),
  blocked: () =>
    stopped(
      { outcome: 'blocked', message: 'listCycles could not be read', prerequisite: 'OP-LIST-CYCLES' },
      'blocked',
    ),
  omitted: () => stopped({ outcome: 'omitted', message: 'smoke runs no write' }, 'omitted'),
  note: () => passedWith(() => new Verdict('PAG-A').note('answered 200')),
  error: () => {
    const info = stoppableInfo();
    skipReasonOf(() => stoppedByRunError(info, RUN_ERROR));
    return { status: 'skipped', outcome: 'error', annotations: info.annotations };
  },
};

for (const outcome of FINDING_OUTCOMES) {
  test(`a check's ${outcome} reaches the summary as its finding`, () => {
    const { outcome: testOutcome, ...ended } = CHECKS[outcome]();
    const recorded = findingsOf(ended.annotations ?? []);
    expect(recorded.map((finding) => [finding.requirement, finding.outcome])).toEqual([['PAG-A', outcome]]);
    const summary = summarise(endedTest(ended));
    expect(summary.findings).toEqual(recorded);
    expect(summary.outcome).toBe(testOutcome);
  });
}

test('the summary says each finding as the report did: failures, reasons, evidence, the run error', () => {
  const summary = (outcome: FindingOutcome) => {
    const { outcome: _, ...ended } = CHECKS[outcome]();
    return summarise(endedTest(ended));
  };
  expect(summary('fail')).toMatchObject({ status: 'failed', failedRequirements: ['PAG-A'] });
  expect(summary('fail').findings[0]?.evidence).toBe('GET http://x/v2/cycle → 200');
  expect(messagesOf(summary('pass'), 'pass')).toEqual(['182 records of 8 pages']);
  expect(messagesOf(summary('warning'), 'warning')).toEqual(['limit=0 served 10 records']);
  expect(messagesOf(summary('note'), 'note')).toEqual(['answered 200']);
  expect(summary('not-verified').skipReason).toBe('not verified: no SCORED cycle');
  expect(summary('blocked').skipReason).toBe('blocked by OP-LIST-CYCLES: listCycles could not be read');
  expect(summary('omitted').skipReason).toBe('omitted: smoke runs no write');
  expect(summary('error')).toMatchObject({
    status: 'skipped',
    runError: RUN_ERROR,
    skipReason: 'not verified (blocked by the run error): no form on the page',
  });
  // A requirement not verified by a check that goes on: the test passes, the requirement is listed.
  const partly = summarise(
    endedTest({
      status: 'passed',
      annotations: recordedHere(() => new Verdict('PAG-B').notVerifiedHere('no id')),
    }),
  );
  expect(partly).toMatchObject({ outcome: 'pass' });
  expect(messagesOf(partly, 'not-verified')).toEqual(['no id']);
});

test('an outcome outside the closed list, or a finding that is not one, is refused loudly', () => {
  const annotation = (finding: object) => ({ type: 'finding', description: JSON.stringify(finding) });
  const skip = [annotation({ requirement: 'PAG-A', outcome: 'skip', message: 'x' })];
  expect(() => findingsOf(skip)).toThrow(/unknown finding outcome "skip": one of fail, error, blocked/);
  expect(() => summarise(endedTest({ status: 'passed', annotations: skip }))).toThrow(/unknown finding/);
  expect(() => findingsOf([annotation({ requirement: 'PAG-A', outcome: 'blocked', message: 'x' })])).toThrow(
    /names its prerequisite/,
  );
  expect(() => findingsOf([{ type: 'finding', description: 'PAG-A: x' }])).toThrow(/malformed finding/);
});

const fail = (requirement: string) => ({
  type: 'finding',
  description: JSON.stringify({ requirement, outcome: 'fail', message: 'x' }),
});

test("a failure is charged to its finding's requirement, whatever its text names; any other error is the suite's", () => {
  const failed = (ended: Omit<Ended, 'status'>) => summarise(endedTest({ status: 'failed', ...ended }));
  expect(
    failed({ annotations: [fail('PAG-A')], errors: ['ConformanceFailure: [PAG-B] 1 violation(s)'] })
      .failedRequirements,
  ).toEqual(['PAG-A']);
  expect(
    failed({ annotations: [fail('PAG-C')], errors: ['TypeError: x is undefined'] }).failedRequirements,
  ).toEqual(['PAG-C']);
  // No finding (a Playwright expect, a timeout, a crash the worker's teardown never saw): the suite's own
  // error, never a failure of the requirements the test declares, nor of the one its text names.
  for (const error of [
    'Error: [PAG-B] expect(received).toBe(expected)\n\nExpected: 1',
    'Test timeout of 30000ms exceeded.',
    "TypeError: Cannot read properties of undefined (reading 'records')",
  ]) {
    const untyped = failed({ errors: [error], tags: ['@PAG-A', '@PAG-X', '@smoke'] });
    expect(untyped).toMatchObject({ status: 'skipped', outcome: 'error', failedRequirements: [] });
    expect(untyped.runError).toMatchObject({
      kind: 'suite',
      cause: `the suite's own code failed in "PAG-A: t": ${error.split('\n')[0]}`,
      remedy: "report it to the suite's maintainers, with reports/ and the console output",
    });
  }
  // The worker's record of the suite's error beside a failure: the failure stands, the error beside it.
  const beside = failed({
    annotations: [
      fail('PAG-C'),
      {
        type: 'finding',
        description: JSON.stringify({
          requirement: 'PAG-A',
          outcome: 'error',
          message: 'the suite failed',
          runError: { kind: 'suite', cause: 'the suite failed', remedy: 'report it', stack: 'TypeError: x' },
        }),
      },
    ],
    errors: ['ConformanceFailure: [PAG-C] x', 'TypeError: x'],
  });
  expect(beside).toMatchObject({ status: 'failed', outcome: 'fail', failedRequirements: ['PAG-C'] });
  expect(beside.runError).toMatchObject({ kind: 'suite', stack: 'TypeError: x' });
  // A request that failed on the way (a redirect loop): only the requirement the check verifies, not its `also`.
  const loop = new TransportFailure(CYCLES, 'redirect loop: http://x/v2/cycle');
  const reset = summarise(endedTest({ ...failedWith([loop]), tags: ['@PAG-X', '@PAG-A'] }));
  expect(reset.failedRequirements).toEqual(['PAG-A']);
  expect(reset.findings[0]?.message).toBe(
    'TransportFailure: GET http://x/v2/cycle failed: redirect loop: http://x/v2/cycle',
  );
});

test('an error the run error explains stops the test, not verified; a check failure is never one', () => {
  const page = new SignInAutomationError('no form on the page', 'http://x/login');
  const signIn = summarise(endedTest(failedWith([page])));
  expect(signIn).toMatchObject({ status: 'skipped', outcome: 'error', failedRequirements: [] });
  expect(signIn.runError).toMatchObject({
    kind: 'sign-in',
    cause: `${page.message.replace(/\s*\n\s*/g, ' ')}`,
  });
  // A refused connection: the run's error where the target never answered, else the check's failure; and
  // never where a check failed on it.
  const refused = new TransportFailure(
    CYCLES,
    'connect ECONNREFUSED 127.0.0.1:9',
    undefined,
    false,
    'ECONNREFUSED',
  );
  expect(summarise(endedTest(failedWith([refused])), false)).toMatchObject({
    outcome: 'error',
    runError: {
      kind: 'unreachable',
      cause: 'the target cannot be reached: connect ECONNREFUSED 127.0.0.1:9',
    },
  });
  expect(summarise(endedTest(failedWith([refused])), true)).toMatchObject({
    outcome: 'fail',
    failedRequirements: ['PAG-A'],
  });
  const failure = new ConformanceFailure('AUTH-CODE-FLOW', 'expected status 200, got 400');
  expect(summarise(endedTest(failedWith([failure, refused])), false)).toMatchObject({
    outcome: 'fail',
    failedRequirements: ['AUTH-CODE-FLOW'],
  });
  // A test that never ran.
  expect(summarise(endedTest({ status: 'skipped' })).skipReason).toBe(
    'not verified: did not run (the run ended first)',
  );
});

test("a request the run refused is a stop where it ends a test: not verified, charged to the test's own requirement", () => {
  const refusal = new RequestRefused({ method: 'GET', url: 'http://x/v2/cycle' }, 'run budget spent');
  const failure = new ConformanceFailure('PAG-B', '1 violation(s)');
  // Each error is read where it is caught, from the error itself, never from its text.
  const [stop, failed, own] = [refusal, failure, new Error('x')].map((error) => failedWith([error]));
  expect(stop).toMatchObject({ status: 'skipped', errors: [] });
  expect(findingsOf(stop?.annotations ?? [])).toEqual([
    {
      requirement: 'PAG-A',
      outcome: 'not-verified',
      message: 'run budget spent: GET http://x/v2/cycle was not sent',
    },
  ]);
  expect(findingsOf(failed?.annotations ?? [])).toEqual([failure.finding]);
  expect(failed?.checksAlone, "a check's failure keeps its worker").toBe(true);
  expect(
    findingsOf(own?.annotations ?? []).map((finding) => [finding.outcome, finding.runError?.kind]),
  ).toEqual([['error', 'suite']]);
  expect(own?.checksAlone, "the suite's own error replaces the worker").toBe(false);
  // A test that only stops ends as one; the text of an error names no requirement of it.
  const lookalike = new Error(`${failure.name}: ${failure.message}`);
  expect(summarise(endedTest(failedWith([lookalike])))).toMatchObject({
    outcome: 'error',
    failedRequirements: [],
  });
});

test("what Playwright recorded that no catch saw (a test timeout) is the suite's own error, with its text; a failure beside it stands", () => {
  const timeout = 'Test timeout of 60000ms exceeded.';
  const alone = failedWith([], 'PAG-A', [timeout]);
  expect(alone.checksAlone).toBe(false);
  expect(summarise(endedTest(alone))).toMatchObject({
    status: 'skipped',
    outcome: 'error',
    runError: { kind: 'suite', cause: `the suite's own code failed in "PAG-A: a check": ${timeout}` },
  });
  const failure = new ConformanceFailure('PAG-A', 'expected status 200, got 500');
  const beside = summarise(endedTest(failedWith([failure], 'PAG-A', [timeout])));
  expect(beside).toMatchObject({ status: 'failed', outcome: 'fail', failedRequirements: ['PAG-A'] });
  expect(beside.runError).toMatchObject({ kind: 'suite' });
});

/** Runs `checks` as a test body (judgedBody) on this self test, and what it threw, recorded and kept. */
async function judgedHere(checks: (verdict: Verdict) => void) {
  const info = test.info();
  const [annotations, errors] = [info.annotations.length, info.errors.length];
  const thrown = await judgedBody(async () => checks(new Verdict('PAG-A')))({}, info).catch(
    (error: unknown) => error,
  );
  // As Playwright records a thrown error: its entry, and one per child of an AggregateError.
  const children = thrown instanceof AggregateError ? thrown.errors : [];
  if (thrown) info.errors.push({ message: String(thrown) }, ...children.map(() => ({ message: '' })));
  const keepsWorker = failedOnChecksAlone(info);
  info.errors.splice(errors);
  return { thrown, keepsWorker, findings: findingsOf(info.annotations.splice(annotations)) };
}

test('verdict.soft records each failure and goes on: the body ends failed with them all, its worker kept', async () => {
  let reached = false;
  const { thrown, keepsWorker, findings } = await judgedHere((verdict) => {
    verdict.soft.expectThat(false, 'the first page breaks the rule');
    verdict.soft.expectNone([]);
    verdict.soft.expectNone(['a record breaks it', 'another does']);
    reached = true;
    // No pass rests on a check that failed: its evidence is not recorded.
    verdict.evidence('2 pages read');
  });
  expect(reached).toBe(true);
  expect(thrown).toBeInstanceOf(AggregateError);
  expect((thrown as AggregateError).errors).toHaveLength(2);
  expect(keepsWorker).toBe(true);
  expect(findings.map(({ outcome, message }) => [outcome, message.split('\n')[0]])).toEqual([
    ['fail', '1 violation(s):'],
    ['fail', '2 violation(s):'],
  ]);
});

test('a check that stops after failing softly ends with its failure, not skipped; one that does not fail passes', async () => {
  const stopped = await judgedHere((verdict) => {
    verdict.soft.fail('the walk broke the rule');
    verdict.notVerified('no second page to compare');
  });
  expect(stopped.thrown).toBeInstanceOf(ConformanceFailure);
  expect(stopped.keepsWorker).toBe(true);
  expect(stopped.findings.map((finding) => finding.outcome)).toEqual(['not-verified', 'fail']);
  expect(test.info().expectedStatus).toBe('passed');
  const clean = await judgedHere((verdict) => {
    verdict.soft.expectNone([]);
    verdict.evidence('2 pages read');
  });
  expect(clean).toMatchObject({
    thrown: undefined,
    findings: [{ outcome: 'pass', message: '2 pages read' }],
  });
});
