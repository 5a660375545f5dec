// The token store (CONFORMANCE_TOKEN_STORE): a 0600 file written atomically under a lock, so that concurrent
// refreshers never lose a rotated refresh token; it keeps the access tokens it replaces with their expiry;
// it never lives under reports/.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { storeExpiries } from '../../src/auth/expired-tokens.ts';
import { StoredGrants } from '../../src/auth/stored-grants.ts';
import { recordAccessToken, TokenStore, type TokenStoreData } from '../../src/auth/token-store.ts';
import { UserOAuthClient } from '../../src/auth/user-oauth.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { reportsDir } from '../../src/run-state/reports-dir.ts';
import { runNode } from './contract-openapi-support.ts';
import { realisticSignIn } from './realistic-sign-in.ts';
import { credentials, redirectUriFor, start, tokenRequest } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { sandboxEnv } from './suite-against.ts';

const counter = (data: TokenStoreData): number => Number(data.grants.counter?.refreshToken ?? 0);

test('the store is a 0600 file written whole: concurrent updates from two stores lose nothing', async () => {
  const path = join(scratchDir(), 'tokens.json');
  const stores = [new TokenStore(path), new TokenStore(path)];
  const updates = Array.from({ length: 40 }, (_, index) =>
    stores[index % 2]?.update((data) => {
      data.grants.counter = { refreshToken: String(counter(data) + 1), scopes: '', updatedAt: '' };
    }),
  );
  // A reader never sees half a file while the writers rename theirs over it.
  const reads = Array.from(
    { length: 40 },
    () => new Promise((resolve) => setImmediate(() => resolve(stores[0]?.read()))),
  );
  await Promise.all([...updates, ...reads]);
  expect(counter(new TokenStore(path).read())).toBe(40);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readdirSync(join(path, '..')).filter((name) => name !== 'tokens.json')).toEqual([]);
});

test('a lock left by a run that ended is taken over', async () => {
  const path = join(scratchDir(), 'tokens.json');
  const ended = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(`${path}.lock`, String(ended));
  await new TokenStore(path).update((data) => {
    data.grants.counter = { refreshToken: '1', scopes: '', updatedAt: '' };
  });
  expect(counter(new TokenStore(path).read())).toBe(1);
});

test("a wait for the lock another holder keeps is told as the run's, pause by pause", async () => {
  const path = join(scratchDir(), 'tokens.json');
  const told: number[] = [];
  const holder = new TokenStore(path);
  const waiter = new TokenStore(path, (waitMs) => told.push(waitMs));
  let holding: () => void = () => {};
  const held = holder.update(() => new Promise<void>((resolve) => (holding = resolve)));
  const waited = waiter.update(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 400));
  holding();
  await Promise.all([held, waited]);
  // Told before each pause (10 to 50 ms), so that a test's timeout has grown before the pause begins.
  expect(told.length).toBeGreaterThan(0);
  for (const pauseMs of told) expect(pauseMs).toBeGreaterThanOrEqual(10);
  for (const pauseMs of told) expect(pauseMs).toBeLessThanOrEqual(50);
});
test('it keeps the access tokens it replaces with their expiry, and gives the most recently expired of a scope set', () => {
  const data: TokenStoreData = { version: 1, grants: {}, accessTokens: {} };
  const at = (iso: string) => Date.parse(iso);
  recordAccessToken(
    data,
    'k',
    { accessToken: 'old-all', scopes: 'all', expiresIn: 60 },
    at('2026-01-01T00:00:00Z'),
  );
  recordAccessToken(
    data,
    'k',
    { accessToken: 'one', scopes: 'one', expiresIn: 60 },
    at('2026-01-01T00:01:00Z'),
  );
  recordAccessToken(
    data,
    'k',
    { accessToken: 'new-all', scopes: 'all', expiresIn: 60 },
    at('2026-01-01T00:30:00Z'),
  );
  recordAccessToken(data, 'k', { accessToken: 'no-expiry', scopes: 'all' }, at('2026-01-01T00:30:00Z'));
  expect(data.accessTokens.k?.map((token) => token.accessToken)).toEqual(['new-all', 'one', 'old-all']);
  const path = join(scratchDir(), 'tokens.json');
  writeFileSync(path, JSON.stringify(data));
  const store = new TokenStore(path);
  expect(store.expiredAccessToken('k', 'all', at('2026-01-01T00:31:00Z'))?.accessToken).toBe('new-all');
  expect(store.expiredAccessToken('k', 'all', at('2026-01-01T00:30:30Z'))?.accessToken).toBe('old-all');
  expect(store.expiredAccessToken('k', 'none', at('2026-01-01T00:30:30Z'))?.accessToken).toBe('one');
  expect(store.expiredAccessToken('k', 'all', at('2026-01-01T00:00:59Z'))).toBeUndefined();
});

