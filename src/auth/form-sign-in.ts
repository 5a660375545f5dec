// Signs a user in over plain HTTP, for authorization pages that serve their forms as HTML: it follows
// redirects, keeps cookies, and on each page does what src/auth/sign-in-step.ts decides (fill the login form,
// press the affirmative control) until the redirect to the redirect URI. A loop shows as a submission sent
// again the same (method, URL, body, cookies); a hard cap bounds the rest. Answers are judged as they come
// (src/auth/sign-in-answers.ts). A page that offers only a frame of its own origin is read through it, with
// the session's cookies; a page whose form a script builds throws PageBuiltByScript, and the sign-in by the
// page's kind (src/auth/sign-in-method.ts) hands it to a browser.
import type { ApiClient } from '../http/api-client.ts';
import { type Exchange, exchangeLine } from '../http/exchange.ts';
import { type FormEntry, formBody } from '../http/form-body.ts';
import { redactText } from '../http/redact.ts';
import { type CodeSource, codeFromRedirect, type SignInAccount } from './authorization-request.ts';
import { CookieJar } from './cookie-jar.ts';
import type { FormSubmission } from './form-data.ts';
import { type HtmlPage, parsePage } from './html-form.ts';
import { describePage } from './page-description.ts';
import { type PageContext, pageAnswer, redirectAnswer, serverLoop } from './sign-in-answers.ts';
import { CredentialsRefused, PageBuiltByScript, SignInAutomationError } from './sign-in-errors.ts';
import { memoryJournal } from './sign-in-journal.ts';
import { type SignInStep, signInStep, submission } from './sign-in-step.ts';

/** A safety bound only: real flows (login, a second step, consent, their redirects) take far fewer. */
const MAX_REQUESTS = 20;

const hasPasswordField = (page: HtmlPage): boolean =>
  page.forms.some((form) => form.controls.some((control) => control.type === 'password'));

/** The page's first frame of its own origin (a third party's frame, a captcha widget say, is not followed). */
const ownFrame = (page: HtmlPage): string | undefined =>
  page.frames.find((frame) => new URL(frame).origin === new URL(page.url).origin);

/** The last page of the chain, described, for an error that stops the sign-in on it. */
const lastPageDescribed = (chain: readonly Exchange[]): string => {
  const page = chain.at(-1);
  return page ? describePage(parsePage(page.text, page.request.url), page.status) : '';
};

/** Sends the sign-in's requests with the session's cookies, refusing one sent again the same and one past the cap. */
function signInSender(api: ApiClient) {
  const jar = new CookieJar();
  const sent = new Set<string>();
  /** The requests of the redirect chain under way (since the last form submitted): the server's own. */
  let redirects: string[] = [];
  const chain: Exchange[] = [];
  const send = async (
    method: 'GET' | 'POST',
    url: string,
    why: 'redirect' | 'form' | 'frame',
    form?: readonly FormEntry[],
  ) => {
    const cookie = jar.header(url);
    // The whole request: every pair of the body (a GET's are in its URL), and the cookies.
    const key = `${method} ${url} ${form ? formBody(form) : ''} ${cookie ?? ''}`;
    if (why === 'redirect') serverLoop(redirects, key, chain);
    if (sent.has(key))
      throw new SignInAutomationError(
        `it would send ${method} ${redactText(url)} again, the same: the sign-in goes round in a loop (requests: ${chain.map(exchangeLine).join(' | ')})`,
        lastPageDescribed(chain),
      );
    if (chain.length >= MAX_REQUESTS)
      throw new SignInAutomationError(
        `no redirect to the redirect URI after ${MAX_REQUESTS} requests (${chain.map(exchangeLine).join(' | ')})`,
        lastPageDescribed(chain),
      );
    sent.add(key);
    redirects = why === 'redirect' ? [...redirects, key] : [];
    const headers = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
    const exchange = await api.send({ method, path: url, form, headers, signIn: true });
    jar.store(url, exchange.headers['set-cookie']);
    chain.push(exchange);
    return exchange;
  };
  return { send, chain };
}

/**
 * On a page (not a redirect), the request that carries the sign-in on: a frame of the page's own origin, or its
 * step's form submitted, with whether that sends the password; or a throw saying why it cannot go on.
 */
function requestFromPage(
  exchange: Exchange,
  account: SignInAccount,
  { user, journal }: Pick<PageContext, 'user' | 'journal'>,
  passwordSent: boolean,
): FormSubmission & { why: 'form' | 'frame'; passwordSent: boolean } {
  const page = parsePage(exchange.text, exchange.request.url);
  const described = () => describePage(page, exchange.status);
  const step: SignInStep = signInStep(page);
  pageAnswer(exchange, step, { user, journal, page: described });
  if (passwordSent && hasPasswordField(page)) throw new CredentialsRefused(user, `(${described()})`);
  const frame = step.kind === 'scripted' || step.kind === 'stuck' ? ownFrame(page) : undefined;
  if (frame) return { method: 'GET', url: frame, why: 'frame', passwordSent };
  if (step.kind === 'scripted') throw new PageBuiltByScript(described());
  if (step.kind === 'stuck')
    throw new SignInAutomationError(
      page.frames.length > 0
        ? `${step.reason}, and its frames are of another origin, which the form filler does not follow`
        : step.reason,
      described(),
    );
  const form = step.form;
  // A control outside forms works by script: only a browser can press it.
  if (!form) throw new PageBuiltByScript(described());
  const submitted = submission({ ...step, form }, account);
  return { ...submitted, why: 'form', passwordSent: step.kind === 'login' && step.password !== undefined };
}

/** The HTTP form filler as a sign-in, its requests sent (and recorded) through `api`. */
export const formSignIn =
  (api: ApiClient): CodeSource =>
  async (request, account, journal = memoryJournal()) => {
    const user = account.user ?? 'A';
    const { send, chain } = signInSender(api);
    let exchange = await send('GET', request.url, 'redirect');
    let passwordSent = false;
    for (;;) {
      const location = exchange.headers.location;
      if (location && exchange.status >= 300 && exchange.status < 400) {
        const target = new URL(location, exchange.request.url).toString();
        const outcome = codeFromRedirect(target, account.redirectUri, request.state);
        redirectAnswer(exchange, outcome, { user, journal });
        if (outcome && 'code' in outcome) {
          journal.signedIn(chain, user);
          return outcome;
        }
        exchange = await send('GET', target, 'redirect');
        continue;
      }
      const next = requestFromPage(exchange, account, { user, journal }, passwordSent);
      passwordSent = next.passwordSent;
      exchange = await send(next.method, next.url, next.why, next.body);
    }
  };
