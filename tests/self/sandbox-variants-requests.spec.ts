// The conforming variants that change which requests are accepted (partner token and results bodies, user
// OAuth client authentication, PKCE, tokens' lifetimes, rate-limit windows): each one changes what it says
// (see sandbox-variants.spec.ts).
import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { assertValid } from '../../src/contract/validators.ts';
import {
  api,
  authorizationCode,
  authorizationFields,
  collections,
  credentials,
  login,
  rateLimitHeadersOf,
  redirectUriFor,
  start,
  TestClock,
  tokenRequest,
} from './sandbox-client.ts';
import {
  partnerA,
  partnerB,
  paths,
  startPartnerSandbox,
  validTokenRequest,
} from './sandbox-partner-support.ts';
import { codeGrant, partnerSandbox, userSandbox } from './sandbox-variant-support.ts';

// ---------------------------------------------------------------- token-400
test.describe('variant token-400', () => {
  const partner = partnerSandbox(['token-400']);

  test('a token request missing client_id or client_secret gets 400; wrong credentials still 401', async () => {
    const sandbox = partner();
    const { client_id: _id, ...noId } = validTokenRequest(partnerA);
    const { client_secret: _secret, ...noSecret } = validTokenRequest(partnerA);
    for (const json of [noId, noSecret, {}]) {
      const answer = await sandbox.call('POST', paths.token, { json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
    }
    for (const extra of [{ client_secret: 'wrong' }, { client_id: 'intruder' }]) {
      const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA, extra) });
      expect(answer.status, JSON.stringify(extra)).toBe(401);
    }
    const issued = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
    expect(issued.status).toBe(200);
    assertValid('partner-token-response', issued.body);
  });
});

// ---------------------------------------------------------------- other-refusal-statuses
test.describe('variant other-refusal-statuses', () => {
  const run = userSandbox(['other-refusal-statuses']);
  const partner = partnerSandbox(['other-refusal-statuses']);

  test('a token lacking the scope gets 403 insufficient_scope; a missing or invalid token still 401', async () => {
    const { sandbox } = run();
    const { access_token } = await login(sandbox, { scopes: ['read:profile'], basic: true });
    const refused = await api(sandbox, collections.cycle, access_token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect((await api(sandbox, '/v2/user/profile/basic', access_token)).status).toBe(200);
    expect((await api(sandbox, collections.cycle, undefined)).status).toBe(401);
    const { tokenB } = run();
    const [cycleOfA] = (await api(sandbox, `${collections.cycle}?limit=1`, run().tokenA)).body.records as {
      id: number;
    }[];
    expect((await api(sandbox, `${collections.cycle}/${cycleOfA?.id}`, tokenB)).status).toBe(403);
    expect((await api(sandbox, `${collections.cycle}/1`, tokenB)).status).toBe(404);
    expect((await api(sandbox, collections.cycle, 'never-issued')).status).toBe(401);
  });

  test('a partner request without Authorization gets 403, an invalid token 401; a body that is not an object 422', async () => {
    const sandbox = partner();
    const { id } = await sandbox.firstRequisition(partnerA);
    expect((await sandbox.call('GET', paths.requisition(id))).status).toBe(403);
    const invalid = await sandbox.call('GET', paths.requisition(id), {
      headers: { authorization: 'Bearer never-issued' },
    });
    expect(invalid.status).toBe(401);
    for (const json of [[], 'client_credentials']) {
      expect((await sandbox.call('POST', paths.token, { json })).status, JSON.stringify(json)).toBe(422);
    }
    const wrong = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { client_secret: 'wrong' }),
    });
    expect(wrong.status).toBe(401);
  });
});

// ---------------------------------------------------------------- lenient-results
test.describe('variant lenient-results', () => {
  const partner = partnerSandbox(['lenient-results']);

  test('results with unexpected field types get 201; ownership and unknown ids still 404', async () => {
    const sandbox = partner();
    const { service_request_ids } = await sandbox.firstRequisition(partnerA);
    const serviceRequestId = String(service_request_ids[0]);
    for (const json of [
      { status: 5 },
      { observations: 'x' },
      { observations: [{ value_numeric: 'high' }] },
    ]) {
      const answer = await sandbox.as(partnerA, 'POST', paths.results(serviceRequestId), { json });
      expect(answer.status, JSON.stringify(json)).toBe(201);
      expect(answer.text).toBe('');
    }
    expect((await sandbox.activity(partnerA, serviceRequestId)).diagnostic_reports).toHaveLength(3);
    const foreign = await sandbox.as(partnerB, 'POST', paths.results(serviceRequestId), {
      json: { status: 5 },
    });
    expect(foreign.status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await sandbox.as(partnerA, 'POST', paths.results(unknown), { json: { status: 5 } })).status).toBe(
      404,
    );
    const patch = await sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(serviceRequestId), {
      json: { task_business_status: 5 },
    });
    expect(patch.status, 'only the results upload is lenient').toBe(400);
  });
});