test('CONFORMANCE_TOKEN_STORE under reports/ is refused', () => {
  const env = { ...sandboxEnv, CONFORMANCE_TOKEN_STORE: join(reportsDir, 'tokens.json') };
  expect(() => loadConfig(env, storeExpiries)).toThrow(ConfigError);
  expect(() => loadConfig(env, storeExpiries)).toThrow(/CONFORMANCE_TOKEN_STORE must be outside/);
});

/** A process of its own refreshing three times through the store (another run). Returns its access tokens. */
async function refreshInChild(job: {
  path: string;
  login: object;
  authUrl: string;
  baseUrl: string;
}): Promise<string[]> {
  const script = `
    import { StoredGrants } from './src/auth/stored-grants.ts';
    import { TokenStore } from './src/auth/token-store.ts';
    import { UserOAuthClient } from './src/auth/user-oauth.ts';
    import { standaloneClient } from './src/http/standalone-client.ts';
    import { nodeTransport } from './src/http/transport.ts';
    const { path, login, authUrl, baseUrl } = JSON.parse(process.env.REFRESH_JOB);
    const transport = nodeTransport();
    const client = new UserOAuthClient(standaloneClient(transport, { baseUrl }), authUrl, login, { clientAuth: 'client_secret_basic' });
    const tokens = [];
    for (let i = 0; i < 3; i++)
      tokens.push((await new StoredGrants(new TokenStore(path), authUrl).token(client, login, 'read:sleep', {}, undefined)).accessToken);
    transport.dispose();
    process.stdout.write(JSON.stringify(tokens));`;
  const { code, stdout, stderr } = await runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
    REFRESH_JOB: JSON.stringify(job),
  });
  if (code !== 0) throw new Error(stderr);
  return JSON.parse(stdout) as string[];
}

test.describe('against the realistic sandbox', () => {
  let sandbox: RunningSandbox;
  test.beforeAll(async () => {
    sandbox = await start({ realisticLogin: true });
  });
  test.afterAll(async () => sandbox.close());

  test('concurrent refreshers, two processes and two here, rotate the refresh token in turn: none is refused, the grant stays alive', async () => {
    const code = new URL((await realisticSignIn(sandbox)).location ?? '').searchParams.get('code') ?? '';
    const redirectUri = redirectUriFor(sandbox);
    const issued = await tokenRequest(
      sandbox,
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      true,
    );
    const { refresh_token: refreshToken } = (await issued.json()) as { refresh_token: string };
    // Without the store's lock two refreshers holding the same refresh token collide: rotation refuses one.
    const refresh = () =>
      tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: refreshToken }, true);
    const [first, second] = [await refresh(), await refresh()];
    expect([first.status, second.status]).toEqual([200, 400]);

    const rotated = ((await first.json()) as { refresh_token: string }).refresh_token;
    const [user] = credentials.users;
    if (!user) throw new Error('no sandbox user');
    const login = { ...credentials.client, ...user, redirectUri };
    const path = join(scratchDir(), 'tokens.json');
    const scopes = 'offline read:cycles read:sleep';
    await new StoredGrants(new TokenStore(path), sandbox.authUrl).save(login, {
      accessToken: 'unused',
      refreshToken: rotated,
      scopes,
    });
    const transport = nodeTransport();
    try {
      const refresher = () =>
        new StoredGrants(new TokenStore(path), sandbox.authUrl).token(
          new UserOAuthClient(
            standaloneClient(transport, { baseUrl: sandbox.baseUrl }),
            sandbox.authUrl,
            login,
            {
              clientAuth: 'client_secret_basic',
            },
          ),
          login,
          'read:cycles',
          {},
          undefined,
        );
      // Two runs (processes) of three refreshes each, and two refreshers here, all at once.
      const inChild = () =>
        refreshInChild({ path, login, authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl });
      const [here, there] = await Promise.all([
        Promise.all([refresher(), refresher()]),
        Promise.all([inChild(), inChild()]),
      ]);
      const tokens = [...here.map((token) => token.accessToken), ...there.flat()];
      expect(new Set(tokens).size).toBe(8);
      await expect(refresher()).resolves.toMatchObject({ scopes: 'read:cycles' });
    } finally {
      transport.dispose();
    }
    expect(readFileSync(path, 'utf8')).not.toContain(rotated);
  });
});
