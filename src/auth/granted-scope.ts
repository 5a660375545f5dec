// The scope a user token carries: the token response's `scope` (RFC 6749 §5.1), else the scope the
// authorization redirect carried, else the scope asked for (§5.1: a response without `scope` was granted
// what was asked). A server may grant less (a user unticked a box) or more (§3.3): a check holding a token
// whose grant disagrees with it on the scope a request needs cannot judge the answer, and is not verified,
// naming the grant; never a failure of the server.
import { normaliseScopes } from '../config/scope-set.ts';
import { USER_SCOPES } from '../contract/operation-model.ts';
import type { UserOAuthClient, UserToken } from './user-oauth.ts';

/** A scope parameter's scopes: space-delimited (RFC 6749 §3.3); commas, which some servers use, too. */
export const scopeList = (scope: string): string[] => scope.split(/[\s,]+/).filter(Boolean);

/** The scopes the token carries. */
export const carriedScopes = (token: UserToken): string[] => scopeList(token.grantedScope ?? token.scopes);

const STATED_BY = { redirect: "the redirect's", 'stored grant': "the stored grant's" } as const;

/** What the grant was said to be, for a message. */
const stated = (token: UserToken): string =>
  token.grantedScope === undefined
    ? 'no scope stated, so the scope asked for'
    : `${token.scopeStatedBy ? STATED_BY[token.scopeStatedBy] : "the token response's"} scope "${token.grantedScope}"`;

/**
 * Why `token` cannot serve a check's request that needs `scope`: the check asked for it and the grant lacks
 * it, or the check asked without it (to see a refusal) and the grant carries it. Undefined when they agree.
 */
export function grantMismatch(token: UserToken, user: string, scope: string): string | undefined {
  const asked = scopeList(token.scopes).includes(scope);
  if (asked === carriedScopes(token).includes(scope)) return undefined;
  return asked
    ? `the grant for user ${user} lacks ${scope} (asked for "${token.scopes}"; ${stated(token)})`
    : `the grant for user ${user} carries ${scope}, which its token was asked without (asked for "${token.scopes}"; ${stated(token)}): a refusal for lacking it cannot be seen`;
}

/** The scopes a sign-in asked for and was not granted, said for the run's first lines; undefined when none. */
export function narrowedGrant(token: UserToken, user: string): string | undefined {
  const carried = new Set(carriedScopes(token));
  const lacking = scopeList(token.scopes).filter((scope) => !carried.has(scope));
  if (lacking.length === 0) return undefined;
  return `the grant for user ${user} lacks ${lacking.join(', ')}: the sign-in asked for "${token.scopes}" and got ${stated(token)}; the checks that need ${lacking.length === 1 ? 'it' : 'them'} will not be verified`;
}

/** Prints, when the grant of a sign-in lacks scopes it asked for, which (the run's first lines, npm run login). */
export function sayNarrowedGrant(token: UserToken, user: string): void {
  const narrowed = narrowedGrant(token, user);
  if (narrowed) console.log(`Sign-in: ${narrowed}`);
}

/** The preflight's sign-in of a user: every read scope asked for, and a grant that lacks some said so. */
export async function signInForEveryReadScope(client: UserOAuthClient, user: string): Promise<void> {
  sayNarrowedGrant(await client.authorize(normaliseScopes(USER_SCOPES)), user);
}
