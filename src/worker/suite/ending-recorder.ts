// What ended a test, recorded where it was caught, with the error in hand (Inferno's test runner: `rescue
// TestResultException => e; e.result`): test.ts wraps every test body and judgedFixtures every fixture, so an
// error is classified as it leaves the suite's code: a check's failure becomes its finding, a request the run
// refused or a run-side cause a stop, any other error the suite's own (ERROR `suite`, with its stack). A
// failure a check catches and handles never gets here. What Playwright records that no catch saw is the suite's.
import type { TestInfo } from '@playwright/test';
import { ownTitle, targetNameOf } from '../../config/run-plan.ts';
import { curl } from '../../http/exchange.ts';
import { redactText } from '../../http/redact.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { TransportFailure } from '../../http/transport-failure.ts';
import { runningTestExchanges } from '../../protocol/exchange-sink.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { keepExchangesOf, withKeptExchange } from '../../protocol/failure-exchanges.ts';
import { type Finding, findingsOf, recordFinding } from '../../protocol/finding.ts';
import { runErrorOf, suiteError, type TestError, testErrorOf } from '../../protocol/run-errors.ts';
import { recordEndingOutsideTests } from '../../protocol/run-findings.ts';
import type { RunError } from '../../run-state/run-error.ts';
import { takeSoftFailures } from '../verdict/soft-failures.ts';
import { declaredRequirement, stopWith } from '../verdict/stops.ts';

/** Of each test, what the suite classified as it caught it: the entries of its `errors` (whether each keeps
 * the worker), and the errors themselves, each recorded once however often it is thrown on. */
const classified = new WeakMap<TestInfo, { slots: Map<number, boolean>; errors: WeakSet<object> }>();

const classifiedOf = (testInfo: TestInfo) => {
  const known = classified.get(testInfo) ?? {
    slots: new Map<number, boolean>(),
    errors: new WeakSet<object>(),
  };
  classified.set(testInfo, known);
  return known;
};

/** How many entries of `errors` Playwright makes of a thrown error: its own, and one per child (AggregateError). */
function entriesOf(error: unknown): number {
  const children = (error as { errors?: unknown } | null)?.errors;
  return (
    1 + (Array.isArray(children) ? children.reduce((sum: number, child) => sum + entriesOf(child), 0) : 0)
  );
}

/** Throws `error` on, its entries of the test's errors (the next ones Playwright records) classified. */
function thrownOn(testInfo: TestInfo, error: unknown, keepsWorker: boolean): never {
  const { slots, errors } = classifiedOf(testInfo);
  const at = testInfo.errors.length;
  for (let entry = 0; entry < entriesOf(error); entry += 1) slots.set(at + entry, keepsWorker);
  if (typeof error === 'object' && error !== null) errors.add(error);
  throw error;
}

/** Ends the test as not verified, its finding carrying the run error that stopped it. */
export const stoppedByRunError = (testInfo: TestInfo, runError: RunError): never =>
  stopWith(testInfo, { outcome: 'error', message: runError.cause, runError });

/** An error of the suite's own code in the test, with its stack (redacted): ERROR, kind `suite`. */
function suiteFinding(testInfo: TestInfo, error: TestError): Finding {
  const runError = suiteError(ownTitle(testInfo.title, targetNameOf(testInfo.annotations)), error);
  return { requirement: declaredRequirement(testInfo), outcome: 'error', message: runError.cause, runError };
}

/**
 * A request that failed on the way (a refused connection, a redirect loop) as the check's failure of
 * `requirement`; one to a target that cannot be reached carries its run error, which the reporter makes the
 * run error where the target answered nothing in the run (src/runner/report/test-result.ts).
 */
function failedOnTheWay(error: TransportFailure, requirement: string): Finding {
  const runError = runErrorOf(error);
  const message = redactText(`${error.name}: ${error.message}`.split('\n')[0] ?? '');
  return {
    requirement,
    outcome: 'fail',
    message,
    curl: curl(error.request),
    ...(runError ? { runError } : {}),
  };
}

/** A failure's finding, naming the exchange it rests on as the test keeps it (a shared read's too). */
function keptFailure(testInfo: TestInfo, failure: ConformanceFailure): Finding {
  keepExchangesOf([failure.finding], runningTestExchanges() ?? [], testInfo.testId);
  return withKeptExchange(failure.finding);
}

/** Whether the test already holds a failure or an error: another cause adds nothing to it. */
const judged = (testInfo: TestInfo): boolean =>
  findingsOf(testInfo.annotations).some(
    (finding) => finding.outcome === 'fail' || finding.outcome === 'error',
  );

/**
 * The one path from an error that ends a test (its body's, a fixture's) to its finding, where it is caught:
 * a check's failure is its finding; a request the run refused stops the check, not verified; a run-side cause
 * (src/protocol/run-errors.ts runErrorOf) stops it with the run error; a request that failed on the way fails
 * the check's requirement; any other error is the suite's own. Throws the error on (a stop: the skip).
 */
