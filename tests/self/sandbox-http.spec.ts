// The sandbox's HTTP behaviour around the operations: rate limiting, webhooks, bad input, unknown routes
// and methods, and the command line.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { faults } from '../../sandbox/faults/index.ts';
import { signWebhookBody } from '../../sandbox/webhooks.ts';
import { deliveryText, startWebhookReceiver } from '../../src/http/webhook-receiver.ts';
import { cli } from '../../src/runner/run/run-step.ts';
import { api, credentials, login, rateLimitHeadersOf, start, TestClock } from './sandbox-client.ts';

const run = promisify(execFile);

test.describe('rate limiting', () => {
  test('fixed window per client: X-RateLimit-* on every answer, 429 with Retry-After over the limit', async () => {
    const clock = new TestClock();
    const sandbox = await start({ now: clock.now, rateLimit: { limit: 3, windowSeconds: 10 } });
    try {
      const a = await login(sandbox);
      const b = await login(sandbox, { user: 'B' });
      for (let i = 0; i < 3; i += 1) {
        const response = await api(
          sandbox,
          '/v2/user/profile/basic',
          i === 1 ? b.access_token : a.access_token,
        );
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBe('3');
        expect(response.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
        expect(response.headers.get('x-ratelimit-reset')).toBe('10');
      }
      const limited = await api(sandbox, '/v2/cycle', a.access_token);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'rate_limited' });
      expect(limited.headers.get('retry-after')).toBe('10');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      clock.advance(4000);
      expect((await api(sandbox, '/v2/cycle', a.access_token)).headers.get('retry-after')).toBe('6');
      clock.advance(6000);
      expect((await api(sandbox, '/v2/cycle', a.access_token)).status).toBe(200);
      // unauthenticated requests are not counted against the client
      expect((await api(sandbox, '/v2/cycle', undefined)).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});

test.describe('several rate-limit policies per client', () => {
  // 3 per 10 s and 5 per 60 s: the short window governs, then the long one runs out first.
  const policies = [
    { limit: 3, windowSeconds: 10 },
    { limit: 5, windowSeconds: 60 },
  ];
  const styles = {
    default: { list: (limit: number) => String(limit), retryAfter: true },
    production: { list: (limit: number) => `${limit}, 3;window=10, 5;window=60`, retryAfter: false },
  } as const;

  for (const [style, { list, retryAfter }] of Object.entries(styles)) {
    test(`served only while every policy allows; the fewest remaining governs (headers: ${style})`, async () => {
      const clock = new TestClock();
      const sandbox = await start({
        now: clock.now,
        rateLimit: policies,
        rateLimitHeaders: style as keyof typeof styles,
      });
      try {
        const { access_token } = await login(sandbox);
        const call = () => api(sandbox, '/v2/user/profile/basic', access_token);
        const expected = (limit: number, remaining: number, reset: number, status = 200) => ({
          'x-ratelimit-limit': list(limit),
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': String(reset),
          ...(status === 429 && retryAfter ? { 'retry-after': String(reset) } : {}),
        });
        const seen = async (status: number) => {
          const response = await call();
          expect(response.status).toBe(status);
          return rateLimitHeadersOf(response);
        };
        expect(await seen(200)).toEqual(expected(3, 2, 10));
        await seen(200);
        expect(await seen(200)).toEqual(expected(3, 0, 10));
        expect(await seen(429)).toEqual(expected(3, 0, 10, 429));
        clock.advance(10_000);
        // The short window is new; the long one has 2 left (the 429 used up neither).
        expect(await seen(200)).toEqual(expected(5, 1, 50));
        expect(await seen(200)).toEqual(expected(5, 0, 50));
        expect(await seen(429)).toEqual(expected(5, 0, 50, 429));
        clock.advance(50_000);
        expect(await seen(200)).toEqual(expected(3, 2, 10));
        const info = await (await fetch(`${sandbox.authUrl}/sandbox/info`)).json();
        expect(info).toMatchObject({
          rate_limit: [
            { limit: 3, window_seconds: 10 },
            { limit: 5, window_seconds: 60 },
          ],
          rate_limit_headers: style,
        });
      } finally {
        await sandbox.close();
      }
    });
  }
});

test.describe('rate limiting headers', () => {
  for (const [faults, statuses] of [
    [[], [200, 200, 429]],
    [['rate-limit-never-429'], [200, 200, 200]],
  ] as const) {
    test(`X-RateLimit-* on every answer, 200s too, Remaining reaching 0 (faults: ${faults.join() || 'none'})`, async () => {
      const sandbox = await start({ faults, rateLimit: { limit: 2, windowSeconds: 60 } });
      try {
        const { access_token } = await login(sandbox);
        const seen = [];
        for (let i = 0; i < 3; i += 1) {
          const response = await api(sandbox, '/v2/user/profile/basic', access_token);
          expect(response.headers.get('x-ratelimit-limit')).toBe('2');
          expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
          seen.push([response.status, response.headers.get('x-ratelimit-remaining')]);
        }
        expect(seen).toEqual([
          [statuses[0], '1'],
          [statuses[1], '0'],
          [statuses[2], '0'],
        ]);
      } finally {
        await sandbox.close();
      }
    });
  }
});

test.describe('webhooks', () => {
  test('signed with HMAC-SHA256 of the body; stop after DELETE /v2/user/access', async () => {
    const receiver = await startWebhookReceiver();
    const received = receiver.deliveries;
    const sandbox = await start();
    try {
      const { url } = receiver;
      const { clientId, clientSecret } = credentials.client;
      const registered = await fetch(`${sandbox.authUrl}/sandbox/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: clientId, url }),
      });
      expect(registered.status).toBe(201);
      const token = await login(sandbox);
      const info = await (await fetch(`${sandbox.authUrl}/sandbox/info`)).json();
      const userId = info.users[0].user_id;
      const trigger = () =>
        fetch(`${sandbox.authUrl}/sandbox/users/${userId}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'workout.updated' }),
        }).then((response) => response.json());

      expect((await trigger()).sent_to).toEqual([clientId]);
      await expect.poll(() => received.length).toBe(1);
      const [delivery] = received;
      const body = delivery ? deliveryText(delivery) : '{}';
      expect(delivery?.headers['service-signed']).toBe(signWebhookBody(body, clientSecret));
      expect(JSON.parse(body)).toMatchObject({ type: 'workout.updated', user_id: userId });

      expect((await api(sandbox, '/v2/user/access', token.access_token, { method: 'DELETE' })).status).toBe(
        204,
      );
      expect((await trigger()).sent_to).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toHaveLength(1);

      // an unreachable URL never breaks the sandbox
      await login(sandbox);
      await fetch(`${sandbox.authUrl}/sandbox/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: clientId, url: 'http://127.0.0.1:1/unreachable' }),
      });
      expect((await trigger()).sent_to).toEqual([clientId]);
      await expect.poll(() => received.length).toBe(2);
      expect((await fetch(`${sandbox.authUrl}/sandbox/info`)).status).toBe(200);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});

test.describe('bad input', () => {
  let sandbox: RunningSandbox;
  test.beforeAll(async () => {
    sandbox = await start();
  });
  test.afterAll(async () => sandbox.close());

  const expectJsonError = async (response: Response, status: number | RegExp) => {
    if (typeof status === 'number') expect(response.status).toBe(status);
    else expect(String(response.status)).toMatch(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(typeof body.error).toBe('string');
    expect(typeof body.message).toBe('string');
  };

  test('malformed JSON, wrong content type and huge bodies get clear 4xx JSON errors', async () => {
    const token = `${sandbox.authUrl}/oauth/oauth2/token`;
    await expectJsonError(
      await fetch(token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":',
      }),
      400,
    );
    await expectJsonError(
      await fetch(token, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' }),
      415,
    );
    await expectJsonError(
      await fetch(token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(2 * 1024 * 1024),
      }),
      413,
    );
    await expectJsonError(
      await fetch(`${sandbox.authUrl}/sandbox/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: 'x', url: 'not a url' }),
      }),
      400,
    );
  });

  test('unknown routes 404, wrong methods 405 with Allow, odd paths 4xx', async () => {
    await expectJsonError(await fetch(`${sandbox.baseUrl}/v3/cycle`), 404);
    await expectJsonError(await fetch(`${sandbox.authUrl}/`), 404);
    const wrong = await fetch(`${sandbox.baseUrl}/v2/cycle`, { method: 'PUT' });
    expect(wrong.headers.get('allow')).toContain('GET');
    await expectJsonError(wrong, 405);
    await expectJsonError(await fetch(`${sandbox.baseUrl}/v2/user/access`, { method: 'GET' }), 405);
    for (const path of [
      '/developer/%',
      '/developer/v2/cycle/%E0%A4%A',
      `/developer/v2/cycle/${'9'.repeat(300)}`,
      '/developer/v2/cycle/..%2f..%2fetc',
    ]) {
      await expectJsonError(
        await fetch(`${sandbox.authUrl}${path}`, { headers: { authorization: 'Bearer x' } }),
        /^4\d\d$/,
      );
    }
  });
});

