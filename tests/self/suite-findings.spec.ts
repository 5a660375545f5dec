// A check's outcome travels as a typed finding (src/report/finding.ts): every outcome of the closed list goes
// from the check through the test's annotations to the report's summary unchanged, an outcome outside the
// list is refused, and a failure is charged to its finding's requirement, never to what its text names.
import { expect, test } from '@playwright/test';
import { RequestRefused } from '../../src/http/request-refused.ts';
import {
  FINDING_OUTCOMES,
  type Finding,
  type FindingOutcome,
  findingsOf,
  recordFinding,
} from '../../src/report/finding.ts';
import type { TestOutcome } from '../../src/report/model.ts';
import { summarise } from '../../src/report/test-result.ts';
import { stoppedByRunError } from '../../src/suite/fixtures.ts';
import { endingFindings, isKeptStop, keepRaised } from '../../src/verdict/raised-failures.ts';
import { ConformanceFailure, stopWith, Verdict } from '../../src/verdict/verdicts.ts';
import { type Ended, endedTest, messagesOf, skipReasonOf, stoppableInfo } from './findings-support.ts';

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
  fail: () => {
    const failure = new ConformanceFailure('PAG-A', '1 violation(s)', 'GET http://x/v2/cycle → 200');
    // What the worker's fixture does with the errors Playwright recorded ("Name: message").
    const errors = [`${failure.name}: ${failure.message}`];
    const info = stoppableInfo();
    for (const ended of endingFindings(
      errors.map((message) => ({ message })),
      () => 'PAG-A',
    ))
      if (ended) recordFinding(info, ended);
    return { status: 'failed', outcome: 'fail', annotations: info.annotations, errors };
  },
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
  expect(() => findingsOf(skip)).toThrow(/unknown finding outcome "skip": one of pass, fail, warning/);
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
  // A request without a complete answer (a reset): only the requirement the check verifies, not its `also`.
  const reset = failed({
    errors: ['TransportFailure: GET http://x/v2/cycle failed: read ECONNRESET'],
    tags: ['@PAG-X', '@PAG-A'],
    annotations: [{ type: 'requirement', description: 'PAG-A' }],
  });
  expect(reset.failedRequirements).toEqual(['PAG-A']);
});

test('an untyped error the run error explains stops the test, not verified; a check failure is never one', () => {
  const signIn = summarise(
    endedTest({ status: 'failed', errors: ['SignInAutomationError: no form on the page\n  The page: …'] }),
  );
  expect(signIn).toMatchObject({ status: 'skipped', outcome: 'error', failedRequirements: [] });
  expect(signIn.runError).toMatchObject({ kind: 'sign-in', cause: 'no form on the page The page: …' });
  // A refused connection on a target that never answered: the run's error, unless a check failed on it.
  const refused = 'TransportFailure: GET http://x/v2/cycle failed: connect ECONNREFUSED 127.0.0.1:9';
  expect(summarise(endedTest({ status: 'failed', errors: [refused] }), false).outcome).toBe('error');
  expect(
    summarise(
      endedTest({ status: 'failed', annotations: [fail('AUTH-CODE-FLOW')], errors: [refused] }),
      false,
    ),
  ).toMatchObject({ outcome: 'fail', failedRequirements: ['AUTH-CODE-FLOW'] });
  // A test that never ran.
  expect(summarise(endedTest({ status: 'skipped' })).skipReason).toBe(
    'not verified: did not run (the run ended first)',
  );
});

test("a request the run refused is a stop where it ends a test: not verified, charged to the test's own requirement", () => {
  const refusal = new RequestRefused({ method: 'GET', url: 'http://x/v2/cycle' }, 'run budget spent');
  const failure = new ConformanceFailure('PAG-B', '1 violation(s)');
  // The API client keeps each refusal before it throws it (its onRefused, src/session/target-session.ts).
  keepRaised(refusal);
  expect([isKeptStop(refusal), isKeptStop(failure), isKeptStop(new Error('x'))]).toEqual([
    true,
    false,
    false,
  ]);
  // Playwright hands the fixture each error as "Name: message".
  const errors = [refusal, failure, new Error('x')].map((error) => ({
    message: `${error.name}: ${error.message}`,
  }));
  expect(endingFindings(errors, () => 'PAG-A')).toEqual([
    {
      requirement: 'PAG-A',
      outcome: 'not-verified',
      message: 'run budget spent: GET http://x/v2/cycle was not sent',
    },
    failure.finding,
    undefined,
  ]);
});