export function ended(testInfo: TestInfo, error: unknown): never {
  // A stop (a skip) was recorded where the check stopped (stopWith); a recorded error was thrown on.
  const known = typeof error === 'object' && error !== null && classifiedOf(testInfo).errors.has(error);
  if (testInfo.expectedStatus === 'skipped' || known) throw error;
  if (error instanceof RequestRefused) stopWith(testInfo, error.finding);
  if (error instanceof ConformanceFailure) {
    recordFinding(testInfo, keptFailure(testInfo, error));
    return thrownOn(testInfo, error, true);
  }
  const runError = runErrorOf(error);
  const cause = error instanceof TransportFailure || (runError && runError.kind !== 'unreachable');
  if (!cause) {
    recordFinding(testInfo, suiteFinding(testInfo, testErrorOf(error)));
    return thrownOn(testInfo, error, false);
  }
  // Where nothing judged the test, its first run-side cause or failed request is what it ends with.
  if (!judged(testInfo)) {
    if (runError && runError.kind !== 'unreachable') stoppedByRunError(testInfo, runError);
    recordFinding(testInfo, failedOnTheWay(error as TransportFailure, declaredRequirement(testInfo)));
  }
  return thrownOn(testInfo, error, true);
}

/** Fails the test with `failure`, its finding recorded already (the teardown's unanswered request). */
export const failWith = (testInfo: TestInfo, failure: ConformanceFailure): never =>
  thrownOn(testInfo, failure, true);

/** The suite's own errors among what Playwright recorded for the test that no catch saw (a test timeout). */
export function uncaughtFindings(testInfo: TestInfo): Finding[] {
  const { slots } = classifiedOf(testInfo);
  return testInfo.errors.flatMap((error, index) => (slots.has(index) ? [] : [suiteFinding(testInfo, error)]));
}

/** Whether the test failed, and only on the checks' own failures (each keeps the worker; a timeout does not). */
export function failedOnChecksAlone(testInfo: TestInfo): boolean {
  const { slots } = classifiedOf(testInfo);
  return testInfo.errors.length > 0 && testInfo.errors.every((_, index) => slots.get(index) === true);
}

type Fn = (...args: never[]) => unknown;

/** `run` in place of `fn`, read as `fn`: Playwright reads which fixtures a function takes from its source. */
const readAs = <F extends Fn>(run: F, fn: Fn): F =>
  Object.defineProperty(run, 'toString', { value: () => fn.toString() });

/**
 * Records the failures the test's checks recorded and went on from (verdict.soft), each its finding, and
 * returns the error that ends the test with them, if any (src/worker/verdict/soft-failures.ts).
 */
function settledSoftly(testInfo: TestInfo): Error | undefined {
  const { failures, ending } = takeSoftFailures(testInfo);
  for (const failure of failures) recordFinding(testInfo, keptFailure(testInfo, failure));
  return ending;
}

/**
 * A test body whose ending error is recorded where it is caught (test.ts declares every test with one): its
 * soft failures first, then what it threw; a body that failed softly alone ends failed with them.
 */
export const judgedBody = <A, T extends TestInfo>(body: (args: A, testInfo: T) => unknown) =>
  readAs(async (args: A, testInfo: T) => {
    try {
      await body(args, testInfo);
    } catch (error) {
      // A check that stops after failing softly ends with those failures (src/worker/verdict/stops.ts).
      if (settledSoftly(testInfo) === error) thrownOn(testInfo, error, true);
      ended(testInfo, error);
    }
    const failedSoftly = settledSoftly(testInfo);
    if (failedSoftly) thrownOn(testInfo, failedSoftly, true);
  }, body);

type FixtureFn = (deps: unknown, use: (value: unknown) => Promise<void>, info: unknown) => Promise<unknown>;

/**
 * A fixture whose errors are recorded where they are caught: a test fixture's (its setup's, its teardown's)
 * as the test's ending; a worker fixture's teardown's, after its last test, as a run finding.
 */
function judgedFixture(name: string, fn: FixtureFn, worker: boolean): FixtureFn {
  return readAs(async (deps, use, info) => {
    let used = false;
    try {
      const using = (value: unknown) => {
        used = true;
        return use(value);
      };
      await fn(deps, using, info);
    } catch (error) {
      if (!worker) ended(info as TestInfo, error);
      // A worker fixture's setup fails the test that needed it (the suite's own error, uncaughtFindings).
      if (!used) throw error;
      recordEndingOutsideTests(`the worker's teardown (fixture ${name})`, error);
    }
  }, fn);
}

/** The fixtures of a test.extend(), each judged (judgedFixture); options and values as they are. */
export function judgedFixtures<T extends object>(fixtures: T): T {
  return Object.fromEntries(
    Object.entries(fixtures).map(([name, definition]) => {
      const [fn, options] = Array.isArray(definition) ? definition : [definition, undefined];
      if (typeof fn !== 'function') return [name, definition];
      const judged = judgedFixture(
        name,
        fn as FixtureFn,
        (options as { scope?: string })?.scope === 'worker',
      );
      return [name, options ? [judged, options] : judged];
    }),
  ) as T;
}
