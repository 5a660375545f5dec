// A request the target left without an answer (none within the bound, or its connection lost) is charged
// once, in the check that sent it, whatever that check made of it, to its operation's OP-* requirement (one
// outside the contract, a sign-in step, to AUTH-CODE-FLOW where the read names it, else the check's own); never
// to a reading, nor to any other check. A check that waited for the same read is blocked by it. A shared read
// that got no answer is forgotten: the next asker sends it again, and is the check that sent it.
import type { TestInfo } from '@playwright/test';
import { operationUnder } from '../../contract/match-operation.ts';
import { successRequirement } from '../../contract/requirements.ts';
import { curl } from '../../http/exchange.ts';
import { redactText } from '../../http/redact.ts';
import type { TransportFailure } from '../../http/transport-failure.ts';
import type { UnansweredRead } from '../../protocol/coordinator-routes.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { blockedBy, declaredRequirement } from '../verdict/stops.ts';
import { currentTest } from './run-waits.ts';

/** The unanswered requests the running test sent, by request, each as last charged. */
const sentByRunningTest = new Map<string, UnansweredFailure>();

export class UnansweredFailure extends ConformanceFailure {
  constructor(
    /** The request, and the requirement it is charged to. */
    readonly read: UnansweredRead,
    /** The test that sent it; undefined: a test of another worker. */
    readonly sender: TestInfo | undefined,
    /** The curl that sends the request again. */
    sent?: string,
  ) {
    super(read.requirement, `no answer: ${read.request}`, sent && `reproduce: ${sent}`, { curl: sent });
    if (sender && sender === currentTest()) sentByRunningTest.set(read.request, this);
  }

  /** The same request charged to `requirement`, the one the read it served names. */
  chargedTo(requirement: string): UnansweredFailure {
    return new UnansweredFailure({ ...this.read, requirement }, this.sender, this.finding.curl);
  }
}

/** The requirement an unanswered request of `test` fails: its operation's, else the check's own. */
function chargedRequirement(test: TestInfo, baseUrl: string, method: string, url: string): string {
  const operation = operationUnder(baseUrl, method, url);
  return operation ? successRequirement(operation) : declaredRequirement(test);
}

/**
 * What a request without an answer throws in a test (the API client's unansweredError, on a target served at
 * `baseUrl`): the check's failure.
 */
export function unansweredFailure(failure: TransportFailure, baseUrl: string): Error {
  const test = currentTest();
  if (!test) return failure;
  const { method, url } = failure.request;
  const request = `${method} ${redactText(url)}: ${failure.reason}`;
  try {
    return new UnansweredFailure(
      { requirement: chargedRequirement(test, baseUrl, method, url), request },
      test,
      curl(failure.request),
    );
  } catch {
    return failure; // a test declared without verifies()
  }
}

/** Rethrows a failed read's error: a request without an answer charged to `requirement`, the one the read names. */
export const chargeUnansweredTo =
  (requirement: string) =>
  (error: unknown): never => {
    throw error instanceof UnansweredFailure ? error.chargedTo(requirement) : error;
  };

/** A read another worker's check sent and got no answer to, as a check that waited for it learns it. */
export const unansweredElsewhere = (read: UnansweredRead): UnansweredFailure =>
  new UnansweredFailure(read, undefined);

/** A failed shared read as its asker meets it: the check that sent an unanswered request fails with it, any other is blocked by it. */
export function rethrowAsAsker(error: unknown): never {
  if (error instanceof UnansweredFailure && error.sender !== currentTest())
    blockedBy(
      error.requirement,
      `a read it shares got no answer: ${error.read.request} (sent by another check)`,
    );
  throw error;
}

/** Whether a failed read failed on an answer (a verdict every later asker shares), not for the lack of one. */
export const failedOnAnswer = (error: unknown): boolean =>
  error instanceof ConformanceFailure && !(error instanceof UnansweredFailure);

/** A read the worker's checks share: kept for later askers unless it fails (the next asker then reads again). */
export function sharedRead<T>(
  cache: Map<string, Promise<T>>,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  let found = cache.get(key);
  if (!found) {
    const reading = read();
    reading.catch(() => {
      if (cache.get(key) === reading) cache.delete(key);
    });
    cache.set(key, reading);
    found = reading;
  }
  return found.catch(rethrowAsAsker);
}

/**
 * The failures of the unanswered requests the running test sent whose requirement its ending failures do
 * not already fail (one each), and the test's record of them cleared: at the test's end (src/worker/suite/fixtures.ts).
 */
export function unchargedUnanswered(failed: ReadonlySet<string>): UnansweredFailure[] {
  const byRequirement = new Map<string, UnansweredFailure>();
  for (const failure of sentByRunningTest.values())
    if (!failed.has(failure.requirement) && !byRequirement.has(failure.requirement))
      byRequirement.set(failure.requirement, failure);
  sentByRunningTest.clear();
  return [...byRequirement.values()];
}
