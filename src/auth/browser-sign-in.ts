// Signs a user in through a real browser (Chromium driven by Playwright), like a person would: it opens the
// authorization URL, fills the login form it finds by role and label, presses the sign-in button, allows the
// consent it is shown, and catches the redirect to the redirect URI (intercepted in the browser: nothing needs
// to listen there). A page it cannot fill (a captcha, a second factor), or --headed, is left to a person:
// `onManual` is told the URL and gives the redirect the person reached, however it learns it.
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import {
  type AuthorizationRequest,
  type CodeSource,
  codeFromRedirect,
  type SignInAccount,
} from './authorization-request.ts';

/** Where Chromium is: CONFORMANCE_CHROMIUM, else Debian's package's binary; undefined when absent. */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string | undefined {
  const path = env.CONFORMANCE_CHROMIUM || '/usr/bin/chromium';
  return existsSync(path) ? path : undefined;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface BrowserSignInOptions {
  /** A visible browser, where a person signs in (nothing is filled in). */
  headed?: boolean;
  /** How long one page may take (default 15 s). */
  stepTimeoutMs?: number;
  /**
   * Called when a person must finish (--headed, or a page the sign-in cannot fill), with the authorization
   * URL and the reason; resolves to the URL the redirect reached (e.g. caught on a loopback listener).
   * Without it, such a page fails the sign-in.
   */
  onManual?: (url: string, reason: string) => Promise<string>;
}

const MAX_STEPS = 6;
const SIGNED_IN_PAGE = '<!doctype html><title>Signed in</title><p>Signed in. You may close this window.</p>';
const USERNAME = /user|e-?mail|login|account/i;
const PASSWORD = /password|passphrase/i;
const SIGN_IN = /sign in|log ?in|continue|next|submit/i;
const CONSENT = /^(allow|accept|authori[sz]e|approve|grant|consent|yes)/i;

/** Fills what the page shows: a login form (password by label), else a consent button; undefined: neither. */
async function fillStep(
  page: Page,
  account: { username: string; password: string },
): Promise<'login' | 'consent' | undefined> {
  await page
    .locator('input:not([type=hidden]), button')
    .first()
    .waitFor({ timeout: 3_000 })
    .catch(() => undefined);
  const password = page.getByLabel(PASSWORD);
  if ((await password.count()) === 1) {
    const username = page.getByLabel(USERNAME);
    if ((await username.count()) >= 1) await username.first().fill(account.username);
    await password.fill(account.password);
    await page.getByRole('button', { name: SIGN_IN }).first().click();
    return 'login';
  }
  const consent = page.getByRole('button', { name: CONSENT });
  if ((await consent.count()) >= 1) {
    await consent.first().click();
    return 'consent';
  }
  return undefined;
}

type Outcome = { code: string } | { error: string };

const codeOf = (outcome: Outcome): string => {
  if ('error' in outcome) throw new Error(`Authorization failed: ${outcome.error}`);
  return outcome.code;
};

/** Runs one sign-in in a new context of `browser`; returns the authorization code. */
async function signIn(
  browser: Browser,
  request: AuthorizationRequest,
  account: SignInAccount,
  options: BrowserSignInOptions,
): Promise<string> {
  const context = await browser.newContext();
  try {
    let outcome: Outcome | undefined;
    let settle: (result: Outcome) => void = () => undefined;
    const redirected = new Promise<Outcome>((resolve) => {
      settle = resolve;
    });
    const observe = (address: string) => {
      outcome ??= codeFromRedirect(address, account.redirectUri, request.state);
      if (outcome) settle(outcome);
    };
    // Every request is watched (a redirect's target too, which routes do not see); one to the redirect URI
    // is answered here, so the redirect URI need not be served.
    context.on('request', (sent) => observe(sent.url()));
    await context.route(
      (url) => codeFromRedirect(url.toString(), account.redirectUri, request.state) !== undefined,
      (route) => {
        observe(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/html', body: SIGNED_IN_PAGE });
      },
    );
    const page = await context.newPage();
    const stepTimeout = options.stepTimeoutMs ?? 15_000;
    page.setDefaultTimeout(stepTimeout);
    await Promise.race([page.goto(request.url).catch(() => undefined), redirected]);
    let reason = options.headed ? 'a person signs in (--headed)' : '';
    for (let step = 0; step < MAX_STEPS && !reason; step++) {
      if (outcome) return codeOf(outcome);
      const loaded = page.waitForEvent('load', { timeout: stepTimeout });
      loaded.catch(() => undefined);
      const filled = await fillStep(page, account);
      if (!filled) {
        const { origin, pathname } = new URL(page.url());
        reason = `the page at ${origin}${pathname} shows no login or consent form the sign-in can fill (MFA, a captcha?)`;
        break;
      }
      await Promise.race([loaded, redirected]).catch(() => undefined);
      if (outcome) return codeOf(outcome);
      const alert = page.getByRole('alert');
      if (filled === 'login' && (await alert.count().catch(() => 0)) > 0)
        throw new Error(`Sign-in refused: ${((await alert.first().textContent()) ?? '').trim()}`);
    }
    if (!reason) reason = `no redirect to the redirect URI after ${MAX_STEPS} steps`;
    if (!options.onManual) throw new Error(`Authorization did not complete: ${reason}`);
    const manual = options
      .onManual(request.url, reason)
      .then((address) => codeFromRedirect(address, account.redirectUri, request.state))
      .then((result) => result ?? { error: 'the URL given is not the redirect URI' });
    return codeOf(await Promise.race([redirected, manual]));
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** One browser per process, launched when first needed, signing users in (a CodeSource). */
export class BrowserSignIn {
  #browser: Promise<Browser> | undefined;

  constructor(private readonly options: BrowserSignInOptions & { executablePath?: string } = {}) {}

  private browser(): Promise<Browser> {
    const executablePath = this.options.executablePath ?? chromiumPath();
    if (!executablePath)
      return Promise.reject(
        new Error(
          'signing in on a page built by script needs Chromium: apt-get install chromium (or CONFORMANCE_CHROMIUM=<path>), or run `npm run login` where one is and give its token store (CONFORMANCE_TOKEN_STORE)',
        ),
      );
    if (!this.#browser) {
      const headed = this.options.headed === true;
      this.#browser = chromium.launch({
        executablePath,
        headless: !headed,
        args: headed ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, '--headless'],
      });
      this.#browser.catch(() => {
        this.#browser = undefined;
      });
    }
    return this.#browser;
  }

  readonly codeSource: CodeSource = async (request, account) =>
    signIn(await this.browser(), request, account, this.options);

  async close(): Promise<void> {
    const browser = this.#browser;
    this.#browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }
}
