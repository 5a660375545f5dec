// Renewal once on a 401 during a run: the suite's HTTP client sends a request again with the token the pool
// renews, once; the pool renews only a token it handed out, and never for a missing scope. Renewal by the
// stated expiry: a request that goes out once a kept token's margin has begun carries its successor.

import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { storeExpiries } from '../../src/auth/expired-tokens.ts';
import { PartnerClient } from '../../src/auth/partner-client.ts';
import { TokenLifetimes } from '../../src/auth/token-lifetimes.ts';
import { UserTokenPool } from '../../src/auth/user-token-pool.ts';
import { loadConfig } from '../../src/config/config.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import type { Transport, TransportRequest, TransportResponse } from '../../src/http/transport.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { start, TestClock, tokenRequest } from './sandbox-client.ts';
import { sandboxEnv } from './suite-against.ts';

/** A server that accepts only the bearer token `accepted`. */
function fakeServer(accepted: string): Transport & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async send(request: TransportRequest): Promise<TransportResponse> {
      const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      sent.push(token);
      return token === accepted
        ? { status: 200, headers: {}, text: '{}' }
        : { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, text: '{}' };
    },
    dispose: () => undefined,
  };
}

test('a 401 to a request with a token: sent again once with the renewed token, never twice', async () => {
  const renewed: string[] = [];
  const renewToken = async (token: string) => {
    renewed.push(token);
    return `${token}-renewed`;
  };
  const works = fakeServer('old-renewed');
  const exchange = await standaloneClient(works, { baseUrl: 'http://server', renewToken }).send({
    path: '/v2/cycle',
    token: 'old',
  });
  expect([exchange.status, works.sent, renewed]).toEqual([200, ['old', 'old-renewed'], ['old']]);

  const refuses = fakeServer('none');
  const refused = await standaloneClient(refuses, { baseUrl: 'http://server', renewToken }).send({
    path: '/v2/cycle',
    token: 'a',
  });
  expect([refused.status, refuses.sent]).toEqual([401, ['a', 'a-renewed']]);

  const anonymous = fakeServer('none');
  await standaloneClient(anonymous, { baseUrl: 'http://server', renewToken }).send({ path: '/v2/cycle' });
  expect(anonymous.sent).toEqual(['']);
});

test('a kept token is renewed once its margin begins (a quarter of its life, at most 30 s), once for every holder; a failed renewal is tried again; no stated or a born-expired lifetime is never renewed', async () => {
  let now = 0;
  const lifetimes = new TokenLifetimes(() => now);
  const api = standaloneClient(fakeServer('none'), { baseUrl: 'http://server' });
  const renewals: string[] = [];
  let failing = false;
  const keep = (token: string, expiresIn?: number) =>
    lifetimes.keep(token, {
      obtainedAt: now,
      expiresIn,
      renew: async () => {
        renewals.push(token);
        if (failing) throw new Error('the token endpoint failed');
        const next = `${token}+`;
        keep(next, expiresIn);
        return next;
      },
    });
  keep('t', 60);
  keep('unstated');
  keep('born-expired', 0);
  now = 44_999;
  expect(await lifetimes.current('t', api)).toBe('t');
  now = 45_000;
  expect(await Promise.all([lifetimes.current('t', api), lifetimes.current('t', api)])).toEqual(['t+', 't+']);
  expect(renewals).toEqual(['t']);
  now = 3600_000;
  for (const token of ['unstated', 'born-expired', 'never-kept'])
    expect(await lifetimes.current(token, api)).toBe(token);
  failing = true;
  await expect(lifetimes.current('t', api)).rejects.toThrow('the token endpoint failed');
  failing = false;
  expect(await lifetimes.current('t', api)).toBe('t++');
  expect(renewals).toEqual(['t', 't+', 't+']);
  // A long-lived token's margin is 30 s.
  keep('hour', 3600);
  now += 3569_999;
  expect(await lifetimes.current('hour', api)).toBe('hour');
  now += 1;
  expect(await lifetimes.current('hour', api)).toBe('hour+');
});

/** The suite's configuration for a sandbox started here. */
const configFor = (sandbox: { baseUrl: string; authUrl: string }) =>
  loadConfig(
    {
      ...sandboxEnv,
      CONFORMANCE_ENV_FILE: undefined,
      CONFORMANCE_TARGET: 'sandbox',
      CONFORMANCE_BASE_URL: sandbox.baseUrl,
      CONFORMANCE_AUTH_URL: sandbox.authUrl,
    },
    storeExpiries,
  );

interface ExpiryRun {
  clock: TestClock;
  sandbox: RunningSandbox;
  lifetimes: TokenLifetimes;
  /** The run's client, which sends a token past its stated expiry renewed. */
  api: ReturnType<typeof standaloneClient>;
}

/**
 * `body` against a sandbox of short-lived tokens, on one clock for the server and the run: an hour passes
 * without waiting for it.
 */
