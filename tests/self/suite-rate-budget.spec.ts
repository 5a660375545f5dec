// The run's rate budgets (src/http/rate-budget.ts, src/http/pacer.ts): learned from what responses announce,
// shared by every client that draws on them, a 429 waited out to the full announced reset with no cap, and a
// wait past the run's deadline refused with the numbers, never sent. On a clock of the test's own. And the
// client's bound on one request's 429s (src/http/rate-limited.ts).
import { expect, test } from '@playwright/test';
import { leasingPacer, localTurns } from '../../src/http/pacer.ts';
import { RateBudget, type RateObservation } from '../../src/http/rate-budget.ts';
import { RequestRefused } from '../../src/http/request-refused.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import type { TransportResponse } from '../../src/http/transport.ts';

const HOUR = 3_600_000;

function budgetAt(deadline = HOUR): { budget: RateBudget; clock: { now: number } } {
  const clock = { now: 0 };
  return { budget: new RateBudget(deadline, () => clock.now), clock };
}

const announced = (remaining: number, resetSeconds: number, status = 200): RateObservation => ({
  status,
  limit: 100,
  windowSeconds: 60,
  remaining,
  resetSeconds,
});

test.describe('a rate budget', () => {
  test("a shard's budget spends its share of each window (1/4 of 100), one request a turn, then waits for the next", () => {
    const clock = { now: 0 };
    const budget = new RateBudget(HOUR, () => clock.now, 1 / 4);
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    // The target announces the whole client's window: 99 left of 100, for every shard together.
    budget.observe(announced(99, 60));
    let granted = 1;
    for (let turn = budget.turn(); turn.kind === 'go'; turn = budget.turn()) {
      expect(turn.grant).toBe(1);
      granted += turn.grant;
    }
    expect(granted).toBe(25);
    expect(budget.turn()).toMatchObject({ kind: 'wait', cause: 'spent' });
    // The other shards spent theirs too: what the target says is left still bounds this one.
    clock.now = 61_000;
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    budget.observe(announced(3, 59));
    let again = 1;
    for (let turn = budget.turn(); turn.kind === 'go'; turn = budget.turn()) again += turn.grant;
    expect(again).toBe(4);
  });

  test("a shard's budget grants one request a turn before the target announces its limit too: a silent answer first leases it no more", () => {
    const budget = new RateBudget(HOUR, () => 0, 1 / 4);
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    // An answer without rate-limit headers (a page the limit does not govern): silent so far.
    budget.observe({ status: 200 });
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    // The next answer announces the limit: the share counts the requests already granted.
    budget.observe(announced(98, 60));
    let granted = 2;
    for (let turn = budget.turn(); turn.kind === 'go'; turn = budget.turn()) granted += turn.grant;
    expect(granted).toBe(25);
  });

  test('grants what the last response said was left, then holds every request until the reset', () => {
    const { budget, clock } = budgetAt();
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    budget.observe(announced(8, 30));
    let granted = 0;
    for (let turn = budget.turn(); turn.kind === 'go'; turn = budget.turn()) granted += turn.grant;
    expect(granted).toBe(8);
    const held = budget.turn();
    expect(held).toMatchObject({ kind: 'wait', reason: 'rate limited: 100 per 60 s, reset in 31 s' });
    clock.now = 30_300;
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
  });

  test('a 429 without Retry-After waits the full announced reset, however long', () => {
    const { budget } = budgetAt();
    budget.observe(announced(0, 41, 429));
    const turn = budget.turn();
    expect(turn.kind).toBe('wait');
    expect(turn.kind === 'wait' && turn.waitMs).toBeGreaterThanOrEqual(41_000);
    expect(budget.rejected).toBe(1);
  });

  test('a wait past the run deadline is refused with the numbers', () => {
    const { budget } = budgetAt(20_000);
    budget.observe(announced(0, 41, 429));
    expect(budget.turn()).toEqual({
      kind: 'refused',
      reason:
        "rate limited: 100 per 60 s, answered 429, reset in 42 s, past the run's budget of time (CONFORMANCE_RUN_TIMEOUT_S): on the run's side",
    });
  });

  test('a 429 holds every request until its reset: an answer sent before it was known does not end the hold', () => {
    const { budget, clock } = budgetAt();
    budget.observe({ ...announced(40, 50, 429), retryAfterSeconds: 5 });
    clock.now = 1000;
    budget.observe(announced(39, 49));
    expect(budget.turn()).toMatchObject({ kind: 'wait', cause: '429', waitMs: 4250 });
    clock.now = 5250;
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
  });

  test('a 429 that announces no reset: the window when known, else a backoff from 1 s doubling per 429 in a row', () => {
    const { budget, clock } = budgetAt();
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      budget.observe({ status: 429 });
      const turn = budget.turn();
      waits.push(turn.kind === 'wait' ? turn.waitMs : -1);
      clock.now += turn.kind === 'wait' ? turn.waitMs : 0;
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    budget.observe({ status: 200 });
    budget.observe({ status: 429, limit: 10, windowSeconds: 30 });
    expect(budget.turn()).toMatchObject({ kind: 'wait', waitMs: 30_000 });
  });

  test('a 429 a request ended on is counted, never waited for', () => {
    const { budget } = budgetAt();
    budget.observe({ ...announced(40, 50, 429), judged: true });
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    expect(budget.rejected).toBe(1);
  });

  test('a response of the same window only lowers the count; one of a later window replaces it', () => {
    const { budget, clock } = budgetAt();
    budget.observe(announced(20, 50));
    expect(budget.turn()).toEqual({ kind: 'go', grant: 5 });
    // Answered before the five granted requests were counted: 15 stay the budget's count.
    budget.observe(announced(19, 50));
    expect(budget.turn()).toEqual({ kind: 'go', grant: 3 });
    clock.now = 10_000;
    budget.observe(announced(90, 60));
    expect(budget.turn()).toEqual({ kind: 'go', grant: 22 });
  });

  test('a target that announces nothing is not paced', () => {
    const { budget } = budgetAt();
    expect(budget.turn()).toEqual({ kind: 'go', grant: 1 });
    budget.observe({ status: 200 });
    expect(budget.turn()).toEqual({ kind: 'go', grant: 100 });
  });
});

