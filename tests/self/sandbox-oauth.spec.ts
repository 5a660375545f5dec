// The sandbox's user OAuth flow, bearer authentication, scopes and revocation, over real HTTP.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import {
  ALL_SCOPES,
  api,
  authorizationCode,
  credentials,
  login,
  redirectUriFor,
  start,
  TestClock,
  tokenRequest,
} from './sandbox-client.ts';

let sandbox: RunningSandbox;
const clock = new TestClock();

test.beforeAll(async () => {
  sandbox = await start({ now: clock.now });
});
test.afterAll(async () => sandbox.close());

const authorizeUrl = (fields: Record<string, string>) =>
  `${sandbox.authUrl}/oauth/oauth2/auth?${new URLSearchParams(fields)}`;

const validFields = () => ({
  client_id: credentials.client.clientId,
  redirect_uri: redirectUriFor(sandbox),
  response_type: 'code',
  scope: 'read:cycles read:sleep',
  state: 'abcdefgh-state',
});

test.describe('authorization endpoint', () => {
  test('renders a login-and-consent form listing the scopes', async () => {
    const response = await fetch(authorizeUrl(validFields()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    for (const name of ['username', 'password', 'client_id', 'redirect_uri', 'state', 'scope']) {
      expect(html).toContain(`name="${name}"`);
    }
    expect(html).toContain('<button type="submit"');
    expect(html).toContain('<li>read:cycles</li>');
    expect(html).toContain('<li>read:sleep</li>');
  });

  test('a bad redirect URI or an unknown client is shown as an error page, never redirected', async () => {
    for (const override of [
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: `${sandbox.authUrl}/elsewhere` },
      { client_id: 'nobody' },
    ]) {
      const response = await fetch(authorizeUrl({ ...validFields(), ...override }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  test('a loopback redirect URI matches on any port (RFC 8252)', async () => {
    const response = await fetch(
      authorizeUrl({ ...validFields(), redirect_uri: 'http://127.0.0.1:1/callback' }),
    );
    expect(response.status).toBe(200);
  });

  for (const [name, override, error] of [
    ['short state', { state: 'short' }, 'invalid_request'],
    ['unknown scope', { scope: 'read:cycles read:everything' }, 'invalid_scope'],
    ['empty scope', { scope: '' }, 'invalid_scope'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
  ] as const) {
    test(`${name} is redirected back with error=${error}`, async () => {
      const response = await fetch(authorizeUrl({ ...validFields(), ...override }), { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe(redirectUriFor(sandbox));
      expect(location.searchParams.get('error')).toBe(error);
    });
  }

  test('a wrong password shows the form again with an error; deny redirects with access_denied', async () => {
    const wrong = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        ...validFields(),
        username: credentials.users[0].username,
        password: 'nope',
      }),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong username or password');
    const denied = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ...validFields(), action: 'deny' }),
    });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('abcdefgh-state');
  });

  test('a successful login redirects with the code and the state; the callback page shows them', async () => {
    const response = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ...validFields(), ...credentials.users[1] }),
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('state')).toBe('abcdefgh-state');
    expect(location.searchParams.get('code')).toBeTruthy();
    const page = await fetch(location);
    expect(await page.text()).toContain('abcdefgh-state');
  });
});

