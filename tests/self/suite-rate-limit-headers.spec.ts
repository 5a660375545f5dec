// Rate limits without a number: what the suite reads from the headers targets announce their limit in
// (src/http/rate-limit-headers.ts), the client honouring Retry-After on a 429 outside the burst
// (src/http/pacer.ts through the ApiClient), the sandbox's variants ietf-rate-limit-headers and
// production-rate-limits, and RL-429 against a sandbox started on its own with no CONFORMANCE_RATE_LIMIT:
// verified from the IETF fields or production's multi-policy X-RateLimit-Limit (a 429 without Retry-After),
// failed when the limit is not enforced, not verified with the numbers when the budget cannot reach it.
import { expect, test } from '@playwright/test';
import { announcedRateLimit } from '../../src/http/rate-limit-headers.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import type { Transport, TransportResponse } from '../../src/http/transport.ts';
import { messagesOf } from './findings-support.ts';
import { api, login, rateLimitHeadersOf, start, TestClock } from './sandbox-client.ts';
import { runSuiteAgainst } from './suite-against.ts';

test.describe('announced rate limits', () => {
  test('X-RateLimit-* and Retry-After (seconds or an HTTP date)', () => {
    expect(
      announcedRateLimit({
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '7',
        'x-ratelimit-reset': '12',
        'retry-after': '3',
      }),
    ).toEqual({
      limit: 100,
      remaining: 7,
      resetSeconds: 12,
      retryAfterSeconds: 3,
      windowSeconds: undefined,
      sources: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    });
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const retry = announcedRateLimit({ 'retry-after': inTenSeconds })?.retryAfterSeconds ?? 0;
    expect(retry).toBeGreaterThan(8);
    expect(retry).toBeLessThanOrEqual(10);
    expect(announcedRateLimit({ 'content-type': 'application/json' })).toBeUndefined();
  });

  test('X-RateLimit-Limit listing the policies after the governing limit (window= or w=)', () => {
    const production = [
      { limit: 100, windowSeconds: 60 },
      { limit: 10_000, windowSeconds: 86_400 },
    ];
    expect(
      announcedRateLimit({
        'x-ratelimit-limit': '100, 100;window=60, 10000;window=86400',
        'x-ratelimit-remaining': '98',
        'x-ratelimit-reset': '3',
      }),
    ).toEqual({
      limit: 100,
      windowSeconds: 60,
      policies: production,
      remaining: 98,
      resetSeconds: 3,
      retryAfterSeconds: undefined,
      sources: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    });
    // The day's policy governing, in the w= spelling.
    expect(announcedRateLimit({ 'x-ratelimit-limit': '10000, 100;w=60, 10000;w=86400' })).toMatchObject({
      limit: 10_000,
      windowSeconds: 86_400,
      policies: production,
    });
    // Two policies with the governing limit: the smaller window.
    expect(announcedRateLimit({ 'x-ratelimit-limit': '50,50;window=3600,50;window=10' })).toMatchObject({
      limit: 50,
      windowSeconds: 10,
    });
    expect(announcedRateLimit({ 'x-ratelimit-limit': '20;w=1' })).toEqual(
      expect.objectContaining({ limit: 20, windowSeconds: 1, policies: [{ limit: 20, windowSeconds: 1 }] }),
    );
    expect(announcedRateLimit({ 'x-ratelimit-limit': 'many' })?.limit).toBeUndefined();
  });

  test('the IETF fields: the current draft (named policies, the first to run out) and the earlier ones', () => {
    expect(
      announcedRateLimit({
        'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400',
        ratelimit: '"daily";r=900;t=3600, "burst";r=0;t=12',
      }),
    ).toMatchObject({
      limit: 100,
      windowSeconds: 60,
      remaining: 0,
      resetSeconds: 12,
      policies: [
        { limit: 100, windowSeconds: 60 },
        { limit: 1000, windowSeconds: 86_400 },
      ],
    });
    expect(announcedRateLimit({ 'ratelimit-policy': '10;w=1, 100;w=60' })).toMatchObject({
      limit: 10,
      windowSeconds: 1,
    });
    expect(announcedRateLimit({ ratelimit: 'limit=50, remaining=49, reset=30' })).toMatchObject({
      limit: 50,
      remaining: 49,
      resetSeconds: 30,
    });
    expect(
      announcedRateLimit({ 'ratelimit-limit': '20', 'ratelimit-remaining': '4', 'ratelimit-reset': '5' }),
    ).toMatchObject({ limit: 20, remaining: 4, resetSeconds: 5 });
  });
});

