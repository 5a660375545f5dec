// What a wait that is not the check's own work does to the test that waits: its timeout grows by the wait. A
// wait of the run's own making (the rate limit, another worker's shared read) grows it by the wait announced;
// the target's time (its answers) by the time waited, so the timeout bounds the check's own work alone.
import { type TestInfo, test } from '@playwright/test';

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

/** A test's waits for its target's answers in progress: how many, since when, and the time its timeout holds for them. */
interface TargetWaits {
  inFlight: number;
  since: number;
  reservedMs: number;
}

const targetWaits = new WeakMap<TestInfo, TargetWaits>();

/**
 * A wait for the target's answer begins, of at most `atMostMs` (its bound): until the test's last such wait
 * ends, its timeout holds that much more; then it keeps exactly the time the test spent waiting (waits that
 * overlap count once). Returns the wait's end, to call once it has its answer or none.
 */
export function waitForTarget(atMostMs: number): () => void {
  const info = currentTest();
  if (!info || info.timeout === 0) return () => {};
  const waits = targetWaits.get(info) ?? { inFlight: 0, since: 0, reservedMs: 0 };
  targetWaits.set(info, waits);
  const now = performance.now();
  if (waits.inFlight === 0) Object.assign(waits, { since: now, reservedMs: 0 });
  waits.inFlight += 1;
  const neededMs = Math.ceil(now - waits.since + atMostMs);
  if (neededMs > waits.reservedMs) {
    info.setTimeout(info.timeout + neededMs - waits.reservedMs);
    waits.reservedMs = neededMs;
  }
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    waits.inFlight -= 1;
    if (waits.inFlight > 0) return;
    const waitedMs = Math.ceil(performance.now() - waits.since);
    // The reserve the waits did not use is the check's again, while the test runs.
    if (currentTest() === info) info.setTimeout(info.timeout + waitedMs - waits.reservedMs);
    waits.reservedMs = 0;
  };
}
