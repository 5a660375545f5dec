// Every sign-in page of the sandbox (option loginPage, and the realistic one) × {HTTP form filler, browser,
// by the page's kind}: each signs in with no setting changed and gets a token (PKCE and all) that carries
// every scope asked for (the checkbox consent page's boxes all submitted), the form filler where the page is
// a served form, the browser where it is built by script; the form filler never posts a refusal; a wrong
// password is CredentialsRefused, for user A or B by their variables. Where the user unticked a box
// (variant checkbox-consent-unticked), both grants lack that scope, and the token says so. A consent form in a
// same-origin frame (variant iframe-consent) is found there by both. Browser cases need
// Chromium (/usr/bin/chromium, or CONFORMANCE_CHROMIUM) and are skipped without it.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { LOGIN_PAGES } from '../../sandbox/oauth/login-pages.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import { carriedScopes, scopeList } from '../../src/auth/granted-scope.ts';
import { CredentialsRefused, PageBuiltByScript } from '../../src/auth/sign-in-errors.ts';
import { codeSourceFor } from '../../src/auth/sign-in-method.ts';
import { UserOAuthClient, type UserToken } from '../../src/auth/user-oauth.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { browserToo, needsChromium } from './chromium.ts';
import { ALL_SCOPES, start, userLoginFor } from './sandbox-client.ts';

const VARIANTS: { name: string; options: SandboxInput; scripted: boolean }[] = [
  // The second factor needs a person (tests/self/auth-attribution.spec.ts).
  ...LOGIN_PAGES.filter((loginPage) => loginPage !== 'second-factor').map((loginPage) => ({
    name: loginPage,
    options: { loginPage },
    scripted: false,
  })),
  { name: 'realistic', options: { realisticLogin: true }, scripted: true },
  // The consent form in a same-origin <iframe> of the consent page: found in the frame by either sign-in.
  { name: 'iframe consent', options: { variants: ['iframe-consent'] }, scripted: false },
];
const METHODS = ['form', 'browser', 'auto'] as const;
/** Every read scope and the offline scope: a form filler that kept one checkbox of seven would lose six. */
const ASKED = ALL_SCOPES.join(' ');

/** Signs user A (or B) in on `sandbox` by `method` and exchanges the code; the exchanges the api sent. */
async function signIn(
  sandbox: RunningSandbox,
  method: (typeof METHODS)[number],
  options: { user?: 'A' | 'B'; password?: string; browser?: BrowserSignIn } = {},
): Promise<{ token: UserToken; exchanges: Exchange[]; ms: number }> {
  const transport = nodeTransport();
  const exchanges: Exchange[] = [];
  const api = standaloneClient(transport, { baseUrl: sandbox.baseUrl, onExchange: (e) => exchanges.push(e) });
  const browser = options.browser ?? new BrowserSignIn();
  const started = performance.now();
  try {
    const client = new UserOAuthClient(
      api,
      sandbox.authUrl,
      userLoginFor(sandbox, options.user, options.password),
      { pkce: true, user: options.user, codeSource: codeSourceFor(method, api, browser) },
    );
    const token = await client.authorize(ASKED);
    return { token, exchanges, ms: performance.now() - started };
  } finally {
    await browser.close();
    transport.dispose();
  }
}

/** A browser that must not be launched: its Chromium does not exist. */
const noBrowser = () => new BrowserSignIn({ executablePath: '/nonexistent/chromium' });

for (const variant of VARIANTS) {
  test.describe(`sign-in page ${variant.name}`, () => {
    let sandbox: RunningSandbox;
    test.beforeAll(async () => {
      sandbox = await start(variant.options);
    });
    test.afterAll(async () => sandbox.close());

    if (variant.scripted)
      test('the form filler hands it over: the page is built by script', async () => {
        await expect(signIn(sandbox, 'form')).rejects.toBeInstanceOf(PageBuiltByScript);
      });
    else
      test('the form filler signs in, never posting a refusal, with no browser', async () => {
        const { token, exchanges, ms } = await signIn(sandbox, 'auto', { browser: noBrowser() });
        console.log(`${variant.name} × form filler: ${ms.toFixed(0)} ms, ${exchanges.length} requests`);
        expect(token.accessToken).toBeTruthy();
        expect(token.grantedScope).toBeDefined();
        expect(carriedScopes(token).sort()).toEqual(scopeList(ASKED).sort());
        const posted = exchanges.flatMap((e) =>
          e.request.body ? [new URLSearchParams(e.request.body)] : [],
        );
        for (const body of posted) {
          expect(body.get('action')).not.toBe('deny');
          // choix=1 is the French pages' Refuser; consent=cancel the identifier-first consent's Cancel.
          expect(body.get('choix')).not.toBe('1');
          expect(body.get('consent')).not.toBe('cancel');
        }
      });

    test('the browser signs in', async () => {
      needsChromium();
      const { token, ms } = await signIn(sandbox, variant.scripted ? 'auto' : 'browser');
      console.log(`${variant.name} × browser: ${ms.toFixed(0)} ms`);
      expect(token.accessToken).toBeTruthy();
      expect(carriedScopes(token).sort()).toEqual(scopeList(ASKED).sort());
    });

    test('a wrong password is CredentialsRefused, naming the variables of the user', async () => {
      const methods = variant.scripted ? (['browser'] as const) : (['form', 'browser'] as const);
      for (const method of methods) {
        if (method === 'browser' && !browserToo()) continue;
        const refused = await signIn(sandbox, method, { user: 'B', password: 'not-the-password' }).catch(
          (error: unknown) => error,
        );
        expect(refused, String(refused)).toBeInstanceOf(CredentialsRefused);
        expect((refused as Error).message).toContain(
          'the target refused the password of CONFORMANCE_USER_B (CONFORMANCE_PASSWORD_B)',
        );
        expect((refused as Error).message).not.toContain('not-the-password');
      }
    });
  });
}

test.describe('the checkbox consent page with read:workout unticked (variant checkbox-consent-unticked)', () => {
  let sandbox: RunningSandbox;
  test.beforeAll(async () => {
    sandbox = await start({ variants: ['checkbox-consent-unticked'] });
  });
  test.afterAll(async () => sandbox.close());

  for (const method of ['form', 'browser'] as const)
    test(`the ${method === 'form' ? 'form filler' : 'browser'} gets a grant that lacks read:workout, and the token says so`, async () => {
      if (method === 'browser') needsChromium();
      const { token } = await signIn(sandbox, method);
      expect(token.scopes).toBe(ASKED);
      expect(carriedScopes(token).sort()).toEqual(
        scopeList(ASKED)
          .filter((scope) => scope !== 'read:workout')
          .sort(),
      );
      const workouts = await fetch(`${sandbox.baseUrl}/v2/activity/workout`, {
        headers: { authorization: `Bearer ${token.accessToken}` },
      });
      expect(workouts.status).toBe(401);
    });
});