test.describe('variant basic-client-auth', () => {
  const run = userSandbox(['basic-client-auth']);

  test('client credentials only by HTTP Basic: form-body credentials get 401 invalid_client with a Basic challenge', async () => {
    const { sandbox } = run();
    const refused = await tokenRequest(sandbox, await codeGrant(sandbox));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic/);
    const basic = await tokenRequest(sandbox, await codeGrant(sandbox), true);
    expect(basic.status).toBe(200);
    const { access_token } = await basic.json();
    expect((await api(sandbox, '/v2/user/profile/basic', access_token)).status).toBe(200);
  });

  test('without the variant both the form body and HTTP Basic are accepted', async () => {
    const sandbox = await start();
    try {
      for (const basic of [false, true]) {
        expect((await tokenRequest(sandbox, await codeGrant(sandbox), basic)).status, `basic ${basic}`).toBe(
          200,
        );
      }
      const { clientId } = credentials.client;
      const mixed = await tokenRequest(sandbox, { ...(await codeGrant(sandbox)), client_id: clientId }, true);
      expect(mixed.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

// ---------------------------------------------------------------- pkce-required
test.describe('variant pkce-required', () => {
  test('an authorization request without a code challenge goes back with invalid_request; a code is redeemed only with its verifier', async () => {
    const sandbox = await start({ variants: ['pkce-required'] });
    try {
      const query = new URLSearchParams(authorizationFields(sandbox, { scopes: ['read:profile'] }));
      const refused = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth?${query}`, { redirect: 'manual' });
      expect(refused.status).toBe(302);
      const back = new URL(refused.headers.get('location') ?? '');
      expect(`${back.origin}${back.pathname}`).toBe(redirectUriFor(sandbox));
      expect(Object.fromEntries(back.searchParams)).toEqual({
        error: 'invalid_request',
        error_description: 'code_challenge is required',
        state: 'state-12345678',
      });
      const verifier = randomBytes(32).toString('base64url');
      const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
      const grant = async () => ({
        grant_type: 'authorization_code',
        code: await authorizationCode(sandbox, { codeChallenge }),
        redirect_uri: redirectUriFor(sandbox),
      });
      const noVerifier = await tokenRequest(sandbox, await grant());
      expect(noVerifier.status).toBe(400);
      expect(await noVerifier.json()).toMatchObject({ error: 'invalid_grant' });
      const issued = await tokenRequest(sandbox, { ...(await grant()), code_verifier: verifier });
      expect(issued.status).toBe(200);
      const { access_token } = await issued.json();
      expect((await api(sandbox, '/v2/user/profile/basic', access_token)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

// ---------------------------------------------------------------- iframe-consent, iframe-consent-browser
test.describe('variants iframe-consent and iframe-consent-browser', () => {
  for (const variant of ['iframe-consent', 'iframe-consent-browser'] as const)
    test(`${variant}: the consent page has no form, its same-origin frame has the consent form, for the signed-in session only`, async () => {
      const sandbox = await start({ variants: [variant] });
      try {
        const query = new URLSearchParams(authorizationFields(sandbox, { scopes: ['read:profile'] }));
        const opened = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth?${query}`);
        const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const csrf = /name="csrf_token" value="([^"]+)"/.exec(await opened.text())?.[1] ?? '';
        const frameUrl = `${sandbox.authUrl}/oauth/oauth2/consent-frame`;
        expect((await fetch(frameUrl, { headers: { cookie } })).status, 'before the password').toBe(400);
        const [user] = credentials.users;
        const consentPage = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
          method: 'POST',
          headers: { cookie },
          body: new URLSearchParams({ step: 'login', csrf_token: csrf, ...user }),
        });
        const wrapper = await consentPage.text();
        expect(wrapper).toContain('<iframe src="/oauth/oauth2/consent-frame"');
        expect(wrapper).not.toContain('<form');
        const frame = await (await fetch(frameUrl, { headers: { cookie } })).text();
        expect(frame).toMatch(/<form method="post" action="\/oauth\/oauth2\/auth">/);
        const allowed = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie },
          body: new URLSearchParams({ step: 'consent', csrf_token: csrf, consent: 'accept' }),
        });
        expect(allowed.status).toBe(302);
        expect(new URL(allowed.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
      } finally {
        await sandbox.close();
      }
    });
});

