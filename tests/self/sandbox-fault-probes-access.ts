// Probes of the user-area faults that break access: the rate limit, the OAuth redirect, authentication,
// scopes, revocation and webhook signatures.
import assert from 'node:assert/strict';
import { startWebhookReceiver } from '../../src/http/webhook-receiver.ts';
import { DELIVERY_WAIT_MS } from './safety-nets.ts';
import {
  authorizationCode,
  authorizationRedirect,
  collections,
  credentials,
  login,
  redirectUriFor,
  tokenRequest,
} from './sandbox-client.ts';
import {
  newestId,
  type Probe,
  type ProbeContext,
  type Probes,
  scopeChecked,
  status,
} from './sandbox-fault-probe.ts';

async function registerHook(p: ProbeContext, url: string): Promise<void> {
  await fetch(`${p.sandbox.authUrl}/sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner: credentials.client.clientId, url }),
  });
}

async function triggerEvent(p: ProbeContext): Promise<{ sent_to: string[] }> {
  const info = await (await fetch(`${p.sandbox.authUrl}/sandbox/info`)).json();
  const response = await fetch(`${p.sandbox.authUrl}/sandbox/users/${info.users[0].user_id}/events`, {
    method: 'POST',
  });
  return response.json();
}

/** Two sign-ins in a row each reach the redirect URI with a code, and the code gets a token. */
const twoSignIns: Probe = {
  async check(p) {
    for (const state of ['probe-sign-in-1', 'probe-sign-in-2']) {
      const code = await authorizationCode(p.sandbox, { state });
      const token = await tokenRequest(p.sandbox, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUriFor(p.sandbox),
      });
      assert.equal(token.status, 200, await token.text());
    }
  },
};

/** A probe that reads `path` twice with one token: both answers must be 200. */
const servedTwice = (path: string): Probe => ({
  async check(p) {
    const token = await p.token();
    for (let i = 0; i < 2; i += 1) {
      const response = await p.get(path, token);
      assert.equal(response.status, 200, response.text);
    }
  },
});

export const accessProbes = {
  'rate-limit-never-429': {
    options: { rateLimit: { limit: 2, windowSeconds: 60 } },
    async check(p) {
      // Machine-speed independent: once X-RateLimit-Remaining says 0, the next request must get 429.
      const token = await p.token();
      const seen = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await p.get('/v2/user/profile/basic', token);
        seen.push(`${response.status}/${response.headers.get('x-ratelimit-remaining')}`);
      }
      assert.deepEqual(seen, ['200/1', '200/0', '429/0']);
    },
  },
  'rate-limit-429-without-headers': {
    options: { rateLimit: { limit: 1, windowSeconds: 60 } },
    async check(p) {
      const token = await p.token();
      await p.get('/v2/user/profile/basic', token);
      const limited = await p.get('/v2/user/profile/basic', token);
      assert.equal(limited.status, 429);
      assert.ok(limited.headers.get('retry-after'));
      assert.ok(limited.headers.get('x-ratelimit-reset'));
    },
  },
  'first-copy-late-500': servedTwice('/v2/user/measurement/body'),
  'rate-limit-429-within-budget': servedTwice('/v2/user/profile/basic'),
  'oauth-state-not-returned': {
    async check(p) {
      const state = 'probe-state-0123456789';
      const location = await authorizationRedirect(p.sandbox, { state });
      assert.equal(new URL(location).searchParams.get('state'), state, location);
    },
  },
  'oauth-authorize-500': twoSignIns,
  'oauth-authorize-500-mid-run': twoSignIns,
  'oauth-authorize-404': twoSignIns,
  'oauth-authorize-404-mid-run': twoSignIns,
  'oauth-authorize-redirect-loop': twoSignIns,
  'oauth-login-post-503': twoSignIns,
  'oauth-token-503': twoSignIns,
  'auth-missing-token-accepted': status(collections.cycle, 401, async () => null),
  'auth-invalid-token-accepted': status(collections.cycle, 401, async () => 'sbx_at_never_issued'),
  'auth-expired-token-accepted': status(collections.cycle, 401, (p) =>
    p.token('A', undefined, { sandbox_expires_in: '0' }),
  ),
  'scope-unchecked-get-cycle': scopeChecked(async (p) => `/v2/cycle/${await newestId(p, collections.cycle)}`),
  'scope-unchecked-list-cycles': scopeChecked(collections.cycle),
  'scope-unchecked-get-cycle-recovery': scopeChecked(
    async (p) => `/v2/cycle/${await newestId(p, collections.cycle)}/recovery`,
  ),
  'scope-unchecked-list-recoveries': scopeChecked(collections.recovery),
  'scope-unchecked-get-sleep': scopeChecked(
    async (p) => `/v2/activity/sleep/${await newestId(p, collections.sleep)}`,
  ),
  'scope-missing-404-get-sleep': scopeChecked(
    async (p) => `/v2/activity/sleep/${await newestId(p, collections.sleep)}`,
  ),
  'scope-unchecked-list-sleeps': scopeChecked(collections.sleep),
  'scope-unchecked-get-workout': scopeChecked(
    async (p) => `/v2/activity/workout/${await newestId(p, collections.workout)}`,
  ),
  'scope-unchecked-list-workouts': scopeChecked(collections.workout),
  'scope-unchecked-body-measurement': scopeChecked('/v2/user/measurement/body'),
  'scope-unchecked-profile': scopeChecked('/v2/user/profile/basic'),
  'scope-stated-empty': {
    async check(p) {
      // The token response states the scope its token holds: read:cycles, which the token is served with.
      const tokens = await login(p.sandbox, { scopes: ['read:cycles'] });
      assert.equal(tokens.scope, 'read:cycles');
      assert.equal((await p.get(collections.cycle, tokens.access_token)).status, 200);
    },
  },
  'scope-required-for-revoke': status('/v2/user/access', 204, (p) => p.token('A', ['read:cycles']), 'DELETE'),
  'revoke-tokens-still-valid': {
    async check(p) {
      const token = await p.token();
      await p.get('/v2/user/access', token, { method: 'DELETE' });
      assert.equal((await p.get(collections.cycle, token)).status, 401);
    },
  },
  'revoke-answers-200-with-body': {
    async check(p) {
      const response = await p.get('/v2/user/access', undefined, { method: 'DELETE' });
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
    },
  },
  'revoke-webhooks-continue': {
    async check(p) {
      await registerHook(p, 'http://127.0.0.1:1/unreachable');
      await p.get('/v2/user/access', undefined, { method: 'DELETE' });
      assert.deepEqual((await triggerEvent(p)).sent_to, []);
    },
  },
  'webhook-signature-missing': {
    async check(p) {
      const receiver = await startWebhookReceiver();
      try {
        await registerHook(p, receiver.url);
        await p.token();
        await triggerEvent(p);
        const [delivery] = await receiver.waitFor(() => true, DELIVERY_WAIT_MS);
        assert.ok(delivery, 'no user-data webhook arrived');
        assert.ok(
          delivery.headers['service-signed'] !== undefined,
          'the user-data webhook carries no Service-Signed header',
        );
      } finally {
        await receiver.close();
      }
    },
  },
} satisfies Probes;
