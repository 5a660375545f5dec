// Signs a user in through a real browser (Chromium driven by Playwright), like a person would: it opens the
// authorization URL and, page after page, reads the rendered DOM of each of its frames (src/auth/html-form.ts;
// a consent form may be in an <iframe>) and does what src/auth/sign-in-step.ts decides in the first frame
// that offers a way on: fills the credential fields it finds by type, autocomplete and label and
// presses Enter in the password field (or the affirmative button when the default one refuses), presses the
// affirmative control of a consent page, never a refusal; it catches the redirect to the redirect URI
// (intercepted in the browser: nothing needs to listen there). The server's answers are watched and judged
// as the form filler's are (src/auth/browser-watch.ts, sign-in-answers.ts). A page it cannot fill (a
// captcha, a second factor), or --headed, is left to a person when `onManual` is given; otherwise it throws
// what it saw, with a screenshot under the reports directory.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Frame,
  type Page,
  type Request,
} from '@playwright/test';
import { chromiumPath, chromiumSetting } from '../config/chromium.ts';
import { trustedSpkiHashes } from '../http/certificate.ts';
import type { Exchange } from '../http/exchange.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { messageOf } from '../text/error-message.ts';
import {
  type AuthorizationCode,
  type AuthorizationError,
  type AuthorizationRequest,
  type CodeSource,
  codeFromRedirect,
  type SignInAccount,
} from './authorization-request.ts';
import { PageWatch, requestExchange, requestKey } from './browser-watch.ts';
import { CONTROL_SELECTOR, type HtmlPage, parsePage } from './html-form.ts';
import { describePage } from './page-description.ts';
import { pageAnswer, redirectAnswer, serverError } from './sign-in-answers.ts';
import {
  BrowserCrashed,
  BrowserSignInStuck,
  BrowserUnavailable,
  CertificateUntrusted,
  type ConfiguredUser,
  CredentialsRefused,
} from './sign-in-errors.ts';
import { memoryJournal, type SignInJournal } from './sign-in-journal.ts';
import { type SignInStep, signInStep } from './sign-in-step.ts';

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

/** A safety bound only: real flows (login, a second step, consent) take far fewer pages. */
const MAX_STEPS = 20;
/** How long a page built by script may take to show its first control. */
const RENDER_TIMEOUT_MS = 3_000;
const SIGNED_IN_PAGE = '<!doctype html><title>Signed in</title><p>Signed in. You may close this window.</p>';

type Outcome = AuthorizationCode | AuthorizationError;

const hasPasswordField = (page: HtmlPage): boolean =>
  page.forms.some((form) => form.controls.some((control) => control.type === 'password'));

/** A frame of the page, its rendered DOM read as the form filler reads a served page, and its step. */
interface Shown {
  frame: Frame;
  shown: HtmlPage;
  next: SignInStep;
}

/** The page's frames, the main frame first. */
const framesOf = (page: Page): Frame[] => [
  page.mainFrame(),
  ...page.frames().filter((frame) => frame !== page.mainFrame()),
];

/**
 * The page's rendered DOM, frame by frame: the first frame (the main frame first) whose step goes on (a form
 * to fill, a control to press, or a field only a person can fill), else the main frame.
 */
async function rendered(page: Page): Promise<Shown> {
  const frames = framesOf(page);
  // Only a page that runs scripts may still build its controls (an error page is read at once).
  const scripted = await Promise.all(
    frames.map((frame) => frame.evaluate(() => document.scripts.length > 0).catch(() => true)),
  );
  if (scripted.some(Boolean))
    await Promise.any(
      frames.map((frame) =>
        frame.locator('input:not([type=hidden]), button').first().waitFor({ timeout: RENDER_TIMEOUT_MS }),
      ),
    ).catch(() => undefined);
  const read = async (frame: Frame): Promise<Shown> => {
    const shown = parsePage(await frame.content(), frame.url());
    return { frame, shown, next: signInStep(shown) };
  };
  const [main = page.mainFrame(), ...children] = frames;
  const inMain = await read(main);
  // A child frame may go (its parent navigated) while it is read: then it offers nothing.
  const inChildren = await Promise.all(children.map((frame) => read(frame).catch(() => undefined)));
  return (
    [inMain, ...inChildren].find((one) => one && one.next.kind !== 'stuck' && one.next.kind !== 'scripted') ??
    inMain
  );
}

/** The frame's control of rank `index` (html-form.ts counts them by the same selector, in the same order). */
async function control(page: Frame, index: number) {
  const handle = await page.evaluateHandle(
    ([selector, rank]) => document.querySelectorAll(selector)[rank] ?? null,
    [CONTROL_SELECTOR, index] as const,
  );
  const element = handle.asElement();
  if (!element) throw new Error(`the page changed under the sign-in (control ${index} is gone)`);
  return element;
}