test.describe('token endpoint', () => {
  test('issues bearer tokens with exactly the granted scopes; refresh tokens only with offline', async () => {
    const withOffline = await login(sandbox, { scopes: ['read:cycles', 'offline'] });
    expect(withOffline).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'read:cycles offline',
    });
    expect(withOffline.refresh_token).toBeTruthy();
    const without = await login(sandbox, { scopes: ['read:sleep'] });
    expect(without.scope).toBe('read:sleep');
    expect(without.refresh_token).toBeUndefined();
    expect((await api(sandbox, '/v2/cycle', withOffline.access_token)).status).toBe(200);
  });

  test('client authentication works with HTTP Basic; bad credentials get 401 invalid_client', async () => {
    const code = await authorizationCode(sandbox);
    const basic = await tokenRequest(
      sandbox,
      { grant_type: 'authorization_code', code, redirect_uri: redirectUriFor(sandbox) },
      true,
    );
    expect(basic.status).toBe(200);
    const bad = await fetch(`${sandbox.authUrl}/oauth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: 'sandbox-client',
        client_secret: 'x',
      }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('codes are single use, bound to the redirect URI and live 10 minutes', async () => {
    const redirect_uri = redirectUriFor(sandbox);
    const code = await authorizationCode(sandbox);
    expect(
      (await tokenRequest(sandbox, { grant_type: 'authorization_code', code, redirect_uri })).status,
    ).toBe(200);
    const reused = await tokenRequest(sandbox, { grant_type: 'authorization_code', code, redirect_uri });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });

    const other = await authorizationCode(sandbox);
    const mismatch = await tokenRequest(sandbox, {
      grant_type: 'authorization_code',
      code: other,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(await mismatch.json()).toMatchObject({ error: 'invalid_grant' });

    const late = await authorizationCode(sandbox);
    clock.advance(10 * 60_000 + 1);
    const expired = await tokenRequest(sandbox, {
      grant_type: 'authorization_code',
      code: late,
      redirect_uri,
    });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('RFC 6749 errors for missing and unsupported grant types and parameters', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'invalid_request'],
      [{ grant_type: 'password' }, 'unsupported_grant_type'],
      [{ grant_type: 'authorization_code' }, 'invalid_request'],
      [{ grant_type: 'refresh_token' }, 'invalid_request'],
      [{ grant_type: 'refresh_token', refresh_token: 'made-up' }, 'invalid_grant'],
      [
        { grant_type: 'authorization_code', code: 'made-up', redirect_uri: redirectUriFor(sandbox) },
        'invalid_grant',
      ],
    ];
    for (const [fields, error] of cases) {
      const response = await tokenRequest(sandbox, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.json()).toMatchObject({ error });
    }
  });

  test('refresh tokens rotate: each works once, the new access token works, scope may only narrow', async () => {
    const first = await login(sandbox, { scopes: ['read:cycles', 'read:sleep', 'offline'] });
    const refresh = (refresh_token: string, scope?: string) =>
      tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token, ...(scope ? { scope } : {}) });
    const widened = await refresh(first.refresh_token ?? '', 'read:cycles read:profile');
    expect(await widened.json()).toMatchObject({ error: 'invalid_scope' });
    const second = await refresh(first.refresh_token ?? '');
    expect(second.status).toBe(200);
    const rotated = (await second.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.scope).toBe('read:cycles read:sleep offline');
    expect(await (await refresh(first.refresh_token ?? '')).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await api(sandbox, '/v2/cycle', rotated.access_token)).status).toBe(200);
    const narrowed = await refresh(rotated.refresh_token, 'read:sleep');
    expect((await narrowed.json()).scope).toBe('read:sleep');
  });
});

test.describe('bearer authentication', () => {
  test('missing, malformed and unknown tokens get 401 with the RFC 6750 challenge', async () => {
    const missing = await api(sandbox, '/v2/cycle', undefined);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    for (const header of ['Basic abc', 'Bearer', 'Bearer two words', 'Bearer sbx_at_unknown']) {
      const response = await api(sandbox, '/v2/cycle', undefined, { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(response.body).toMatchObject({ error: 'invalid_token' });
    }
  });

  test('tokens expire: sandbox_expires_in=0 mints an expired token, and a normal one expires after an hour', async () => {
    const expired = await login(sandbox, { extra: { sandbox_expires_in: '0' } });
    expect(expired.expires_in).toBe(0);
    expect((await api(sandbox, '/v2/cycle', expired.access_token)).status).toBe(401);
    const fresh = await login(sandbox);
    expect((await api(sandbox, '/v2/cycle', fresh.access_token)).status).toBe(200);
    clock.advance(3600_000);
    const later = await api(sandbox, '/v2/cycle', fresh.access_token);
    expect(later.status).toBe(401);
    expect(later.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  const operations: [string, string | null][] = [
    ['/v2/cycle', 'read:cycles'],
    ['/v2/cycle/{cycleId}', 'read:cycles'],
    ['/v2/cycle/{cycleId}/recovery', 'read:recovery'],
    ['/v2/recovery', 'read:recovery'],
    ['/v2/activity/sleep', 'read:sleep'],
    ['/v2/activity/sleep/{sleepId}', 'read:sleep'],
    ['/v2/activity/workout', 'read:workout'],
    ['/v2/activity/workout/{workoutId}', 'read:workout'],
    ['/v2/user/measurement/body', 'read:body_measurement'],
    ['/v2/user/profile/basic', 'read:profile'],
    ['/v2/cycle/{cycleId}/sleep', null],
    ['/v1/activity-mapping/{v1Id}', null],
  ];

  test('every operation demands its scope (401 insufficient_scope) and succeeds with only that scope', async () => {
    const all = await login(sandbox, { scopes: ALL_SCOPES });
    const cycle = (await api(sandbox, '/v2/cycle', all.access_token)).body.records[0];
    const sleeps = await api(
      sandbox,
      '/v2/activity/sleep?limit=25&end=2025-08-20T00:00:00Z',
      all.access_token,
    );
    const workout = (await api(sandbox, '/v2/activity/workout', all.access_token)).body.records[0];
    const ids: Record<string, string> = {
      '{cycleId}': String(cycle.id),
      '{sleepId}': sleeps.body.records[0].id,
      '{workoutId}': workout.id,
      '{v1Id}': String(sleeps.body.records[0].v1_id),
    };
    const fill = (path: string) => path.replace(/\{\w+\}/g, (name) => ids[name] ?? name);
    const unrelated = await login(sandbox, { scopes: ['offline'] });
    for (const [path, scope] of operations) {
      const refused = await api(sandbox, fill(path), unrelated.access_token);
      if (scope === null) {
        expect(refused.status, path).toBe(200);
        continue;
      }
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${scope}"`,
      );
      const only = await login(sandbox, { scopes: [scope] });
      expect((await api(sandbox, fill(path), only.access_token)).status, path).toBe(200);
    }
  });
});

test.describe('revocation', () => {
  test('DELETE /v2/user/access answers 204 and revokes every token of that user for the client', async () => {
    const a1 = await login(sandbox, { scopes: ['read:cycles', 'offline'] });
    const a2 = await login(sandbox, { scopes: ['read:profile'] });
    const b = await login(sandbox, { user: 'B', scopes: ['read:cycles'] });
    const revoke = await api(sandbox, '/v2/user/access', a2.access_token, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    expect(revoke.text).toBe('');
    for (const token of [a1.access_token, a2.access_token]) {
      const response = await api(sandbox, '/v2/cycle', token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    }
    const refreshed = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: a1.refresh_token ?? '',
    });
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await api(sandbox, '/v2/cycle', b.access_token)).status).toBe(200);
    const again = await login(sandbox, { scopes: ['read:cycles'] });
    expect((await api(sandbox, '/v2/cycle', again.access_token)).status).toBe(200);
  });
});
