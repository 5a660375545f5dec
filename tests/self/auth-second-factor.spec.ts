// Behind a second factor (the sandbox's second-factor login page: the password, then a code sent by e-mail,
// then consent): the sign-in automation stops at the code as a page for a person, by either sign-in, never
// as a refused password. After one `login --headed` (a person, played here by a script over HTTP, signs each
// user in; the loopback redirect URI catches the code) a run gets its tokens from the stored grants: it ends
// with 0 failures, never ERROR, and lists what needed a fresh sign-in (the sign-in check itself, the
// revocations after the first spent the grant) with how to verify it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import { PersonNeeded } from '../../src/auth/sign-in-errors.ts';
import { codeSourceFor } from '../../src/auth/sign-in-method.ts';
import type { TokenStoreData } from '../../src/auth/token-store.ts';
import { UserOAuthClient } from '../../src/auth/user-oauth.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { freePort } from '../../src/runner/run/prism.ts';
import { cli } from '../../src/runner/run/run-step.ts';
import { cliRun } from './auth-attribution-support.ts';
import { browserToo } from './chromium.ts';
import { credentials, start, userLoginFor } from './sandbox-client.ts';
import { sandboxEnv } from './suite-against.ts';

test('the automation stops at the code page: PersonNeeded, by the form filler and by the browser', async () => {
  const sandbox = await start({ loginPage: 'second-factor' });
  const transport = nodeTransport();
  const browser = new BrowserSignIn();
  try {
    const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl });
    for (const method of browserToo() ? (['form', 'browser'] as const) : (['form'] as const)) {
      const client = new UserOAuthClient(api, sandbox.authUrl, userLoginFor(sandbox), {
        codeSource: codeSourceFor(method, api, browser),
      });
      const stopped = await client.obtainCode('read:profile').catch((error: unknown) => error);
      expect(stopped, `${method}: ${String(stopped)}`).toBeInstanceOf(PersonNeeded);
      expect((stopped as Error).message).toMatch(/needs a person: the page asks for "Code"/);
    }
  } finally {
    await browser.close();
    transport.dispose();
    await sandbox.close();
  }
});

/** The served form of a page: where it posts and its hidden fields. */
function formOf(html: string): { action: string; hidden: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  if (!action) throw new Error(`the page has no form: ${html.slice(0, 300)}`);
  const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)];
  return { action, hidden: Object.fromEntries(hidden.map(([, name, value]) => [name, value])) };
}

/** A person signs `username` in at `url` in a browser of their own: password, the e-mailed code, consent. */
async function personSignsIn(sandbox: RunningSandbox, url: string, username: string, password: string) {
  const opened = await fetch(url);
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  let html = await opened.text();
  const submit = async (fields: Record<string, string>) => {
    const { action, hidden } = formOf(html);
    const response = await fetch(new URL(action, sandbox.authUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
      body: new URLSearchParams({ ...hidden, ...fields }),
    });
    html = await response.text();
    return response;
  };
  await submit({ username, password });
  const mail = (await (await fetch(`${sandbox.authUrl}/sandbox/mail`)).json()) as {
    messages: { to: string; code: string }[];
  };
  const code = mail.messages.filter((message) => message.to === username).at(-1)?.code ?? '';
  await submit({ code });
  const redirect = await submit({ consent: 'accept' });
  // The person's browser follows the redirect to the loopback redirect URI, where login catches the code.
  await fetch(redirect.headers.get('location') ?? '');
}

test('after one login --headed behind a second factor, a run ends with 0 failures, not ERROR, listing what needed a fresh sign-in', async () => {
  const sandbox = await start({ loginPage: 'second-factor' });
  try {
    const store = join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json');
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const env = {
      ...(sandboxEnv as Record<string, string>),
      CONFORMANCE_ENV_FILE: undefined,
      CONFORMANCE_TARGET: 'sandbox',
      CONFORMANCE_BASE_URL: sandbox.baseUrl,
      CONFORMANCE_AUTH_URL: sandbox.authUrl,
      CONFORMANCE_TOKEN_STORE: store,
      CONFORMANCE_REDIRECT_URI: redirectUri,
    };
    const [command, args] = cli('login', '--headed', '--wait', '60');
    const login = spawn(command, args, {
      env: { ...process.env, ...env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    login.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const closed = new Promise<number | null>((resolve) => login.on('close', resolve));
    // One URL per user, printed when the sign-in before it has ended.
    for (const [index, user] of credentials.users.slice(0, 2).entries()) {
      const url = await new Promise<string>((resolve, reject) => {
        const look = () => {
          const printed = [...output.matchAll(/^\s+(http\S+oauth2\/auth\?\S+)$/gm)][index]?.[1];
          if (printed) resolve(printed);
        };
        login.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          look();
        });
        look();
        void closed.then(() => reject(new Error(`login ended before printing a URL:\n${output}`)));
      });
      await personSignsIn(sandbox, url, user.username, user.password);
    }
    expect(await closed, output).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData).grants)).toHaveLength(2);

    const run = await cliRun(sandbox, {
      CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT|@OP-REVOKE-ACCESS|@REVOKE-TOKENS',
      CONFORMANCE_TOKEN_STORE: store,
      CONFORMANCE_REDIRECT_URI: redirectUri,
    });
    expect([0, 3], run.output.slice(-3000)).toContain(run.code);
    expect(run.report.verdict).not.toBe('error');
    expect(run.report.totals.failed).toBe(0);
    expect(run.report.runError).toBeUndefined();
    // Served from the stored grants: the reads, and the first revocation.
    for (const id of ['PAG-LIMIT-DEFAULT', 'OP-REVOKE-ACCESS'])
      expect(run.report.requirements.find((r) => r.id === id)?.status, id).toBe('pass');
    // What needed a fresh sign-in, and how to verify it.
    const stops = run.report.runSideStops ?? [];
    expect(stops.map((stop) => stop.kind)).toEqual(stops.map(() => 'person'));
    expect(stops.map((stop) => stop.cause).join('\n')).toMatch(/A sign-in of user A needs a person/);
    expect(stops.map((stop) => stop.cause).join('\n')).toMatch(/A sign-in of user B needs a person/);
    expect(stops[0]?.remedy).toMatch(/login --headed` just before the run/);
    for (const id of ['AUTH-CODE-FLOW', 'REVOKE-TOKENS'])
      expect(run.report.requirements.find((r) => r.id === id)?.status, id).toBe('not-verified');
  } finally {
    await sandbox.close();
  }
});
