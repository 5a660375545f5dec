// What the server says of a grant is checked against what its token does. A token whose stated grant lacks
// a read scope it was asked for (src/auth/granted-scope.ts) is tried once on that scope, as soon as a check
// holds it: one request of the scope's operation without path parameters, shared by the run's workers. A
// token the target refused there stops every check that needs the scope (not verified, naming the grant and
// the refusal), before its request is sent; a token the target served goes on as any other, and the scope
// matrix (tests/conformance/scopes.spec.ts) fails the statement it belied.

import { lackedScope, lackedScopes } from '../../auth/granted-scope.ts';
import type { UserToken } from '../../auth/user-oauth.ts';
import type { UserTokenPool } from '../../auth/user-token-pool.ts';
import { operationUnder } from '../../contract/match-operation.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient, RequestGuard } from '../../http/api-client.ts';
import { type Exchange, exchangeLine, succeeded } from '../../http/exchange.ts';
import type { RunMemo } from '../session/run-memo.ts';
import { exchangeCodec } from '../session/run-memo.ts';
import { chargeUnansweredTo, rethrowAsAsker } from '../session/unanswered.ts';
import { notVerified } from '../verdict/stops.ts';
import { requestFor, userDataOperations } from './user-catalogue.ts';

/** The read scope an operation declares, if any. */
const scopeOf = (op: Operation | undefined): string | undefined =>
  op?.security.kind === 'user' ? (op.security.scope ?? undefined) : undefined;

/** The operation a request to `url` (under `baseUrl`) is, if any. */
function operationOf(method: string, url: URL, baseUrl: string): Operation | undefined {
  return url.origin === new URL(baseUrl).origin ? operationUnder(baseUrl, method, url.href) : undefined;
}

/** The operation a scope is tried on: the one that declares it and takes no path parameter. */
export function triedOn(scope: string): Operation | undefined {
  return userDataOperations.find((op) => scopeOf(op) === scope && op.pathParams.length === 0);
}

/** The answer each token got on a scope its stated grant lacks, by token and scope (this worker's). */
const tried = new Map<string, Exchange>();
const key = (token: string, scope: string): string => `${token} ${scope}`;

/** The answer `token` got when tried on `scope`, if it was. */
export const triedAnswer = (token: string, scope: string): Exchange | undefined =>
  tried.get(key(token, scope));

/**
 * Tries `token` once on every read scope its stated grant lacks and it was asked for, through `api` (the
 * session's: recorded for the running test, and not held to the grant), once per run (the memo).
 */
export async function tryStatedGrant(
  token: UserToken,
  api: ApiClient,
  memo: Pick<RunMemo, 'remember'>,
): Promise<void> {
  for (const scope of lackedScopes(token)) {
    const op = triedOn(scope);
    const { accessToken } = token;
    if (!op || tried.has(key(accessToken, scope))) continue;
    // Left unanswered, it is its operation's failure, as a shared read's is (src/worker/session/unanswered.ts).
    const send = () =>
      api.send({ ...requestFor(op), token: accessToken }).catch(chargeUnansweredTo(successRequirement(op)));
    const answer = memo.remember(`grant tried ${accessToken} ${scope}`, send, exchangeCodec);
    tried.set(key(accessToken, scope), await answer.catch(rethrowAsAsker));
  }
}

/**
 * Why a token of `pool` cannot serve a check's request for `op`: its stated grant lacks the scope `op`
 * needs, and the target did not serve the token when it was tried on it (or it was never tried).
 */
export const grantMismatchOf =
  (pool: UserTokenPool) =>
  (token: string, op: Operation | undefined): string | undefined => {
    const scope = scopeOf(op);
    const issued = pool.grantOf(token);
    const lack = scope && issued && lackedScope(issued.token, issued.user, scope);
    if (!scope || !lack) return undefined;
    const answer = triedAnswer(token, scope);
    if (answer && succeeded(answer)) return undefined;
    return answer ? `${lack}, and the target did not serve the token: ${exchangeLine(answer)}` : lack;
  };

/** The guard of a test's requests: `guard` (the profile's), then the grant's. */
export const withGrantGuard =
  (guard: RequestGuard, pool: UserTokenPool, baseUrl: string): RequestGuard =>
  (method, url, token) => {
    guard(method, url, token);
    const mismatch = token && grantMismatchOf(pool)(token, operationOf(method, url, baseUrl));
    if (mismatch) notVerified(mismatch);
  };
