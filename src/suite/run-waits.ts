// What a wait of the run's own making does to the test that waits: its timeout grows by the wait (a wait
// for the rate limit, or for another worker's shared read, is not a slow server); and a request the run
// cannot afford ends the test as not verified, naming the request and why, never as a failure.
import { test } from '@playwright/test';
import type { RequestRefused } from '../http/request-refused.ts';
import { notVerified } from './verdicts.ts';

/** The test running in this worker, if any (a worker-scoped read runs inside the test that asked for it). */
export function currentTest(): ReturnType<typeof test.info> | undefined {
  try {
    return test.info();
  } catch {
    return undefined;
  }
}

export function extendTestTimeout(waitMs: number): void {
  const info = currentTest();
  if (info && info.timeout > 0) info.setTimeout(info.timeout + waitMs);
}

/** The last refusal of this worker: a later test that meets it again, rethrown from a shared read, is not verified by it too. */
let lastRefusal: string | undefined;

export function refusedRequest(refusal: RequestRefused): void {
  lastRefusal = refusal.message;
  if (currentTest()) notVerified(refusal.message);
}

/** The reason of a test that was skipped by a refusal rethrown from a read another test shared (no skip of its own). */
export function inheritedRefusal(info: ReturnType<typeof test.info>): string | undefined {
  const ownSkip = info.annotations.some((annotation) => annotation.type === 'skip');
  return info.status === 'skipped' && !ownSkip ? lastRefusal : undefined;
}
