// Both sign-ins judge the authorization server's answers alike (src/auth/sign-in-answers.ts), on the
// sandbox's served page (the HTTP form filler) and on its page built by script (the browser): a 500, a 503
// at the login post, a redirect loop are SignInServerFailure naming the request and the status; a 404 at a
// step that worked earlier in the run's journal is the server's too, and at a first sign-in SignInRefused,
// naming both readings; so is an `error=` naming the request's parameters (a server that requires PKCE,
// asked without: AuthorizationRequestRefused), which PKCE by default never meets. Browser cases need
// Chromium and are skipped without it.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import {
  AuthorizationRequestRefused,
  SignInRefused,
  SignInServerFailure,
} from '../../src/auth/sign-in-errors.ts';
import { memoryJournal, type SignInJournal } from '../../src/auth/sign-in-journal.ts';
import { codeSourceFor } from '../../src/auth/sign-in-method.ts';
import { UserOAuthClient } from '../../src/auth/user-oauth.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { needsChromium } from './chromium.ts';
import { start, userLoginFor } from './sandbox-client.ts';

const SIGN_INS = [
  { name: 'the form filler on a served page', method: 'form', options: {} },
  { name: 'the browser on a page built by script', method: 'browser', options: { realisticLogin: true } },
] as const;

/**
 * Obtains a code from `sandbox` by `method`, with `journal` (and PKCE unless `pkce` is false): the error it
 * fails with (undefined: a code).
 */
async function signIn(
  sandbox: RunningSandbox,
  method: 'form' | 'browser',
  journal: SignInJournal,
  pkce?: boolean,
): Promise<unknown> {
  const transport = nodeTransport();
  const browser = new BrowserSignIn();
  try {
    const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl });
    const client = new UserOAuthClient(api, sandbox.authUrl, userLoginFor(sandbox), {
      codeSource: codeSourceFor(method, api, browser),
      journal,
      clientAuth: 'client_secret_basic',
      ...(pkce === undefined ? {} : { pkce }),
    });
    return await client.obtainCode('read:profile').then(
      () => undefined,
      (error: unknown) => error,
    );
  } finally {
    await browser.close();
    transport.dispose();
  }
}

async function withSandbox<T>(options: SandboxInput, run: (sandbox: RunningSandbox) => Promise<T>) {
  const sandbox = await start(options);
  try {
    return await run(sandbox);
  } finally {
    await sandbox.close();
  }
}

for (const { name, method, options } of SIGN_INS)
  test.describe(name, () => {
    if (method === 'browser') needsChromium();

    for (const [fault, answered] of [
      ['oauth-authorize-500', /^GET http:\/\/\S+\/oauth\/oauth2\/auth answered 500$/],
      ['oauth-login-post-503', /^POST http:\/\/\S+\/oauth\/oauth2\/auth answered 503$/],
      ['oauth-authorize-redirect-loop', /^the authorization server redirects in a loop/],
    ] as const)
      test(`${fault}: the server failed the sign-in, with the request`, async () => {
        const failed = await withSandbox({ ...options, faults: [fault] }, (sandbox) =>
          signIn(sandbox, method, memoryJournal()),
        );
        expect(failed, String(failed)).toBeInstanceOf(SignInServerFailure);
        expect((failed as SignInServerFailure).what).toMatch(answered);
        expect((failed as SignInServerFailure).evidence).toMatch(
          /curl -i -X (GET|POST) 'http:\/\/\S+\/oauth\/oauth2\/auth/,
        );
      });

    test('a 404 once the step has worked is the server failing; at a first sign-in, the run cannot tell', async () => {
      await withSandbox({ ...options, faults: ['oauth-authorize-404-mid-run'] }, async (sandbox) => {
        const journal = memoryJournal();
        expect(await signIn(sandbox, method, journal)).toBeUndefined();
        const failed = await signIn(sandbox, method, journal);
        expect(failed, String(failed)).toBeInstanceOf(SignInServerFailure);
        expect((failed as SignInServerFailure).what).toMatch(
          /answered 404, where it answered within a sign-in earlier in this run$/,
        );
        const first = await signIn(sandbox, method, memoryJournal());
        expect(first, String(first)).toBeInstanceOf(SignInRefused);
        expect((first as Error).message).toMatch(/Either the configuration does not match the server/);
      });
    });

    test("a server that requires PKCE: the default signs in; without PKCE its error= is the run-or-server question at a first sign-in, the server's once the step worked", async () => {
      await withSandbox({ ...options, variants: ['pkce-required'] }, async (sandbox) => {
        const journal = memoryJournal();
        expect(await signIn(sandbox, method, journal)).toBeUndefined();
        const first = await signIn(sandbox, method, memoryJournal(), false);
        expect(first, String(first)).toBeInstanceOf(AuthorizationRequestRefused);
        expect((first as Error).message).toMatch(
          /^Sign-in refused at its first step: GET http:\/\/\S+\/oauth\/oauth2\/auth answered 302: the redirect to the redirect URI: the redirect carried invalid_request: code_challenge is required\. Either the authorization request the run's configuration builds does not suit the server \(.*CONFORMANCE_PKCE\), or the server refuses a request it should accept$/,
        );
        const again = await signIn(sandbox, method, journal, false);
        expect(again, String(again)).toBeInstanceOf(SignInServerFailure);
        expect((again as SignInServerFailure).what).toMatch(
          /carried invalid_request: code_challenge is required$/,
        );
      });
    });
  });

test('a step answered 4xx within a sign-in that went on past it did not work: a later 4xx of it is not charged', () => {
  const journal = memoryJournal();
  const login = { method: 'POST', url: 'https://auth.example/login?attempt=1' };
  const consent = { method: 'GET', url: 'https://auth.example/consent' };
  journal.signedIn(
    [
      { request: login, status: 401 },
      { request: consent, status: 200 },
    ],
    'A',
  );
  expect(journal.workedBefore(login, 'A')).toBeUndefined();
  expect(journal.workedBefore(consent, 'A')).toBe('where it answered within a sign-in earlier in this run');
});