// ---------------------------------------------------------------- int64-overflow-404
test.describe('variant int64-overflow-404', () => {
  const run = userSandbox(['int64-overflow-404']);

  test('an all-digit cycleId beyond int64 gets 404; a non-integer id still 400; a known id 200', async () => {
    const { sandbox, tokenA } = run();
    const known = (
      (await api(sandbox, `${collections.cycle}?limit=1`, tokenA)).body.records as { id: number }[]
    )[0]?.id;
    expect((await api(sandbox, `${collections.cycle}/${known}`, tokenA)).status).toBe(200);
    for (const id of ['9223372036854775808', '-9223372036854775809', '123456789012345678901234']) {
      for (const suffix of ['', '/sleep', '/recovery']) {
        expect((await api(sandbox, `${collections.cycle}/${id}${suffix}`, tokenA)).status, id + suffix).toBe(
          404,
        );
      }
    }
    for (const id of ['abc', '1.0', '0x10']) {
      expect((await api(sandbox, `${collections.cycle}/${id}`, tokenA)).status, id).toBe(400);
    }
  });
});

// ---------------------------------------------------------------- short-lived-tokens
test.describe('variant short-lived-tokens', () => {
  const run = userSandbox(['short-lived-tokens']);

  test('a user token lives 60 s; every grant brings a refresh token, which works once and is replaced', async () => {
    const { sandbox, clock } = run();
    const profile = '/v2/user/profile/basic';
    // Asked without the offline scope, the grant comes with a refresh token all the same.
    const issued = await login(sandbox, { scopes: ['read:profile'], basic: true });
    expect(issued).toMatchObject({ expires_in: 60, scope: 'read:profile' });
    expect(issued.refresh_token).toBeTruthy();
    expect((await api(sandbox, profile, issued.access_token)).status).toBe(200);
    clock.advance(60_000);
    expect((await api(sandbox, profile, issued.access_token)).status).toBe(401);

    const refresh = (token: string) =>
      tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: token }, true);
    const renewed = await refresh(String(issued.refresh_token));
    expect(renewed.status).toBe(200);
    const body = await renewed.json();
    expect(body).toMatchObject({ expires_in: 60, scope: 'read:profile' });
    expect(body.refresh_token).toBeTruthy();
    expect(body.refresh_token).not.toBe(issued.refresh_token);
    expect((await api(sandbox, profile, body.access_token)).status).toBe(200);
    // The old refresh token is spent: the rotated one replaces it.
    const again = await refresh(String(issued.refresh_token));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(body.refresh_token)).status).toBe(200);
  });

  test('a partner token states expires_in 60 and is refused with 401 after', async () => {
    const clock = new TestClock();
    const sandbox = await startPartnerSandbox({ variants: ['short-lived-tokens'], now: clock.now });
    try {
      const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ expires_in: 60 });
      const token = (answer.body as { access_token: string }).access_token;
      const { id } = await sandbox.firstRequisition(partnerA);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(200);
      clock.advance(60_000);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});

// ---------------------------------------------------------------- short-partner-tokens
test.describe('variant short-partner-tokens', () => {
  test('a partner token lives 20 s, whatever sandbox_expires_in asks, and is refused with 401 after', async () => {
    const clock = new TestClock();
    const sandbox = await startPartnerSandbox({ variants: ['short-partner-tokens'], now: clock.now });
    try {
      for (const extra of [{}, { sandbox_expires_in: 0 }, { sandbox_expires_in: 3600 }]) {
        const answer = await sandbox.call('POST', paths.token, {
          json: { ...validTokenRequest(partnerA), ...extra },
        });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ expires_in: 20 });
      }
      const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
      const token = (answer.body as { access_token: string }).access_token;
      const { id } = await sandbox.firstRequisition(partnerA);
      clock.advance(19_999);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(200);
      clock.advance(1);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});

// ---------------------------------------------------------------- clock-aligned-rate-limit
test.describe('variant clock-aligned-rate-limit', () => {
  test("windows start at multiples of their length, not at a client's or a token's first request", async () => {
    const clock = new TestClock(Date.parse('2026-03-15T12:00:07.500Z'));
    const sandbox = await start({
      now: clock.now,
      variants: ['clock-aligned-rate-limit'],
      rateLimit: { limit: 3, windowSeconds: 10 },
    });
    try {
      const { access_token } = await login(sandbox, { basic: true });
      const own = await login(sandbox, { basic: true, extra: { sandbox_rate_limit: '2/10' } });
      const seen = async (token: string) => {
        const response = await api(sandbox, '/v2/user/profile/basic', token);
        const headers = rateLimitHeadersOf(response);
        return [response.status, headers['x-ratelimit-remaining'], headers['x-ratelimit-reset']];
      };
      // The first request at 12:00:07.5 is counted in the window 12:00:00 to 12:00:10: 3 s to its reset.
      expect(await seen(access_token)).toEqual([200, '2', '3']);
      expect(await seen(own.access_token)).toEqual([200, '1', '3']);
      expect(await seen(own.access_token)).toEqual([200, '0', '3']);
      expect(await seen(own.access_token)).toEqual([429, '0', '3']);
      clock.advance(2_500);
      expect(await seen(own.access_token)).toEqual([200, '1', '10']);
      expect(await seen(access_token)).toEqual([200, '2', '10']);
    } finally {
      await sandbox.close();
    }
  });
});