test.describe('the client honours Retry-After outside the burst', () => {
  /** A transport answering from a script, noting when each request was sent. */
  function scripted(answers: TransportResponse[]): Transport & { sentAt: number[] } {
    const sentAt: number[] = [];
    return {
      sentAt,
      send: async () => {
        sentAt.push(Date.now());
        return answers[Math.min(sentAt.length - 1, answers.length - 1)] as TransportResponse;
      },
      dispose: () => {},
    };
  }
  const ok: TransportResponse = { status: 200, headers: {}, text: '{}' };

  for (const [what, limited] of [
    ['Retry-After', { 'retry-after': '1' }],
    ['the IETF RateLimit reset', { ratelimit: '"default";r=0;t=1' }],
  ] as const) {
    test(`a 429 is waited out for ${what} and sent again; noRetry hands it over`, async () => {
      const transport = scripted([{ status: 429, headers: limited, text: '' }, ok]);
      const client = standaloneClient(transport, { baseUrl: 'http://target.invalid' });
      expect((await client.send({ path: '/v2/cycle' })).status).toBe(200);
      expect(transport.sentAt).toHaveLength(2);
      const [first = 0, second = 0] = transport.sentAt;
      expect(second - first).toBeGreaterThanOrEqual(950);

      const once = scripted([{ status: 429, headers: limited, text: '' }, ok]);
      const burst = standaloneClient(once, { baseUrl: 'http://target.invalid' });
      expect((await burst.send({ path: '/v2/cycle', noRetry: true })).status).toBe(429);
      expect(once.sentAt).toHaveLength(1);
    });
  }
});

test.describe('variant ietf-rate-limit-headers', () => {
  test('the limit is announced only by RateLimit-Policy and RateLimit; a 429 keeps Retry-After', async () => {
    const sandbox = await start({
      variants: ['ietf-rate-limit-headers'],
      rateLimit: { limit: 2, windowSeconds: 60 },
    });
    try {
      const { access_token } = await login(sandbox);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await api(sandbox, '/v2/user/profile/basic', access_token));
      for (const answer of answers) {
        expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
        expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60');
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
      expect(answers[0]?.headers.get('ratelimit')).toMatch(/^"default";r=1;t=\d+$/);
      expect(answers[2]?.headers.get('retry-after')).toMatch(/^\d+$/);
      const read = announcedRateLimit(Object.fromEntries(answers[2]?.headers ?? []));
      expect(read).toMatchObject({ limit: 2, windowSeconds: 60, remaining: 0 });
    } finally {
      await sandbox.close();
    }
  });
});

/** The headers production documents on a 429 (and every response): no Retry-After. */
const PRODUCTION_HEADERS = 'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset';

/**
 * A sandbox of a scaled production variant (50 per 10 s, whatever the instance's own limit) on a clock of the
 * test's, after 51 reads of one client: the variant's window spent, the last read answered 429.
 */
async function spentWindow(variant: string, check: (run: SpentWindow) => Promise<void>): Promise<void> {
  const clock = new TestClock();
  const sandbox = await start({
    now: clock.now,
    variants: [variant],
    rateLimit: { limit: 2, windowSeconds: 60 },
  });
  try {
    const { access_token } = await login(sandbox);
    const read = () => api(sandbox, '/v2/user/profile/basic', access_token);
    const answers = [];
    for (let i = 0; i < 51; i += 1) answers.push(await read());
    expect(answers.map((answer) => answer.status)).toEqual([...Array(50).fill(200), 429]);
    await check({ clock, read, headers: answers.map(rateLimitHeadersOf) });
  } finally {
    await sandbox.close();
  }
}

interface SpentWindow {
  clock: TestClock;
  read: () => ReturnType<typeof api>;
  /** The rate-limit headers of the 51 answers. */
  headers: Record<string, string>[];
}

