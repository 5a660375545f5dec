// One browser sign-in, page after page: the authorization URL opened in a context whose every request is
// watched (src/auth/browser-watch.ts) and whose redirect to the redirect URI is caught and answered in the
// browser; each page read (src/auth/browser-page.ts) and judged (src/auth/sign-in-answers.ts), its step taken,
// until the redirect, a page only a person can go on from, or a dead end (a refused login, a loop).
import type { BrowserContext, Frame, Page, Request } from '@playwright/test';
import type { Exchange } from '../http/exchange.ts';
import {
  type AuthorizationCode,
  type AuthorizationError,
  type AuthorizationRequest,
  codeFromRedirect,
  type SignInAccount,
} from './authorization-request.ts';
import {
  type Action,
  act,
  framesOf,
  hasPasswordField,
  rendered,
  type Shown,
  screenshot,
} from './browser-page.ts';
import { PageWatch, requestExchange, requestKey } from './browser-watch.ts';
import type { HtmlPage } from './html-form.ts';
import { describePage } from './page-description.ts';
import { pageAnswer, redirectAnswer, serverError } from './sign-in-answers.ts';
import { BrowserSignInStuck, type ConfiguredUser, CredentialsRefused } from './sign-in-errors.ts';
import type { SignInJournal } from './sign-in-journal.ts';

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
const SIGNED_IN_PAGE = '<!doctype html><title>Signed in</title><p>Signed in. You may close this window.</p>';

export type Outcome = AuthorizationCode | AuthorizationError;

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

/** One sign-in in a browser context: its page, what it watches, and its steps, page after page. */
export class SignInSteps {
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
