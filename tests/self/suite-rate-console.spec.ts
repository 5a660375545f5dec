// What the console says while a run waits on a rate limit (src/runner/coordinator/rate-limit-console.ts): the client by its
// name in the run, never its id; the reset and whose account the wait is on; one line per client at most
// every 15 s, however many requests wait; a stopped request and a wait past the run's budget said once.
import { expect, test } from '@playwright/test';
import { partnerCredential, USER_CREDENTIAL } from '../../src/http/api-client.ts';
import { budgetKey } from '../../src/http/pacer.ts';
import { RateBudget, type Turn } from '../../src/http/rate-budget.ts';
import { clientLabels, RateLimitConsole } from '../../src/runner/coordinator/rate-limit-console.ts';

const config = {
  baseUrl: 'http://target.test/developer',
  partnerA: { clientId: 'lab-client-7', clientSecret: 'not-printed' },
};
const partnerA = budgetKey(config.baseUrl, partnerCredential('lab-client-7'));
const user = budgetKey(config.baseUrl, USER_CREDENTIAL);
const held: Turn = {
  kind: 'wait',
  waitMs: 1250,
  reason: 'rate limited: a rate limit, answered 429, reset in 2 s',
  cause: '429',
};

test('one line per client every 15 s at most, naming the client, the wait and whose account it is on', () => {
  const clock = { now: 0 };
  const lines: string[] = [];
  const waits = new RateLimitConsole(
    (line) => lines.push(line),
    () => clock.now,
  );
  try {
    waits.name(clientLabels(config, ''));
    const budget = new RateBudget(Number.POSITIVE_INFINITY);
    budget.rejected = 3;
    for (let i = 0; i < 10; i += 1) waits.turned(partnerA, held, budget);
    waits.turned(user, { ...held, waitMs: 300 }, budget);
    expect(lines).toEqual([
      "rate limit: partner A's client waits 1 s for its rate limit's reset: the target answered 429 (a rate limit), on its account; 3 answer(s) 429 in this run",
    ]);
    clock.now = 15_000;
    waits.turned(partnerA, { ...held, waitMs: 8000, cause: 'spent' }, budget);
    expect(lines[1]).toMatch(
      /^rate limit: partner A's client waits 8 s for its rate limit's reset: the budget the target announced \(a rate limit\) is spent: the run paces itself/,
    );
    waits.stopped(partnerA, 'POST /v2/x (op)', 'answered 429 again');
    waits.stopped(partnerA, 'POST /v2/x (op)', 'answered 429 again');
    waits.turned(user, { kind: 'refused', reason: 'rate limited: past the run budget' }, budget);
    waits.turned(user, { kind: 'refused', reason: 'rate limited: past the run budget' }, budget);
    expect(lines.slice(2)).toEqual([
      "rate limit: partner A's client: POST /v2/x (op) answered 429 again; no longer sent again in this run",
      'rate limit: the user OAuth client: rate limited: past the run budget; its requests are not sent, their checks not verified',
    ]);
    expect(lines.join('\n')).not.toContain('lab-client-7');
  } finally {
    waits.close();
  }
});
