// `npm run login` against the realistic sandbox (a sign-in page built by script, CSRF, consent, Basic client
// authentication): headless Chromium fills it and the token store gets the grants; a served form is filled
// over HTTP with no browser; --headed without a display leaves it to a person, whose redirect is caught on
// the loopback redirect URI, and a signal ends that wait at once; and a second run, once the
// tokens the first one stored have passed the expiry the server stated, verifies AUTH-EXPIRED-TOKEN and
// PAUTH-EXPIRED-TOKEN from the store. The headless sign-ins need Chromium (skipped without one: chromium.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { TokenStoreData } from '../../src/auth/token-store.ts';
import { freePort } from '../../src/runner/run/prism.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { needsChromium } from './chromium.ts';
import { realisticSignIn } from './realistic-sign-in.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { runSuiteAgainst, sandboxEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

/** A token store path outside the reports (the suite refuses one under them). */
const storePath = (): string => join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json');

/** The suite's variables for a remote target: the sandbox's credentials, its URLs, a token store. */
function remoteEnv(
  sandbox: RunningSandbox,
  store: string,
  overrides: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...sandboxEnv,
    CONFORMANCE_ENV_FILE: undefined,
    CONFORMANCE_TARGET: 'remote',
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_TOKEN_STORE: store,
    CONFORMANCE_ALLOW_INCOMPLETE: '1',
    ...overrides,
  };
}

const secretsOfStore = (path: string): string[] => {
  const data = JSON.parse(readFileSync(path, 'utf8')) as TokenStoreData;
  return [
    ...Object.values(data.grants).map((grant) => grant.refreshToken),
    ...Object.values(data.accessTokens).flatMap((list) => list.map((token) => token.accessToken)),
  ];
};

const sandboxSecrets = Object.entries(sandboxEnv).flatMap(([name, value]) =>
  /SECRET|PASSWORD/.test(name) && value ? [value] : [],
);

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

test('npm run login signs both users in headless and fills the store; it prints no secret', async () => {
  needsChromium();
  const sandbox = await start({ realisticLogin: true });
  try {
    const store = storePath();
    const [command, args] = cli('login');
    const login = await runProcess(command, args, remoteEnv(sandbox, store), true);
    console.log(
      `npm run login (two users, headless Chromium): ${(login.durationMs / 1000).toFixed(1)} s\n${login.output}`,
    );
    expect(login.code, login.output).toBe(0);
    const data = JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData;
    expect(Object.keys(data.grants)).toHaveLength(2);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    for (const secret of [...secretsOfStore(store), ...sandboxSecrets])
      expect(login.output).not.toContain(secret);
  } finally {
    await sandbox.close();
  }
});

test('npm run login signs in on a served form with no browser and no setting changed', async () => {
  const sandbox = await start({ loginPage: 'consent' });
  try {
    const store = storePath();
    const [command, args] = cli('login');
    // A Chromium that does not exist: the served form needs none.
    const env = remoteEnv(sandbox, store, { CONFORMANCE_CHROMIUM: '/nonexistent/chromium' });
    const login = await runProcess(command, args, env, true);
    console.log(`npm run login (consent page, form filler): ${(login.durationMs / 1000).toFixed(1)} s`);
    expect(login.code, login.output).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData).grants)).toHaveLength(2);
  } finally {
    await sandbox.close();
  }
});

test('--headed without a display prints the authorization URL and takes the code a person reaches', async () => {
  const sandbox = await start({ realisticLogin: true });
  try {
    const store = storePath();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const {
      CONFORMANCE_USER_B: _b,
      CONFORMANCE_PASSWORD_B: _p,
      ...oneUser
    } = remoteEnv(sandbox, store, {
      CONFORMANCE_REDIRECT_URI: redirectUri,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    });
    const [command, args] = cli('login', '--headed', '--wait', '60');
    const child = spawn(command, args, { env: oneUser, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const printed = /^\s+(http\S+oauth2\/auth\?\S+)$/m.exec(output)?.[1];
        if (printed) resolve(printed);
      });
      child.on('close', () => reject(new Error(`login ended before printing a URL:\n${output}`)));
    });
    // The person signs in in a browser of their own, which follows the redirect to the loopback URI.
    const redirect = await realisticSignIn(sandbox, { authorizationUrl: url });
    expect((await fetch(redirect.location ?? '')).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData).grants)).toHaveLength(1);
  } finally {
    await sandbox.close();
  }
});

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  test(`a ${signal} ends the wait for a person at once`, async () => {
    const sandbox = await start();
    try {
      const env = remoteEnv(sandbox, storePath(), {
        CONFORMANCE_REDIRECT_URI: `http://127.0.0.1:${await freePort()}/callback`,
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
      });
      // Waiting an hour: only the signal can end it within the test's timeout.
      const [command, args] = cli('login', '--headed', '--wait', '3600');
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/waiting up to/.test(output)) resolve();
        });
        child.on('close', () => reject(new Error(`login ended before waiting:\n${output}`)));
      });
      child.kill(signal);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
    } finally {
      await sandbox.close();
    }
  });

test('a run after the stored tokens expired verifies AUTH-EXPIRED-TOKEN and PAUTH-EXPIRED-TOKEN from the store', async () => {
  needsChromium();
  // Tokens live 4 s: the first run's expire before the second, without an hour's wait.
  const sandbox = await start({ realisticLogin: true, tokenLifetimeSeconds: 4 });
  try {
    const store = storePath();
    const [command, args] = cli('login');
    const login = await runProcess(command, args, remoteEnv(sandbox, store), true);
    expect(login.code, login.output).toBe(0);
    const expired = 'AUTH-EXPIRED-TOKEN|PAUTH-EXPIRED-TOKEN';
    // The first run (its expired-token checks depend on how long it took: not asserted) keeps the partner
    // token it obtains in the store, as it keeps every token it replaces.
    const first = await runSuiteAgainst(
      sandbox,
      remoteEnv(sandbox, store, {
        CONFORMANCE_GREP: `${expired}|PAUTH-BEARER-ACCEPTED: GET /v2/partner/requisition/`,
      }),
    );
    const statusOf = (run: typeof first, id: string) =>
      run.report.requirements.find((r) => r.id === id)?.status;
    expect(statusOf(first, 'PAUTH-BEARER-ACCEPTED')).toBe('pass');
    // Wait for the latest expiry the server stated (expires_in) of what the store holds, then run again.
    const data = JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData;
    const expiries = Object.values(data.accessTokens).flatMap((list) =>
      list.map((t) => Date.parse(t.expiresAt)),
    );
    expect(expiries.length).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, Math.max(...expiries) - Date.now() + 1));
    const second = await runSuiteAgainst(sandbox, remoteEnv(sandbox, store, { CONFORMANCE_GREP: expired }));
    expect(second.code, JSON.stringify(second.report.incomplete)).toBe(0);
    expect(statusOf(second, 'AUTH-EXPIRED-TOKEN')).toBe('pass');
    expect(statusOf(second, 'PAUTH-EXPIRED-TOKEN')).toBe('pass');
    // No token of the store, nor any credential, is in a report.
    const secrets = [...secretsOfStore(store), ...sandboxSecrets];
    for (const file of filesUnder(second.reports)) {
      const text = readFileSync(file, 'latin1');
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a secret`).toBe(false);
    }
  } finally {
    await sandbox.close();
  }
});
