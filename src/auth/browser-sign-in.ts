// Signs a user in through a real browser (Chromium driven by Playwright), like a person would: one browser
// per process, a context per sign-in, page after page (src/auth/browser-sign-in-steps.ts: each page's frames
// read and acted on as src/auth/browser-page.ts does, its answers judged as the form filler's are) until the
// redirect to the redirect URI, caught in the browser. A page it cannot fill (a captcha, a second factor), or
// --headed, is left to a person when `onManual` is given; otherwise it throws what it saw, with a screenshot.
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumPath, chromiumSetting } from '../config/chromium.ts';
import { trustedSpkiHashes } from '../http/certificate.ts';
import { messageOf } from '../text/error-message.ts';
import type {
  AuthorizationCode,
  AuthorizationRequest,
  CodeSource,
  SignInAccount,
} from './authorization-request.ts';
import { type BrowserSignInOptions, SignInSteps } from './browser-sign-in-steps.ts';
import { BrowserCrashed, BrowserUnavailable, CertificateUntrusted } from './sign-in-errors.ts';
import { memoryJournal, type SignInJournal } from './sign-in-journal.ts';

export type { BrowserSignInOptions } from './browser-sign-in-steps.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Runs one sign-in in a new context of `browser`; returns the authorization code. */
async function signIn(
  browser: Browser,
  request: AuthorizationRequest,
  account: SignInAccount,
  journal: SignInJournal,
  options: BrowserSignInOptions,
): Promise<AuthorizationCode> {
  const user = account.user ?? 'A';
  const context = await browser.newContext();
  // The sign-in's page is the context's first (a popup it opens comes later); whether a page crashed.
  const seen: { signInPage?: Page; crashed?: boolean } = {};
  context.on('page', (page) => {
    seen.signInPage ??= page;
    page.on('crash', () => (seen.crashed = true));
  });
  try {
    const steps = await SignInSteps.open(context, request, account, options);
    const ended = options.headed
      ? { person: 'a person signs in (--headed)' }
      : await steps.run(account, journal, options);
    if ('outcome' in ended) return steps.codeOf(ended.outcome, user, journal);
    if (!options.onManual) throw new Error(`Authorization did not complete: ${ended.person}`);
    const manual = options
      .onManual(request.url, ended.person)
      .then((address) => steps.redirect.outcomeOf(address))
      .then((result) => result ?? { error: 'the URL given is not the redirect URI' });
    return steps.codeOf(await Promise.race([steps.redirect.reached, manual]), user, journal);
  } catch (error) {
    // Playwright's errors of a crash have no class of their own: the browser's state tells one, once a round
    // trip to it has brought every event sent before the error (a page's crash or close, the context's).
    const answers = await context.cookies().then(
      () => true,
      () => false,
    );
    if (seen.crashed) throw new BrowserCrashed('its page crashed');
    if (!answers || seen.signInPage?.isClosed())
      throw new BrowserCrashed(`it closed (${messageOf(error).split('\n')[0]})`);
    throw error;
  } finally {
    await context.close().catch(() => undefined);
  }
}

/**
 * One browser per process, launched when first needed, signing users in (a CodeSource). It trusts what the
 * run's Node trusts (its CA store and NODE_EXTRA_CA_CERTS): the certificates Node verified for the sign-in's
 * hosts, by their SPKI hashes (Chromium's --ignore-certificate-errors-spki-list), so a private CA needs no
 * other setting.
 */
export class BrowserSignIn {
  #browser: Promise<Browser> | undefined;
  /** The origins whose certificates Node has checked, and the SPKI hashes of those it trusts. */
  readonly #checked = new Set<string>();
  readonly #trusted = new Set<string>();

  constructor(private readonly options: BrowserSignInOptions & { executablePath?: string } = {}) {}

  private browser(): Promise<Browser> {
    const executablePath = this.options.executablePath ?? chromiumPath();
    if (!executablePath)
      return Promise.reject(new BrowserUnavailable(`there is none at ${chromiumSetting()}`));
    if (!this.#browser) {
      const headed = this.options.headed === true;
      const trusted =
        this.#trusted.size > 0
          ? [`--ignore-certificate-errors-spki-list=${[...this.#trusted].join(',')}`]
          : [];
      this.#browser = chromium
        .launch({
          executablePath,
          headless: !headed,
          args: [...CHROMIUM_ARGS, ...(headed ? [] : ['--headless']), ...trusted],
        })
        .catch((error: unknown) => {
          throw new BrowserUnavailable(
            `${executablePath} would not start (${messageOf(error).split('\n')[0]})`,
          );
        });
      this.#browser.catch(() => {
        this.#browser = undefined;
      });
    }
    return this.#browser;
  }

  /** Has Node check the certificate of `url`'s host once: whether it trusts hashes the browser did not. */
  private async trust(url: string): Promise<boolean> {
    const { origin, protocol } = new URL(url);
    if (protocol !== 'https:' || this.#checked.has(origin)) return false;
    this.#checked.add(origin);
    const added = (await trustedSpkiHashes(url)).filter((hash) => !this.#trusted.has(hash));
    for (const hash of added) this.#trusted.add(hash);
    return added.length > 0;
  }

  readonly codeSource: CodeSource = async (request, account, journal = memoryJournal()) => {
    // A browser launched before Node trusted this host is launched again, trusting it.
    if ((await this.trust(request.url)) && this.#browser) await this.close();
    try {
      return await signIn(await this.browser(), request, account, journal, this.options);
    } catch (error) {
      // A page on another host (an identity provider) whose certificate Node trusts: once more, trusting it.
      if (!(error instanceof CertificateUntrusted) || !(await this.trust(error.url))) throw error;
      await this.close();
      return signIn(await this.browser(), request, account, journal, this.options);
    }
  };

  async close(): Promise<void> {
    const browser = this.#browser;
    this.#browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }
}