async function withShortLivedTokens(body: (run: ExpiryRun) => Promise<void>): Promise<void> {
  const clock = new TestClock(Date.now());
  const sandbox = await start({ now: clock.now, variants: ['short-lived-tokens'] });
  const transport = nodeTransport();
  try {
    const lifetimes = new TokenLifetimes(() => clock.ms);
    const api = standaloneClient(transport, {
      baseUrl: sandbox.baseUrl,
      currentToken: (token, client) => lifetimes.current(token, client),
    });
    await body({ clock, sandbox, lifetimes, api });
  } finally {
    transport.dispose();
    await sandbox.close();
  }
}

test('a token held past its stated expiry goes out renewed by its rotating refresh token, once for all its holders; a token sent on purpose, or revoked, as it is', () =>
  withShortLivedTokens(async ({ clock, sandbox, lifetimes, api }) => {
    const pool = new UserTokenPool(api, configFor(sandbox), true, undefined, undefined, lifetimes);
    const scopes = ['read:profile'];
    const first = await pool.cached(scopes);
    const held = first?.accessToken ?? '';
    const sentWith = (exchange: { request: { headers: Record<string, string> } }) =>
      exchange.request.headers.authorization?.replace(/^Bearer /, '');
    const profile = { path: '/v2/user/profile/basic', token: held };
    expect(sentWith(await api.send(profile))).toBe(held);

    clock.advance(3600_000);
    const [one, two] = await Promise.all([api.send(profile), api.send(profile)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const successor = sentWith(one);
    expect(successor).not.toBe(held);
    expect(sentWith(two)).toBe(successor);
    const next = await pool.cached(scopes);
    expect(next?.accessToken).toBe(successor);
    // Renewed by the refresh token the first came with, which the rotated one replaced.
    expect(next?.refreshToken).toBeDefined();
    expect(next?.refreshToken).not.toBe(first?.refreshToken);
    const spent = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: first?.refreshToken ?? '',
    });
    expect(spent.status).toBe(400);

    // An expired token sent on purpose, and a revoked grant's token, go out as they are.
    lifetimes.asIs(held);
    expect(sentWith(await api.send(profile))).toBe(held);
    const own = (await pool.fresh(scopes)).accessToken;
    expect((await api.send({ path: '/v2/user/access', method: 'DELETE', token: own })).status).toBe(204);
    expect(await pool.revoked(own)).toBe(own);
    clock.advance(3600_000);
    const afterRevocation = await api.send({ ...profile, token: own });
    expect([afterRevocation.status, sentWith(afterRevocation)]).toEqual([401, own]);
  }));

test("a partner's token held past its stated expiry goes out renewed by a new token request, without a 401", () =>
  withShortLivedTokens(async ({ clock, sandbox, lifetimes, api }) => {
    const config = configFor(sandbox);
    if (!config.partnerA) throw new Error('the sandbox configures partner A');
    const partner = new PartnerClient(api, config.partnerA, new Map(), undefined, lifetimes);
    const read = { path: '/v2/partner/requisition/00000000-0000-4000-8000-000000000000' };
    const sent: string[] = [];
    const tokenOf = (exchange: { status: number; request: { headers: Record<string, string> } }) => {
      sent.push(exchange.request.headers.authorization ?? '');
      return exchange.status;
    };
    expect(tokenOf(await partner.send(read))).toBe(404);
    clock.advance(3600_000);
    expect(tokenOf(await partner.send(read))).toBe(404);
    expect(partner.renewals).toBe(0);
    expect(sent[1]).not.toBe(sent[0]);
  }));

test('the pool renews a cached token the target stopped accepting, once, and hands its successor to whoever holds it; not a token it did not hand out, nor for a missing scope', async () => {
  const clock = new TestClock(Date.now());
  const sandbox = await start({ now: clock.now });
  const transport = nodeTransport();
  try {
    const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl });
    const pool = new UserTokenPool(api, configFor(sandbox));
    const cached = (await pool.cached(['read:cycles']))?.accessToken ?? '';
    const missingScope = await api.send({ path: '/v2/user/profile/basic', token: cached });
    expect(missingScope.status).toBe(401);
    expect(await pool.renew(cached, missingScope)).toBeUndefined();

    clock.advance(3600_000);
    const expired = await api.send({ path: '/v2/cycle', token: cached });
    expect(expired.status).toBe(401);
    const renewed = await pool.renew(cached, expired);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(cached);
    expect((await api.send({ path: '/v2/cycle', token: renewed })).status).toBe(200);
    // A test still holding the replaced token gets its successor, not another new token.
    expect(await pool.renew(cached, expired)).toBe(renewed);
    expect(await pool.renew('never-handed-out', expired)).toBeUndefined();
  } finally {
    transport.dispose();
    await sandbox.close();
  }
});
