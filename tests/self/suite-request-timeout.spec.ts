// The learned request timeout (src/http/request-timeout.ts): what answers of given durations teach, with its
// floor and ceiling, per operation, and shared by the run's workers through the run's coordinator. Durations
// are given, never measured: nothing here depends on the machine's speed.
import { expect, test } from '@playwright/test';
import { coordinatorCall } from '../../src/coordinator/client.ts';
import { ROUTES } from '../../src/coordinator/routes.ts';
import { startRunCoordinator } from '../../src/coordinator/server.ts';
import type { SentRequest } from '../../src/http/exchange.ts';
import {
  fixedTimeouts,
  type LearnedTable,
  learnedTimeouts,
  methodAndPath,
  TIMEOUT_RULE,
} from '../../src/http/request-timeout.ts';

const get = (path: string): SentRequest => ({ method: 'GET', url: `http://target${path}`, headers: {} });
const cycles = get('/v2/cycle?limit=25');
const cycle = get('/v2/cycle/12345');

test('a timeout is learned per operation: 10 × the p99 of its answers, between the floor and the ceiling', async () => {
  const timeouts = learnedTimeouts(methodAndPath);
  expect(await timeouts.timeoutFor(cycles)).toEqual({
    ms: TIMEOUT_RULE.ceilingMs,
    how: 'the ceiling: no answer to learn from yet; CONFORMANCE_REQUEST_TIMEOUT_MS sets it',
  });
  for (const ms of [20, 35]) timeouts.answered(cycles, ms);
  // Too few answers to the operation: 10 × the slowest answer to any, here under the floor.
  expect(await timeouts.timeoutFor(cycles)).toMatchObject({ ms: TIMEOUT_RULE.floorMs });
  expect((await timeouts.timeoutFor(cycles)).how).toContain(
    "target's slowest answer (too few to GET /v2/cycle",
  );
  timeouts.answered(cycles, 420);
  expect(await timeouts.timeoutFor(cycles)).toEqual({
    ms: 4200,
    how: "learned from the target's answers to GET /v2/cycle; CONFORMANCE_REQUEST_TIMEOUT_MS sets it",
  });
  // Another operation (ids read as {id}) with no answer of its own waits 10 × the slowest answer to any.
  expect(await timeouts.timeoutFor(cycle)).toMatchObject({ ms: 4200 });
  timeouts.answered(cycle, 2_500);
  expect(await timeouts.timeoutFor(get('/v2/cycle/67890'))).toMatchObject({ ms: TIMEOUT_RULE.ceilingMs });
});

test('the p99 leaves out the slowest 1% of the latest answers, and old answers age out', async () => {
  const timeouts = learnedTimeouts(methodAndPath);
  for (let i = 0; i < 198; i++) timeouts.answered(cycles, 50);
  for (const ms of [700, 900]) timeouts.answered(cycles, ms);
  expect(await timeouts.timeoutFor(cycles)).toMatchObject({ ms: 1_000 });
  timeouts.answered(cycles, 800);
  expect(await timeouts.timeoutFor(cycles)).toMatchObject({ ms: 7_000 });
  for (let i = 0; i < TIMEOUT_RULE.window; i++) timeouts.answered(cycles, 150);
  expect(await timeouts.timeoutFor(cycles)).toMatchObject({ ms: 1_500 });
});

test('CONFORMANCE_REQUEST_TIMEOUT_MS fixes the timeout', async () => {
  const fixed = fixedTimeouts(2_500);
  fixed.answered(cycles, 9_000);
  expect(await fixed.timeoutFor(cycles)).toEqual({ ms: 2_500, how: 'CONFORMANCE_REQUEST_TIMEOUT_MS' });
});

test("the run's workers learn together: a new worker starts from what the others taught, per target", async () => {
  const coordinator = await startRunCoordinator(Date.now() + 60_000);
  try {
    const share = (target: string) => {
      const call = coordinatorCall(coordinator.url);
      return async (answers: [string, number][]) =>
        (await call(ROUTES.timeouts, { target, answers })) as LearnedTable;
    };
    const first = learnedTimeouts(methodAndPath, share('A'));
    await first.timeoutFor(cycles);
    // One batch of answers reaches the run.
    for (let i = 0; i < 16; i++) first.answered(cycles, 300);
    await expect
      .poll(async () => (await learnedTimeouts(methodAndPath, share('A')).timeoutFor(cycles)).ms)
      .toBe(3_000);
    // Another target of the run (a matrix run's instance) learns on its own.
    expect(await learnedTimeouts(methodAndPath, share('B')).timeoutFor(cycles)).toMatchObject({
      ms: TIMEOUT_RULE.ceilingMs,
    });
  } finally {
    await coordinator.close();
  }
});