test.describe('command line', () => {
  const [, sandboxCli] = cli('sandbox');

  test('--list-faults prints every fault with its requirement; an unknown fault exits non-zero listing them', async () => {
    const { stdout } = await run(process.execPath, [...sandboxCli, '--list-faults']);
    for (const [name, fault] of Object.entries(faults))
      expect(stdout).toMatch(new RegExp(`^${name} +${fault.requirement} `, 'm'));
    const failure = await run(process.execPath, [
      ...sandboxCli,
      '--faults',
      'cycle-order-ascending,no-such-fault',
    ]).catch((error) => error);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Unknown fault(s): no-such-fault');
    expect(failure.stderr).toContain('cycle-order-ascending');
  });

  test('serves base_url and auth_url on the given port', async () => {
    const child = spawn(process.execPath, [
      ...sandboxCli,
      ...['--port', '0', '--seed', '7', '--rate-limit', '5/1,100/60', '--rate-limit-headers', 'production'],
    ]);
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk) => {
          text += chunk;
          if (text.includes('auth_url')) resolve(text);
        });
        child.on('exit', () => reject(new Error(`exited: ${text}`)));
      });
      const baseUrl = /base_url +(\S+)/.exec(output)?.[1] ?? '';
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/developer$/);
      expect((await fetch(`${baseUrl}/v2/cycle`)).status).toBe(401);
      const info = await (await fetch(`${baseUrl.replace('/developer', '')}/sandbox/info`)).json();
      expect(info).toMatchObject({
        seed: 7,
        rate_limit: [
          { limit: 5, window_seconds: 1 },
          { limit: 100, window_seconds: 60 },
        ],
        rate_limit_headers: 'production',
      });
    } finally {
      child.kill();
    }
  });
});
