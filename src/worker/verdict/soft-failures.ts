// The failures a check records and goes on from (verdict.soft, as Playwright's expect.soft): kept on the
// running test until its body ends, where each becomes its finding and the test fails, its worker kept, as
// a thrown failure does (src/worker/suite/ending-recorder.ts judgedBody).
import type { TestInfo } from '@playwright/test';
import type { ConformanceFailure } from '../../protocol/failure.ts';

interface Pending {
  failures: ConformanceFailure[];
  /** The error that ends the test with them, once asked for. */
  ending?: Error;
}

const pending = new WeakMap<TestInfo, Pending>();

/** Keeps `failure` on the test, which goes on. */
export function recordSoftFailure(testInfo: TestInfo, failure: ConformanceFailure): void {
  const kept = pending.get(testInfo) ?? { failures: [] };
  kept.failures.push(failure);
  pending.set(testInfo, kept);
}

/** Whether the test failed softly on `requirement` so far. */
export const failedSoftly = (testInfo: TestInfo, requirement: string): boolean =>
  pending.get(testInfo)?.failures.some((failure) => failure.requirement === requirement) ?? false;

/** The error that ends the test with its soft failures (the one failure, or all of them), if it has any. */
export function softEnding(testInfo: TestInfo): Error | undefined {
  const kept = pending.get(testInfo);
  const [first, ...more] = kept?.failures ?? [];
  if (!kept || !first) return undefined;
  kept.ending ??=
    more.length === 0 ? first : new AggregateError(kept.failures, `${kept.failures.length} failures`);
  return kept.ending;
}

/** Takes the test's soft failures and the error that ends it with them, leaving none. */
export function takeSoftFailures(testInfo: TestInfo): { failures: ConformanceFailure[]; ending?: Error } {
  const ending = softEnding(testInfo);
  const failures = pending.get(testInfo)?.failures ?? [];
  pending.delete(testInfo);
  return { failures, ...(ending ? { ending } : {}) };
}
