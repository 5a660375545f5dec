// The run's rate budgets (src/http/rate-budget.ts, src/http/pacer.ts): learned from what responses announce,
// shared by every client that draws on them, a 429 waited out to the full announced reset with no cap, and a
// wait past the run's deadline refused with the numbers, never sent. On a clock of the test's own.
import { expect, test } from '@playwright/test';
import { leasingPacer, localTurns } from '../../src/http/pacer.ts';
import { RateBudget, type RateObservation } from '../../src/http/rate-budget.ts';

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
      reason: 'rate limited: 100 per 60 s, reset in 42 s, run budget spent',
    });
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
