// The scope a user token carries, as its server states it: the token response's `scope` (RFC 6749 §5.1),
// else the scope the authorization redirect carried, else the scope asked for (§5.1: a response without
// `scope` was granted what was asked). The statement is evidence to check against what the token does
// (src/worker/user-data/grant-guard.ts): a grant stated narrower than asked is tried once on each scope it lacks, and a
// grant wider than asked (§3.3) leaves the scope matrix unable to see a refusal.
import { normaliseScopes } from '../config/scope-set.ts';
import { USER_SCOPES } from '../contract/operation-model.ts';
import type { UserOAuthClient, UserToken } from './user-oauth.ts';

/** A scope parameter's scopes: space-delimited (RFC 6749 §3.3); commas, which some servers use, too. */
export const scopeList = (scope: string): string[] => scope.split(/[\s,]+/).filter(Boolean);

/** The scopes the token carries, as stated. */
export const carriedScopes = (token: UserToken): string[] => scopeList(token.grantedScope ?? token.scopes);

const STATED_BY = { redirect: "the redirect's", 'stored grant': "the stored grant's" } as const;

/** What the grant was said to be, for a message. */
export const statedGrant = (token: UserToken): string =>
  token.grantedScope === undefined
    ? 'no scope stated, so the scope asked for'
    : `${token.scopeStatedBy ? STATED_BY[token.scopeStatedBy] : "the token response's"} scope "${token.grantedScope}"`;

/** The read scopes the token was asked for and its stated grant lacks. */
export function lackedScopes(token: UserToken): string[] {
  const carried = new Set(carriedScopes(token));
  return scopeList(token.scopes).filter((scope) => !carried.has(scope));
}

/** The read scopes the token's stated grant carries and it was not asked for: a grant wider than asked. */
export function extraScopes(token: UserToken): string[] {
  const asked = new Set(scopeList(token.scopes));
  return carriedScopes(token).filter(
    (scope) => (USER_SCOPES as readonly string[]).includes(scope) && !asked.has(scope),
  );
}

/** Why `token`'s stated grant cannot serve a request that needs `scope` it was asked for; else undefined. */
export function lackedScope(token: UserToken, user: string, scope: string): string | undefined {
  if (!lackedScopes(token).includes(scope)) return undefined;
  return `the grant for user ${user} lacks ${scope} (asked for "${token.scopes}"; ${statedGrant(token)})`;
}

/** A grant wider than asked, said for a warning; undefined when it is not. */
export function widerGrant(token: UserToken, user: string): string | undefined {
  const extra = extraScopes(token);
  if (extra.length === 0) return undefined;
  return `the grant for user ${user} is wider than asked: it carries ${extra.join(', ')}, which its token was asked without (asked for "${token.scopes}"; ${statedGrant(token)})`;
}

/** The scopes a sign-in asked for and was not granted, said for the run's first lines; undefined when none. */
export function narrowedGrant(token: UserToken, user: string): string | undefined {
  const lacking = lackedScopes(token);
  if (lacking.length === 0) return undefined;
  return `the grant for user ${user} lacks ${lacking.join(', ')}: the sign-in asked for "${token.scopes}" and got ${statedGrant(token)}; a check that needs ${lacking.length === 1 ? 'it' : 'one'} is not verified where the target refuses the token for it`;
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
