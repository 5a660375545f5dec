// How long a request waits (src/http/request-timeout.ts): the bound, and the resend mark learned from the
// answers of given durations, per operation and shared by the run's workers through the run's coordinator;
// and the second sending of a late or lost read (src/http/second-sending.ts), against sendings that answer or
// fail on command. Durations are given, never measured: nothing here depends on the machine's speed.
import { expect, test } from '@playwright/test';
import type { SentRequest } from '../../src/http/exchange.ts';
import {
  type LearnedTable,
  learnedTimeouts,
  methodAndPath,
  TIMEOUT_RULE,
} from '../../src/http/request-timeout.ts';
import {
  type SecondSendingPlan,
  type Sending,
  type SlowRequest,
  sendWithSecond,
} from '../../src/http/second-sending.ts';
import { TransportError } from '../../src/http/transport.ts';
import { ROUTES } from '../../src/protocol/coordinator-routes.ts';
import type { SlowRequestRecord } from '../../src/protocol/slow-requests.ts';
import { startRunCoordinator } from '../../src/runner/coordinator/server.ts';
import { lateSamples, sentTwice, slowRequestRows } from '../../src/runner/report/latency/slow-requests.ts';
import { coordinatorCall } from '../../src/worker/session/coordinator-client.ts';
import { sentAgainWhenLate } from '../../src/worker/session/target-session.ts';

const get = (path: string): SentRequest => ({ method: 'GET', url: `http://target${path}`, headers: {} });
const cycles = get('/v2/cycle?limit=25');
const cycle = get('/v2/cycle/12345');

test("the bound is a production client's: 30 s; past 1 s an answer is slow; the resend mark lies between 1 s and 10 s", () => {
  expect(TIMEOUT_RULE).toMatchObject({ boundMs: 30_000, slowMs: 1_000, resendCeilingMs: 10_000 });
});

test('a resend mark is learned per operation: the p99 of its answers, between the slow mark and the ceiling', async () => {
  const timeouts = learnedTimeouts(methodAndPath);
  expect(await timeouts.resendMarkFor(cycles)).toEqual({
    ms: TIMEOUT_RULE.resendCeilingMs,
    how: 'the ceiling: no answer to learn from yet',
  });
  for (const ms of [20, 35]) timeouts.answered(cycles, ms);
  // Too few answers to the operation: the slowest answer to any, here under the slow mark.
  expect(await timeouts.resendMarkFor(cycles)).toEqual({
    ms: TIMEOUT_RULE.slowMs,
    how: "the target's slowest answer (too few to GET /v2/cycle yet)",
  });
  timeouts.answered(cycles, 4_200);
  expect(await timeouts.resendMarkFor(cycles)).toEqual({
    ms: 4_200,
    how: "the p99 of the target's answers to GET /v2/cycle",
  });
  // Another operation (ids read as {id}) with no answer of its own has the slowest answer to any.
  expect(await timeouts.resendMarkFor(cycle)).toMatchObject({ ms: 4_200 });
  timeouts.answered(cycle, 25_000);
  expect(await timeouts.resendMarkFor(get('/v2/cycle/67890'))).toMatchObject({
    ms: TIMEOUT_RULE.resendCeilingMs,
  });
});

test('the p99 leaves out the slowest 1% of the latest answers, and old answers age out', async () => {
  const timeouts = learnedTimeouts(methodAndPath);
  for (let i = 0; i < 198; i++) timeouts.answered(cycles, 50);
  for (const ms of [7_000, 9_000]) timeouts.answered(cycles, ms);
  expect(await timeouts.resendMarkFor(cycles)).toMatchObject({ ms: 1_000 });
  timeouts.answered(cycles, 8_000);
  expect(await timeouts.resendMarkFor(cycles)).toMatchObject({ ms: 7_000 });
  for (let i = 0; i < TIMEOUT_RULE.window; i++) timeouts.answered(cycles, 1_500);
  expect(await timeouts.resendMarkFor(cycles)).toMatchObject({ ms: 1_500 });
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
    await first.resendMarkFor(cycles);
    // One batch of answers reaches the run.
    for (let i = 0; i < 16; i++) first.answered(cycles, 3_000);
    await expect
      .poll(async () => (await learnedTimeouts(methodAndPath, share('A')).resendMarkFor(cycles)).ms)
      .toBe(3_000);
    // Another target of the run (a matrix run's instance) learns on its own.
    expect(await learnedTimeouts(methodAndPath, share('B')).resendMarkFor(cycles)).toMatchObject({
      ms: TIMEOUT_RULE.resendCeilingMs,
    });
  } finally {
    await coordinator.close();
  }
});

// ------------------------------------------------------------------------------------ second sendings

/** A sending the test settles on command. */
interface Pending {
  answer(status: number): void;
  fail(kind: 'timeout' | 'cut' | 'other', reason?: string): void;
}

/**
 * A plan whose sendings wait for the test's command, with marks of 1 ms (so the marks pass while a sending
 * waits, whatever the machine's speed), and what it told.
 */
