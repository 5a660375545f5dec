// The sandbox's realistic sign-in (option realisticLogin, what the remote run and `npm run login` face): a
// login form built by script with a CSRF token, a consent step, client authentication by HTTP Basic only,
// PKCE, and refresh tokens that rotate. The HTTP form filler cannot sign in there: only a browser can.
import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { AUTHORIZE_PATH } from '../../sandbox/oauth/pages.ts';
import { authorizationRequest } from '../../src/auth/authorization-request.ts';
import { formSignIn } from '../../src/auth/form-sign-in.ts';
import { PageBuiltByScript } from '../../src/auth/sign-in-errors.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { openSignIn, realisticSignIn } from './realistic-sign-in.ts';
import { ALL_SCOPES, credentials, redirectUriFor, start, tokenRequest } from './sandbox-client.ts';

let sandbox: RunningSandbox;
test.beforeAll(async () => {
  sandbox = await start({ realisticLogin: true });
});
test.afterAll(async () => sandbox.close());

const userA = credentials.users[0] ?? { username: '', password: '' };
const codeOf = (location: string | null): string =>
  new URL(location ?? 'http://x/').searchParams.get('code') ?? '';

test('the sign-in page carries no <form>: the HTTP form filler cannot sign in', async () => {
  const page = await openSignIn(sandbox);
  expect(page.page.status).toBe(200);
  expect(page.page.html).not.toMatch(/<form/i);
  expect(page.cookie).not.toBe('');
  const transport = nodeTransport();
  try {
    const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl });
    const account = { ...userA, redirectUri: redirectUriFor(sandbox) };
    const request = authorizationRequest(
      sandbox.authUrl,
      { ...account, clientId: credentials.client.clientId },
      'read:cycles',
      false,
    );
    await expect(formSignIn(api)(request, account)).rejects.toBeInstanceOf(PageBuiltByScript);
  } finally {
    transport.dispose();
  }
});

test('login then consent, each with the session cookie and its CSRF token; deny and wrong passwords refused', async () => {
  const signIn = await openSignIn(sandbox);
  expect((await signIn.submit({ ...userA }, { csrf_token: 'forged' })).status).toBe(403);
  const cookieless = await fetch(`${sandbox.authUrl}${AUTHORIZE_PATH}`, {
    method: 'POST',
    body: new URLSearchParams({ step: 'login', csrf_token: 'x', ...userA }),
  });
  expect(cookieless.status).toBe(400);
  const wrong = await signIn.submit({ username: userA.username, password: 'wrong' });
  expect(wrong.status).toBe(401);
  const consent = await signIn.submit({ ...userA });
  expect(consent.status).toBe(200);
  expect(consent.html).toMatch(/Allow access\?/);
  const allowed = await signIn.submit({ decision: 'allow' });
  expect(allowed.status).toBe(302);
  expect(allowed.location).toMatch(/[?&]code=.+&state=state-12345678/);
  const denied = await realisticSignIn(sandbox, { decision: 'deny' });
  expect(denied.location).toMatch(/error=access_denied/);
});

test('client authentication by HTTP Basic only; PKCE S256 demands the verifier', async () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const url = new URL(`${sandbox.authUrl}${AUTHORIZE_PATH}`);
  url.search = new URLSearchParams({
    client_id: credentials.client.clientId,
    redirect_uri: redirectUriFor(sandbox),
    response_type: 'code',
    scope: ALL_SCOPES.join(' '),
    state: 'state-12345678',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const grant = async () => ({
    grant_type: 'authorization_code',
    code: codeOf((await realisticSignIn(sandbox, { authorizationUrl: url.toString() })).location),
    redirect_uri: redirectUriFor(sandbox),
  });
  const inBody = await tokenRequest(sandbox, { ...(await grant()), code_verifier: verifier });
  expect(inBody.status).toBe(401);
  expect(inBody.headers.get('www-authenticate')).toMatch(/^Basic/);
  expect((await tokenRequest(sandbox, await grant(), true)).status).toBe(400);
  const issued = await tokenRequest(sandbox, { ...(await grant()), code_verifier: verifier }, true);
  expect(issued.status).toBe(200);
});

test('refresh rotates: the old refresh token stops working, and a narrowed refresh keeps the whole grant', async () => {
  const code = codeOf((await realisticSignIn(sandbox)).location);
  const first = await tokenRequest(
    sandbox,
    { grant_type: 'authorization_code', code, redirect_uri: redirectUriFor(sandbox) },
    true,
  );
  const { refresh_token: original } = (await first.json()) as { refresh_token: string };
  const refresh = (refresh_token: string, scope?: string) =>
    tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token, ...(scope ? { scope } : {}) }, true);
  const narrowed = await refresh(original, 'read:cycles');
  const body = (await narrowed.json()) as { scope: string; refresh_token: string };
  expect(body.scope).toBe('read:cycles');
  expect(body.refresh_token).toBeTruthy();
  expect(await (await refresh(original)).json()).toMatchObject({ error: 'invalid_grant' });
  const whole = (await (await refresh(body.refresh_token)).json()) as { scope: string };
  expect(whole.scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
});