/** Does a step in a frame of the page: fills and submits a login, or presses a control. */
async function act(
  page: Frame,
  step: Extract<SignInStep, { kind: 'login' | 'press' }>,
  account: SignInAccount,
) {
  if (step.kind === 'press') return (await control(page, step.control.index)).click();
  const username = step.username && (await control(page, step.username.index));
  if (username) await username.fill(account.username);
  const password = step.password && (await control(page, step.password.index));
  if (password) await password.fill(account.password);
  // As a person does: Enter in the last field filled submits with the form's default button.
  const last = password ?? username;
  if (last && (step.byEnter || !step.submit)) return last.press('Enter');
  if (!step.submit) throw new Error('a login step with no field and no button');
  return (await control(page, step.submit.index)).click();
}

/** A screenshot of the page under the reports directory; undefined when it cannot be taken. */
async function screenshot(page: Page): Promise<string | undefined> {
  const path = reportPath(`sign-in/${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  mkdirSync(dirname(path), { recursive: true });
  return page.screenshot({ path, fullPage: true }).then(
    () => path,
    () => undefined,
  );
}

/** The redirect to the redirect URI as one sign-in's requests show it: its outcome, and the request that reached it. */
class RedirectCatch {
  outcome: Outcome | undefined;
  /** The request that reached the redirect URI (or the one redirected there), for an error's evidence. */
  arrival: Exchange | undefined;
  /** Settles with the outcome, once a request reached the redirect URI. */
  readonly reached: Promise<Outcome>;
  #settle: (outcome: Outcome) => void = () => undefined;

  constructor(
    private readonly account: SignInAccount,
    private readonly request: AuthorizationRequest,
  ) {
    this.reached = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  /** What a URL of the redirect URI carries (a code or an error); undefined for any other URL. */
  outcomeOf(url: string): Outcome | undefined {
    return codeFromRedirect(url, this.account.redirectUri, this.request.state);
  }

  observe(sent: Request): void {
    if (this.outcome) return;
    this.outcome = this.outcomeOf(sent.url());
    if (!this.outcome) return;
    const from = sent.redirectedFrom();
    this.arrival = from ? requestExchange(from, 302) : requestExchange(sent, 0);
    this.#settle(this.outcome);
  }
}

type Action = Extract<SignInStep, { kind: 'login' | 'press' }>;

/** One sign-in in a browser context: its page, what it watches, and its steps, page after page. */
class SignInSteps {
  /** The navigations of the steps so far, to tell a loop of the sign-in's own. */
  readonly #seen = new Set<string>();
  #passwordSent = false;
  /** Whether the last action brought a new page, the redirect or an alert before the step's timeout. */
  #changed = true;

  private constructor(
    private readonly page: Page,
    private readonly watch: PageWatch,
    readonly redirect: RedirectCatch,
    /** The page's navigations since the last step, by key. */
    private readonly navigations: Promise<string>[],
    private readonly stepTimeout: number,
  ) {}

  /**
   * Opens the authorization URL in `context`. Every request is watched (a redirect's target too, which routes
   * do not see); one to the redirect URI is answered here, so the redirect URI need not be served.
   */
  static async open(
    context: BrowserContext,
    request: AuthorizationRequest,
    account: SignInAccount,
    options: BrowserSignInOptions,
  ): Promise<SignInSteps> {
    const redirect = new RedirectCatch(account, request);
    const page = await context.newPage();
    const watch = new PageWatch(context, page);
    const navigations: Promise<string>[] = [];
    context.on('request', (sent) => {
      redirect.observe(sent);
      if (sent.isNavigationRequest() && sent.frame().page() === page) navigations.push(requestKey(sent));
    });
    await context.route(
      (url) => redirect.outcomeOf(url.toString()) !== undefined,
      (route) => {
        redirect.observe(route.request());
        return route.fulfill({ status: 200, contentType: 'text/html', body: SIGNED_IN_PAGE });
      },
    );
    const stepTimeout = options.stepTimeoutMs ?? 15_000;
    page.setDefaultTimeout(stepTimeout);
    await Promise.race([page.goto(request.url).catch(() => undefined), redirect.reached, watch.failed]);
    return new SignInSteps(page, watch, redirect, navigations, stepTimeout);
  }

  /** The code the redirect carried, its answer judged; an authorization error it names is thrown. */
  codeOf(reached: Outcome, user: ConfiguredUser, journal: SignInJournal): AuthorizationCode {
    if (this.redirect.arrival) redirectAnswer(this.redirect.arrival, reached, { user, journal });
    if ('error' in reached) throw new Error(`Authorization failed: ${reached.error}`);
    journal.signedIn(this.watch.steps(), user);
    return reached;
  }

  /**
   * Page after page until the redirect: its outcome, or why a person must go on (only with `onManual`; else
   * what stops the sign-in is thrown).
   */
  async run(
    account: SignInAccount,
    journal: SignInJournal,
    { onManual }: BrowserSignInOptions,
  ): Promise<{ outcome: Outcome } | { person: string }> {
    const user = account.user ?? 'A';
    for (let step = 0; ; step++) {
      const read = await this.read();
      if ('outcome' in read) return read;
      const { frame, shown, next } = read;
      if (next.kind === 'person' && onManual)
        return { person: `${next.reason}; the page: ${describePage(shown)}` };
      const answer = this.watch.lastDocument(frame.url());
      const shot = next.kind === 'person' ? await screenshot(this.page) : undefined;
      pageAnswer(answer, next, {
        user,
        journal,
        page: () => `${describePage(shown, answer?.status)}${shot ? `; screenshot ${shot}` : ''}`,
      });
      await this.refuseDeadEnds(shown, step, user);
      if (next.kind === 'scripted' || next.kind === 'stuck') {
        const reason = next.kind === 'stuck' ? next.reason : 'the page shows no control';
        if (!onManual) throw await this.stuck(reason, shown);
        return { person: `${reason}; the page: ${describePage(shown)}` };
      }
      await this.take(frame, next, account);
    }
  }

  /** The page as it shows now, or the redirect's outcome once it came; what the watch saw fail is thrown. */
  private async read(): Promise<Shown | { outcome: Outcome }> {
    if (this.redirect.outcome) return { outcome: this.redirect.outcome };
    if (this.watch.failure) throw this.watch.failure;
    // A server error needs no reading of its page, in whichever frame it shows.
    for (const frame of framesOf(this.page)) serverError(this.watch.lastDocument(frame.url()));
    const shown = await rendered(this.page);
    if (this.redirect.outcome) return { outcome: this.redirect.outcome };
    if (this.watch.failure) throw this.watch.failure;
    return shown;
  }

  /** Throws where the sign-in cannot go on: its login refused, a loop of its own, too many pages. */
  private async refuseDeadEnds(shown: HtmlPage, step: number, user: ConfiguredUser): Promise<void> {
    if (this.#passwordSent && hasPasswordField(shown)) {
      if (!this.#changed && shown.alerts.length === 0)
        throw await this.stuck('submitting the login form changed nothing (no new page, no message)', shown);
      throw new CredentialsRefused(user, `(${describePage(shown)})`);
    }
    // A loop of the automation's own: a navigation of this step sent before, the same.
    const keys = await Promise.all(this.navigations.splice(0));
    const repeated = keys.find((key) => this.#seen.has(key));
    if (repeated)
      throw await this.stuck(`${repeated.split(' ', 2).join(' ')} was sent again, the same: a loop`, shown);
    for (const key of keys) this.#seen.add(key);
    if (step >= MAX_STEPS)
      throw await this.stuck(`no redirect to the redirect URI after ${MAX_STEPS} pages`, shown);
  }

  private async stuck(reason: string, shown: HtmlPage): Promise<BrowserSignInStuck> {
    return new BrowserSignInStuck(reason, describePage(shown), await screenshot(this.page));
  }

  /** Does the step, and waits for what it brings: a new page (in its frame), the redirect, or an alert. */
  private async take(frame: Frame, next: Action, account: SignInAccount): Promise<void> {
    const { page, stepTimeout } = this;
    const loaded = page.waitForEvent('load', { timeout: stepTimeout });
    loaded.catch(() => undefined);
    // A form in a frame posts there: the frame's new document is the step's answer.
    const framed =
      frame === page.mainFrame()
        ? new Promise<never>(() => undefined)
        : page
            .waitForEvent('framenavigated', {
              predicate: (navigated) => navigated === frame,
              timeout: stepTimeout,
            })
            .then(() => frame.waitForLoadState('load'));
    framed.catch(() => undefined);
    await act(frame, next, account);
    this.#passwordSent = next.kind === 'login' && next.password !== undefined;
    // A login refused without a new page shows an alert instead.
    const alerted = this.#passwordSent
      ? frame.getByRole('alert').first().waitFor({ timeout: stepTimeout })
      : new Promise<never>(() => undefined);
    this.#changed = await Promise.race([
      loaded,
      framed,
      this.redirect.reached,
      alerted,
      this.watch.failed,
    ]).then(
      () => true,
      () => false,
    );
  }
}

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
