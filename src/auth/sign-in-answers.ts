// What an authorization server's answer to a sign-in step means, judged the same way by the HTTP form
// filler and the browser. The server's failures (AUTH-CODE-FLOW): a 5xx; a redirect chain that comes back to
// a request it already made (or runs past any real flow's length); an `error=` redirect, or one that drops
// the state; a 4xx from a step that worked earlier in the run with the same configuration. The run's side:
// a page that asks for what no configuration holds (a person), and, at a step that never worked, a 4xx or
// an `error=` naming the request's parameters, which a wrong configuration explains as well as the server.

import { curl, type Exchange, exchangeLine, headerField, STATUS } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';
import type { AuthorizationError } from './authorization-request.ts';
import {
  AuthorizationRequestRefused,
  type ConfiguredUser,
  PersonNeeded,
  SignInRefused,
  SignInServerFailure,
} from './sign-in-errors.ts';
import type { SignInJournal } from './sign-in-journal.ts';
import type { SignInStep } from './sign-in-step.ts';

/** Redirects in a row, no page between them, that no real flow reaches (browsers stop at 20). */
const MAX_REDIRECTS = 10;

/** The offending field of a redirect the server got wrong: its target. */
export const LOCATION = headerField('location');

/** `GET http://host/path` of an exchange, without its query. */
const stepOf = (exchange: Pick<Exchange, 'request'>): string => {
  const { origin, pathname } = new URL(exchange.request.url);
  return redactText(`${exchange.request.method} ${origin}${pathname}`);
};

/**
 * Before following a redirect: the chain of redirects under way (request keys since the last page) comes
 * back to `key`, or has grown past any real flow's: the server redirects in a loop.
 */
export function serverLoop(chain: readonly string[], key: string, exchanges: readonly Exchange[]): void {
  if (!chain.includes(key) && chain.length < MAX_REDIRECTS) return;
  const looped = exchanges.slice(-chain.length);
  const [first] = looped;
  if (!first) return;
  throw new SignInServerFailure(
    chain.includes(key)
      ? `the authorization server redirects in a loop: ${stepOf(first)} comes back after ${looped.length} redirect(s)`
      : `the authorization server redirects more than ${MAX_REDIRECTS} times in a row, from ${stepOf(first)}`,
    { exchange: first, fields: [LOCATION] },
    `redirects: ${looped.map(exchangeLine).join(' | ')}\n  reproduce: ${curl(first.request)}`,
  );
}

/**
 * The `error` codes of an authorization response that name the request's own parameters (RFC 6749
 * §4.1.2.1): the run's configuration (its client, redirect URI, scopes, PKCE) explains them as well as the
 * server does, until the same step has worked.
 */
const REQUEST_ERRORS = new Set(['invalid_request', 'invalid_scope', 'unauthorized_client']);

/**
 * A redirect to the redirect URI that carries an error, or not the client's state: the server's answer, but
 * for an error naming the request's parameters at a step that never worked in the run (both readings).
 */
export function redirectAnswer(
  exchange: Exchange,
  outcome: { code: string } | AuthorizationError | undefined,
  { user, journal }: Pick<PageContext, 'user' | 'journal'>,
): void {
  if (!outcome || !('error' in outcome)) return;
  const what = `${stepOf(exchange)} answered ${exchange.status}: the redirect to the redirect URI: ${outcome.error}`;
  if (REQUEST_ERRORS.has(outcome.errorCode ?? '') && !journal.workedBefore(exchange.request, user))
    throw new AuthorizationRequestRefused(redactText(what));
  throw new SignInServerFailure(what, { exchange, fields: [LOCATION] });
}

/** A 5xx, whatever the page says: the server failed the sign-in. */
export function serverError(exchange: Exchange | undefined): void {
  if (exchange && exchange.status >= 500)
    throw new SignInServerFailure(`${stepOf(exchange)} answered ${exchange.status}`, {
      exchange,
      fields: [STATUS],
    });
}

/** What the judge of a page needs besides the exchange. */
export interface PageContext {
  user: ConfiguredUser;
  journal: SignInJournal;
  /** The page, described (src/auth/page-description.ts). */
  page: () => string;
}

/**
 * A page a step answered, judged: a 5xx, a person asked for, a 4xx of a step that worked earlier, a 4xx at a
 * step that never did (when the page offers no way on) each throw what they mean; anything else goes on.
 */
export function pageAnswer(
  exchange: Exchange | undefined,
  step: SignInStep,
  { user, journal, page }: PageContext,
): asserts step is Exclude<SignInStep, { kind: 'person' }> {
  serverError(exchange);
  if (step.kind === 'person') throw new PersonNeeded(user, `${step.reason}. The page: ${page()}`);
  if (!exchange || exchange.status < 400) return;
  refusedAgain(exchange, user, journal);
  // A login page served with a 4xx (a refused password, say) still offers its way on.
  if (step.kind !== 'login' && step.kind !== 'press')
    throw new SignInRefused(`${stepOf(exchange)} answered ${exchange.status} (${page()})`);
}

/** A 4xx from a step that worked before with the same configuration (or the suite's own): the server's. */
export function refusedAgain(exchange: Exchange, user: ConfiguredUser, journal: SignInJournal): void {
  if (exchange.status < 400 || exchange.status >= 500) return;
  const why = journal.workedBefore(exchange.request, user);
  if (why)
    throw new SignInServerFailure(`${stepOf(exchange)} answered ${exchange.status}, ${why}`, {
      exchange,
      fields: [STATUS],
    });
}