test.describe('variant production-rate-limits', () => {
  test('50 per 10 s and 10,000 per day per client, in production headers; a 429 without Retry-After', async () => {
    await spentWindow('production-rate-limits', async ({ clock, read, headers }) => {
      const announced = (remaining: number) => ({
        'x-ratelimit-limit': '50, 50;window=10, 10000;window=86400',
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': '10',
      });
      expect(headers[0]).toEqual(announced(49));
      expect(headers[50]).toEqual(announced(0));
      expect(announcedRateLimit(headers[50] ?? {})).toMatchObject({
        limit: 50,
        windowSeconds: 10,
        remaining: 0,
        resetSeconds: 10,
        policies: [
          { limit: 50, windowSeconds: 10 },
          { limit: 10_000, windowSeconds: 86_400 },
        ],
      });
      clock.advance(10_000);
      const next = await read();
      expect(next.status).toBe(200);
      expect(rateLimitHeadersOf(next)).toEqual(announced(49));
    });
  });
});

test.describe('variant rate-limit-without-window', () => {
  test("production's scaled limits announced without their window: the limit alone, the reset in seconds, no Retry-After", async () => {
    await spentWindow('rate-limit-without-window', async ({ clock, read, headers }) => {
      const announced = (remaining: number, reset: number) => ({
        'x-ratelimit-limit': '50',
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(reset),
      });
      expect(headers[0]).toEqual(announced(49, 10));
      clock.advance(4_000);
      const refused = await read();
      expect(refused.status).toBe(429);
      expect(rateLimitHeadersOf(refused)).toEqual(announced(0, 6));
      expect(announcedRateLimit(rateLimitHeadersOf(refused))).toMatchObject({
        limit: 50,
        windowSeconds: undefined,
        remaining: 0,
        resetSeconds: 6,
      });
    });
  });
});

test.describe('RL-429 without CONFORMANCE_RATE_LIMIT, against a sandbox started on its own', () => {
  const limit = { limit: 30, windowSeconds: 2 };
  const styles = {
    // The IETF fields, a 429 with Retry-After.
    ietf: { options: { variants: ['ietf-rate-limit-headers'], rateLimit: limit }, headers: 'Retry-After' },
    // Production's multi-policy X-RateLimit-Limit, a 429 without Retry-After.
    production: {
      options: {
        rateLimit: [limit, { limit: 10_000, windowSeconds: 86_400 }],
        rateLimitHeaders: 'production',
      },
      headers: PRODUCTION_HEADERS,
    },
  } as const;
  const burst = async (options: { faults?: string[]; budget?: string; style?: keyof typeof styles }) => {
    const style = styles[options.style ?? 'ietf'];
    const sandbox = await start({ ...style.options, faults: options.faults ?? [] });
    try {
      const { report } = await runSuiteAgainst(sandbox, {
        CONFORMANCE_TARGET: 'remote',
        CONFORMANCE_SIGN_IN: 'form',
        CONFORMANCE_GREP: '@RL-429(?=\\s|$)',
        CONFORMANCE_RATE_LIMIT: undefined,
        CONFORMANCE_RATE_LIMIT_HEADERS: style.headers,
        CONFORMANCE_RATE_LIMIT_BUDGET: options.budget,
        CONFORMANCE_ALLOW_INCOMPLETE: '1',
      });
      const [check] = report.tests;
      if (!check) throw new Error('RL-429 did not run');
      return check;
    } finally {
      await sandbox.close();
    }
  };

  test('verified from the limit the IETF fields announce', async () => {
    const check = await burst({});
    expect(check.status, check.error).toBe('passed');
    expect(messagesOf(check, 'pass').join('\n')).toMatch(
      /limit 30 requests per 2 s \(ratelimit, ratelimit-policy/,
    );
  });

  test("verified from production's X-RateLimit-Limit (the governing per-window policy), no Retry-After", async () => {
    const check = await burst({ style: 'production' });
    expect(check.status, check.error).toBe('passed');
    expect(messagesOf(check, 'pass').join('\n')).toMatch(/limit 30 requests per 2 s \(x-ratelimit-limit, /);
  });

  test('fails when the announced limit is not enforced', async () => {
    const check = await burst({ faults: ['rate-limit-never-429'] });
    expect(check.status).toBe('failed');
    expect(check.failedRequirements).toEqual(['RL-429']);
  });

  test('not verified, with the numbers, when the budget cannot exceed the limit', async () => {
    const check = await burst({ budget: '20' });
    expect(check.status).toBe('skipped');
    expect(check.skipReason).toMatch(
      /takes 30 requests in the window the probe found 29 left in to exceed, over the burst's budget of 20/,
    );
  });
});