test.describe('a window the target does not announce (X-RateLimit-Limit: 100 alone)', () => {
  const windowless = (remaining: number, resetSeconds?: number, status = 200): RateObservation => ({
    status,
    limit: 100,
    remaining,
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
  });

  test('the reset of the answer that opens a window is its length; until then each reset is a lower bound', () => {
    const { budget, clock } = budgetAt();
    // Met mid-window: at least 23 s, not yet learned.
    budget.observe(windowless(40, 23));
    expect(budget.shown()).toEqual({ limit: 100, atLeast: 23 });
    clock.now = 23_500;
    // Remaining rose: this answer opened a window, 60 s long by its reset.
    budget.observe(windowless(99, 60));
    expect(budget.shown()).toMatchObject({ window: { seconds: 60, source: 'learned' }, atLeast: 60 });
    expect(budget.shown()?.window?.how).toBe('the X-RateLimit-Reset of an answer that opened a window');
    // The budget's own waits use it: a 429 without a reset waits the window learned.
    budget.observe({ status: 429, limit: 100, remaining: 0 });
    expect(budget.turn()).toMatchObject({ kind: 'wait', waitMs: 60_000 });
  });

  test('an epoch reset counts as its seconds from now, and a longer reset later corrects the window', () => {
    const { budget, clock } = budgetAt();
    clock.now = 1_000_000;
    budget.observe(windowless(99, 9.6));
    expect(budget.shown()?.window?.seconds).toBe(10);
    budget.observe(windowless(98, 30));
    expect(budget.shown()?.window).toMatchObject({ seconds: 30, source: 'learned' });
    expect(budget.shown()?.window?.how).toMatch(/^a later X-RateLimit-Reset of 30 s/);
  });

  test("the first 429's reset, counted from the answer that opened its window; without resets, two openings", () => {
    const { budget, clock } = budgetAt();
    budget.observe(windowless(99));
    clock.now = 20_000;
    budget.observe({ ...windowless(0, undefined, 429), retryAfterSeconds: 40 });
    expect(budget.shown()?.window).toMatchObject({
      seconds: 60,
      how: "the first 429's reset, counted from the answer that opened its window",
    });

    const silent = budgetAt();
    silent.budget.observe(windowless(99));
    for (const at of [10_000, 20_000, 29_800]) {
      silent.clock.now = at;
      silent.budget.observe(windowless(50));
    }
    silent.clock.now = 30_100;
    silent.budget.observe(windowless(99));
    expect(silent.budget.shown()?.window).toMatchObject({
      seconds: 31,
      how: 'the time between two openings of a window (Remaining rose)',
    });
  });

  test("an announced window is the target's word, no learning needed", () => {
    const { budget } = budgetAt();
    budget.observe(announced(99, 60));
    expect(budget.shown()).toMatchObject({ limit: 100, window: { seconds: 60, source: 'announced' } });
  });
});

test('clients of one budget never overshoot what the target said was left', async () => {
  const { source } = localTurns();
  const pacers = [leasingPacer(source), leasingPacer(source), leasingPacer(source)];
  const noWait = () => {
    throw new Error('no wait expected within the window');
  };
  await pacers[0]?.turn('client', noWait);
  pacers[0]?.observe('client', announced(40, 60));
  let sent = 0;
  // Each client sends until its next turn would be a wait: together, no more than the 40 left.
  const sendUntilHeld = async (pacer: ReturnType<typeof leasingPacer>) => {
    for (;;) {
      let held = false;
      const turn = pacer.turn('client', () => {
        held = true;
        throw new Error('held');
      });
      const refusal = await turn.catch(() => 'held');
      if (held || refusal) return;
      sent += 1;
    }
  };
  await Promise.all(pacers.map(sendUntilHeld));
  expect(sent).toBe(40);
});

test('a request answered 429 five times in a row, each after its reset, is not sent again, on the target side, with the numbers', async () => {
  let sent = 0;
  const refusing = {
    send: async (): Promise<TransportResponse> => {
      sent += 1;
      return {
        status: 429,
        headers: { 'retry-after': '0', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '7' },
        text: '',
      };
    },
    dispose: () => {},
  };
  const client = standaloneClient(refusing, { baseUrl: 'http://target.invalid' });
  const refusal = await client.send({ path: '/v2/cycle' }).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(RequestRefused);
  expect((refusal as RequestRefused).side).toBe('target');
  expect((refusal as RequestRefused).message).toMatch(
    /^GET http:\/\/target\.invalid\/v2\/cycle was not sent again: the target answered 429 5 times in a row over \d+ s, each retry sent after the full reset the last 429 announced, although it announced requests remaining \(last: limit 10 per window, remaining 7, Retry-After 0 s\): on the target's side, not the run's budget$/,
  );
  expect(sent).toBe(5);
});
