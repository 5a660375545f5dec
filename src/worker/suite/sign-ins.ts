// The fixtures' sign-ins: how a sign-in went (the one classifier of its trouble, for the fixtures and the check
// of the code flow), the token it gives or what stops the check instead, and the token tried once on each
// read scope its stated grant lacks.
import { test } from '@playwright/test';
import { SignInServerFailure } from '../../auth/sign-in-errors.ts';
import type { UserToken } from '../../auth/user-oauth.ts';
import type { UserName } from '../../auth/user-token-pool.ts';
import { normaliseScopes } from '../../config/scope-set.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { signInRunError } from '../../protocol/run-errors.ts';
import { messageOf } from '../../text/error-message.ts';
import type { TargetSession } from '../session/target-session.ts';
import { rethrowAsAsker, UnansweredFailure } from '../session/unanswered.ts';
import { tryStatedGrant } from '../user-data/grant-guard.ts';
import { attempt } from '../verdict/attempt.ts';
import { blockedBy } from '../verdict/stops.ts';
import { stoppedByRunError } from './ending-recorder.ts';

/** A sign-in the server failed, as the check's failure of AUTH-CODE-FLOW (with the request). */
export const serverFailure = ({ what, evidence, basis }: SignInServerFailure): ConformanceFailure =>
  new ConformanceFailure('AUTH-CODE-FLOW', what, evidence, basis);

/** How a sign-in went, where it did not stop the check: its value, what the server failed, or other trouble. */
export type SignInOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; serverFailed: SignInServerFailure }
  | { ok: false; serverFailed?: undefined; reason: string };

/**
 * The one classifier of a sign-in's trouble, for the fixtures' sign-ins and the check of the code flow. It
 * stops the check itself where the trouble is not the sign-in's to judge: a request the authorization server
 * left unanswered (AUTH-CODE-FLOW's failure, src/worker/session/unanswered.ts), an answer a check judged (a second
 * 429 of the token endpoint), a request the run refused (not verified), a sign-in that failed on the run's
 * side (the run error: automation that lost its way, a refused password, a page for a person). What is
 * left: the server failed the sign-in (src/auth/sign-in-answers.ts), or any other trouble, with its reason.
 */
export async function signInOutcome<T>(signingIn: Promise<T>): Promise<SignInOutcome<T>> {
  const tried = await attempt(signingIn);
  if (tried.ok) return tried;
  const { error } = tried;
  if (error instanceof UnansweredFailure) rethrowAsAsker(error.chargedTo('AUTH-CODE-FLOW'));
  if (tried.failure || tried.stopped) throw error;
  if (error instanceof SignInServerFailure) return { ok: false, serverFailed: error };
  const signIn = signInRunError(error);
  if (signIn) stoppedByRunError(test.info(), signIn);
  return { ok: false, reason: messageOf(error) };
}

/**
 * The token a sign-in gives. A sign-in the server failed (src/auth/sign-in-answers.ts) fails AUTH-CODE-FLOW
 * where it is met, the check's own requirement then blocked by it; once the server failed the run's last two
 * sign-ins, a check that needs a new one is blocked by AUTH-CODE-FLOW without trying (src/auth/
 * sign-in-journal.ts). A sign-in that failed on the run's side stops the check with the run error; any other
 * trouble getting a token blocks it, naming `what` was asked for.
 */
export async function signedIn<Token>(token: Promise<Token>, what: string): Promise<Token> {
  const outcome = await signInOutcome(token);
  if (outcome.ok) return outcome.value;
  const { serverFailed } = outcome;
  if (serverFailed) throw serverFailure(serverFailed);
  return blockedBy('AUTH-CODE-FLOW', `${what}: ${outcome.reason}`);
}

/** The token, once tried on each read scope its stated grant lacks (src/worker/user-data/grant-guard.ts). */
export async function triedToken(token: Promise<UserToken>, session: TargetSession): Promise<UserToken> {
  const issued = await token;
  await tryStatedGrant(issued, session.api, session.memo);
  return issued;
}

export const tokenFor = (scopes: readonly string[], user: UserName) =>
  `no user ${user} token for "${normaliseScopes(scopes)}"`;
