// Renewal once on a 401 during a run: the suite's HTTP client sends a request again with the token the pool
// renews, once; the pool renews only a token it handed out, and never for a missing scope.

import { expect, test } from '@playwright/test';
import { storeExpiries } from '../../src/auth/expired-tokens.ts';
import { UserTokenPool } from '../../src/auth/user-token-pool.ts';
import { loadConfig } from '../../src/config/config.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import type { Transport, TransportRequest, TransportResponse } from '../../src/http/transport.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { start, TestClock } from './sandbox-client.ts';
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

test('the pool renews a cached token the target stopped accepting, once, and hands its successor to whoever holds it; not a token it did not hand out, nor for a missing scope', async () => {
  const clock = new TestClock(Date.now());
  const sandbox = await start({ now: clock.now });
  const transport = nodeTransport();
  try {
    const config = loadConfig(
      {
        ...sandboxEnv,
        CONFORMANCE_ENV_FILE: undefined,
        CONFORMANCE_TARGET: 'sandbox',
        CONFORMANCE_BASE_URL: sandbox.baseUrl,
        CONFORMANCE_AUTH_URL: sandbox.authUrl,
      },
      storeExpiries,
    );
    const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl });
    const pool = new UserTokenPool(api, config);
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
