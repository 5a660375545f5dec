// What a wait of the run's own making does to the test that waits: its timeout grows by the wait (a wait
// for the rate limit, or for another worker's shared read, is not a slow server).
import { test } from '@playwright/test';

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
