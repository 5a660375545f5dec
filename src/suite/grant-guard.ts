// A check's request whose bearer token the pool handed out, to an operation that needs a scope on which the
// token's grant and the check disagree (the grant lacks a scope the check asked for, or carries one the
// check asked without to see a refusal): not sent, and the check not verified, naming the grant
// (src/auth/granted-scope.ts). The server's answer could not have judged it either way.
import type { UserTokenPool } from '../auth/user-token-pool.ts';
import { operationUnder } from '../contract/match-operation.ts';
import type { Operation } from '../contract/operation-model.ts';
import type { RequestGuard } from '../http/api-client.ts';
import { notVerified } from './verdicts.ts';

/** The read scope an operation declares, if any. */
const scopeOf = (op: Operation | undefined): string | undefined =>
  op?.security.kind === 'user' ? (op.security.scope ?? undefined) : undefined;

/** The operation a request to `url` (under `baseUrl`) is, if any. */
function operationOf(method: string, url: URL, baseUrl: string): Operation | undefined {
  return url.origin === new URL(baseUrl).origin ? operationUnder(baseUrl, method, url.href) : undefined;
}

/** Why a token of `pool` cannot serve a check's request for `op`, if it cannot. */
export const grantMismatchOf =
  (pool: UserTokenPool) =>
  (token: string, op: Operation | undefined): string | undefined => {
    const scope = scopeOf(op);
    return scope && pool.grantMismatch(token, scope);
  };

/** The guard of a test's requests: `guard` (the profile's), then the grant's. */
export const withGrantGuard =
  (guard: RequestGuard, pool: UserTokenPool, baseUrl: string): RequestGuard =>
  (method, url, token) => {
    guard(method, url, token);
    const mismatch = token && grantMismatchOf(pool)(token, operationOf(method, url, baseUrl));
    if (mismatch) notVerified(mismatch);
  };