function commanded(options: { resend?: boolean; turn?: boolean } = {}) {
  const sendings: Pending[] = [];
  const told: SlowRequest[] = [];
  let slow = 0;
  let turns = 0;
  const plan: SecondSendingPlan = {
    send: () =>
      new Promise<Sending>((resolve, reject) => {
        sendings.push({
          answer: (status) =>
            resolve({ response: { status, headers: {}, text: '' }, startedAt: new Date(), durationMs: 5 }),
          fail: (kind, reason = kind === 'cut' ? 'read ECONNRESET' : 'timed out after 30000 ms') =>
            reject(new TransportError(reason, kind)),
        });
      }),
    slowMs: 1,
    resendMark: { ms: 1, how: 'given' },
    boundMs: 30_000,
    sendAgain:
      options.resend === false
        ? undefined
        : async () => {
            turns += 1;
            return options.turn !== false;
          },
    onSlow: () => {
      slow += 1;
      return (request) => told.push(request);
    },
  };
  return { plan, sendings, told, slowTold: () => slow, turnsAsked: () => turns };
}

/** Resolves once `count` sendings went out. */
const sent = (sendings: readonly Pending[], count: number) =>
  expect.poll(() => sendings.length, { intervals: [5] }).toBe(count);

test('a sending answered before its slow mark is the answer: nothing told, nothing sent again', async () => {
  const { plan, sendings, told, slowTold } = commanded();
  plan.slowMs = 60_000;
  const answer = sendWithSecond(plan);
  await sent(sendings, 1);
  sendings[0]?.answer(200);
  expect((await answer).response.status).toBe(200);
  expect([sendings.length, slowTold(), told.length]).toEqual([1, 0, 0]);
});

test('a read still unanswered at its resend mark is sent again; the client goes on with the second answer, and the first is told once it settles', async () => {
  const { plan, sendings, told } = commanded();
  const answer = sendWithSecond(plan);
  await sent(sendings, 2);
  sendings[1]?.answer(200);
  expect((await answer).response.status).toBe(200);
  expect(told).toEqual([]);
  sendings[0]?.fail('timeout');
  await expect.poll(() => told.length).toBe(1);
  expect(told[0]).toMatchObject({
    first: { answered: false, kind: 'timeout', reason: 'timed out after 30000 ms' },
    second: { answered: true, status: 200 },
    used: 'second',
  });
});

test('a late first answer that comes before the second is the answer', async () => {
  const { plan, sendings, told } = commanded();
  const answer = sendWithSecond(plan);
  await sent(sendings, 2);
  sendings[0]?.answer(404);
  expect((await answer).response.status).toBe(404);
  sendings[1]?.answer(404);
  await expect.poll(() => told.length).toBe(1);
  expect(told[0]).toMatchObject({ first: { answered: true, status: 404 }, used: 'first' });
});

test("a lost connection (reset, cut body) of a read is sent again at once; of a write, it is the request's failure", async () => {
  const read = commanded();
  read.plan.resendMark = { ms: 60_000, how: 'never, here' };
  read.plan.slowMs = 60_000;
  const answer = sendWithSecond(read.plan);
  await sent(read.sendings, 1);
  read.sendings[0]?.fail('cut');
  await sent(read.sendings, 2);
  read.sendings[1]?.answer(200);
  expect((await answer).response.status).toBe(200);
  await expect.poll(() => read.told.length).toBe(1);
  expect(read.told[0]).toMatchObject({ first: { answered: false, kind: 'cut' }, used: 'second' });

  const write = commanded({ resend: false });
  write.plan.slowMs = 60_000;
  const failed = sendWithSecond(write.plan);
  await sent(write.sendings, 1);
  write.sendings[0]?.fail('cut');
  await expect(failed).rejects.toMatchObject({ kind: 'cut', message: 'read ECONNRESET' });
  expect(write.sendings).toHaveLength(1);
});

test('a write is never sent twice: past its slow mark it is told, and waited for', async () => {
  const { plan, sendings, told, slowTold } = commanded({ resend: false });
  const answer = sendWithSecond(plan);
  await expect.poll(slowTold).toBe(1);
  sendings[0]?.answer(201);
  expect((await answer).response.status).toBe(201);
  await expect.poll(() => told.length).toBe(1);
  expect(sendings).toHaveLength(1);
  expect(told[0]).toMatchObject({ first: { answered: true, status: 201 }, used: 'first' });
  expect(told[0]?.second).toBeUndefined();
});

test('no turn for a second sending (the rate limit): the first is waited for', async () => {
  const { plan, sendings, told, turnsAsked } = commanded({ turn: false });
  const answer = sendWithSecond(plan);
  await expect.poll(turnsAsked).toBe(1);
  sendings[0]?.answer(200);
  expect((await answer).response.status).toBe(200);
  expect(sendings).toHaveLength(1);
  await expect.poll(() => told.length).toBe(1);
});

