// What ended a test, read from the errors themselves. Playwright hands a test's errors on as text (it
// serialises them for the reporter), so from the test's first fixture on the worker keeps each error object
// Playwright records, at its place among the test's errors; the teardown (fixtures.ts failureFindings) reads
// from the object what it is and records that as a finding, which the reporter reads. A failure a check
// catches (to block on it, to collect it, a property's counterexample but the one it reports) ends nothing:
// Playwright never records it.
import type { TestInfo } from '@playwright/test';
import { ownTitle, targetNameOf } from '../config/run-plan.ts';
import { redactText } from '../http/redact.ts';
import { RequestRefused } from '../http/request-refused.ts';
import { TransportFailure } from '../http/transport-failure.ts';
import { type Finding, findingsOf } from '../report/finding.ts';
import { runErrorOf, suiteError } from '../report/run-errors.ts';
import { ConformanceFailure, declaredRequirement } from '../verdict/verdicts.ts';

/** Where Playwright's worker records a test's error (not public API: the suite checks that it is there). */
type Recorder = { _failWithError?: (error: unknown) => void };

const kept = new WeakMap<TestInfo, unknown[]>();

/** From now on, keeps each error Playwright records for the test beside its entry of `testInfo.errors`. */
export function keepEndingErrors(testInfo: TestInfo): void {
  const recorder = testInfo as TestInfo & Recorder;
  const record = recorder._failWithError;
  if (typeof record !== 'function')
    throw new Error(
      "this version of Playwright records a test's errors other than through TestInfo._failWithError: the suite cannot tell a check's failure from its own error (src/suite/ending-errors.ts)",
    );
  const errors: unknown[] = [];
  kept.set(testInfo, errors);
  // An error with children (an AggregateError) is recorded once per child: the first entry is its own.
  recorder._failWithError = (error) => {
    errors[testInfo.errors.length] = error;
    record.call(testInfo, error);
  };
}

/** The error object of each of the test's errors (undefined: one recorded before the suite kept them). */
export const endingErrors = (testInfo: TestInfo): unknown[] =>
  testInfo.errors.map((_, index) => kept.get(testInfo)?.[index]);

/**
 * What ends the check as a check's outcome: a failure's finding, or a stop (a request the run refused),
 * charged to `requirement` (the test's own); undefined for any other error.
 */
export function checkEnding(error: unknown, requirement: () => string): Finding | undefined {
  if (error instanceof ConformanceFailure) return error.finding;
  return error instanceof RequestRefused ? { requirement: requirement(), ...error.finding } : undefined;
}

/**
 * What another error that ended the test is, where the run's side or the target may be its cause: a run
 * error (src/report/run-errors.ts runErrorOf), or a request that failed on the way (a refused connection, a
 * redirect loop), the check's failure of `requirement`. A target that cannot be reached is such a failure
 * carrying its run error: the reporter makes it the run error where the target answered nothing in the run.
 * Undefined: the error is the suite's own.
 */
export function otherCause(error: unknown, requirement: string): Finding | undefined {
  const runError = runErrorOf(error);
  if (runError && runError.kind !== 'unreachable')
    return { requirement, outcome: 'error', message: runError.cause, runError };
  if (!(error instanceof TransportFailure)) return undefined;
  const message = redactText(`${error.name}: ${error.message}`.split('\n')[0] ?? '');
  return { requirement, outcome: 'fail', message, ...(runError ? { runError } : {}) };
}

/**
 * The findings of the errors that ended the test that no check raised (`errors`, and `findings`: the check's
 * outcome each is, if any). An error of the suite's own code (an exception in a check's code, a Playwright
 * test timeout, an assertion outside the verdicts) is an `error` finding of kind `suite`, with its stack; a
 * failure the test also met stays a failure beside it. Where nothing judged the test, the first error with
 * another cause (otherCause: a run error, a request that failed on the way) is its finding.
 */
export function otherErrorFindings(
  testInfo: TestInfo,
  errors: readonly unknown[],
  findings: readonly (Finding | undefined)[],
): Finding[] {
  const requirement = declaredRequirement(testInfo);
  const title = ownTitle(testInfo.title, targetNameOf(testInfo.annotations));
  const others = testInfo.errors.flatMap((error, index) =>
    findings[index] ? [] : [{ error, cause: otherCause(errors[index], requirement) }],
  );
  const suite = others.flatMap(({ error, cause }): Finding[] => {
    if (cause) return [];
    const runError = suiteError(title, error);
    return [{ requirement, outcome: 'error', message: runError.cause, runError }];
  });
  const judged = [...findingsOf(testInfo.annotations), ...suite].some(
    (finding) => finding.outcome === 'fail' || finding.outcome === 'error',
  );
  const [cause] = others.flatMap((other) => other.cause ?? []);
  return judged || !cause ? suite : [cause];
}

/** The check's failures among the errors that ended the test. */
export const endingFailures = (testInfo: TestInfo): Finding[] =>
  endingErrors(testInfo).flatMap((error) => (error instanceof ConformanceFailure ? [error.finding] : []));