test('both sendings without an answer: the request fails with both reasons, told with neither used', async () => {
  const { plan, sendings, told } = commanded();
  const answer = sendWithSecond(plan);
  await sent(sendings, 2);
  sendings[1]?.fail('cut');
  sendings[0]?.fail('timeout');
  await expect(answer).rejects.toMatchObject({ kind: 'timeout' });
  await expect(answer).rejects.toThrow(
    /^timed out after 30000 ms; sent again after \d+ ms: read ECONNRESET$/,
  );
  await expect.poll(() => told.length).toBe(1);
  expect(told[0]?.used).toBeUndefined();
});

test('a refused connection is not sent again: the run judges it', async () => {
  const { plan, sendings } = commanded();
  plan.slowMs = 60_000;
  const answer = sendWithSecond(plan);
  await sent(sendings, 1);
  sendings[0]?.fail('other', 'connect ECONNREFUSED 127.0.0.1:9');
  await expect(answer).rejects.toMatchObject({ kind: 'other' });
  expect(sendings).toHaveLength(1);
});

// ------------------------------------------------------------------------------------ in the report

const record = (slow: Partial<SlowRequestRecord>): SlowRequestRecord => ({
  target: 'http://target',
  test: 'listCycles › PAG-FIRST-PAGE',
  file: 'tests/conformance/pagination.spec.ts',
  operationId: 'listCycles',
  request: 'GET http://target/v2/cycle?limit=25',
  curl: "curl -i -X GET 'http://target/v2/cycle?limit=25'",
  resendMark: { ms: 1_000, how: "the p99 of the target's answers to listCycles" },
  boundMs: 30_000,
  first: { answered: true, ms: 1_200, status: 200 },
  ...slow,
});

test('the slow requests in the report: a late answer the check went on without joins its latency; each request is listed with what became of its sendings', () => {
  const second = { answered: true as const, ms: 12, status: 200, afterMs: 1_000 };
  const unanswered = record({
    first: { answered: false, ms: 30_000, reason: 'timed out after 30000 ms (the bound)', kind: 'timeout' },
    second,
    used: 'second',
  });
  const reset = record({
    first: { answered: false, ms: 3, reason: 'read ECONNRESET', kind: 'cut' },
    second: { ...second, afterMs: 3 },
    used: 'second',
  });
  const late = record({ first: { answered: true, ms: 12_000, status: 200 }, second, used: 'second' });
  const late500 = record({ first: { answered: true, ms: 12_000, status: 500 }, second, used: 'second' });
  const slowWrite = record({ operationId: 'createServiceRequestResults', used: 'first' });
  const neither = record({
    first: { answered: false, ms: 30_000, reason: 'timed out after 30000 ms', kind: 'timeout' },
    second: { answered: false, ms: 29_000, reason: 'timed out', kind: 'timeout', afterMs: 1_000 },
  });
  const records = [unanswered, reset, late, late500, slowWrite, neither];
  expect(lateSamples(records)).toEqual([
    ['listCycles', 12_000],
    ['listCycles', 12_000],
  ]);
  expect(sentTwice(records)).toBe(5);
  expect(slowRequestRows([unanswered, slowWrite, neither])).toEqual([
    {
      operationId: 'listCycles',
      request: 'GET http://target/v2/cycle?limit=25',
      test: 'listCycles › PAG-FIRST-PAGE',
      first: 'no answer within 30000 ms',
      second: 'sent again after 1000 ms: answered 200 after 12 ms',
      used: 'second',
    },
    {
      operationId: 'createServiceRequestResults',
      request: 'GET http://target/v2/cycle?limit=25',
      test: 'listCycles › PAG-FIRST-PAGE',
      first: 'answered 200 after 1200 ms',
      used: 'first',
    },
    expect.objectContaining({
      used: 'neither',
      second: 'sent again after 1000 ms: no answer within 29000 ms',
    }),
  ]);
});

test('sent again when late or lost: a read of the contract, a page of the sign-in, the partner token request; never a write, a code or a refresh token', () => {
  const base = 'http://target/developer';
  const request = (method: string, url: string): SentRequest => ({ method, url, headers: {} });
  const again = (method: string, url: string, signIn = false) =>
    sentAgainWhenLate(base, request(method, url), signIn);
  expect(again('GET', `${base}/v2/cycle?limit=25`)).toBe(true);
  expect(again('GET', 'http://target/oauth/oauth2/auth?client_id=x', true)).toBe(true);
  expect(again('POST', `${base}/v2/partner/token`)).toBe(true);
  // Outside the contract and not the sign-in's: the suite's own harness (the sandbox's administration).
  expect(again('GET', 'http://target/sandbox/webhooks')).toBe(false);
  for (const [method, url] of [
    ['PATCH', `${base}/v2/partner/service-request/00000000-0000-4000-8000-000000000000/status`],
    ['POST', `${base}/v2/partner/development/add-test-data`],
    ['DELETE', `${base}/v2/user/access`],
  ] as const)
    expect(again(method, url), `${method} ${url}`).toBe(false);
  // The credentials form and the token endpoint (a code, a refresh token) are spent by their sending.
  expect(again('POST', 'http://target/oauth/oauth2/auth', true)).toBe(false);
  expect(again('POST', 'http://target/oauth/oauth2/token', true)).toBe(false);
});
