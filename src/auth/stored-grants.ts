// User tokens from the token store's grants: each scope set's token comes from the user's refresh token
// (the refresh_token grant, narrowed to the scope set, RFC 6749 §6), and the rotated refresh token is written
// back under the store's lock, so two runs refreshing at once never lose the grant. A user without a live
// grant (never signed in, or revoked) is signed in again when the run can (a browser or the form filler).
// A refresh asks for no scope the grant lacks (a server refuses that: invalid_scope); the token still names
// the scope set the check asked for, so that a check needing what the grant lacks is not verified.
import { carriedScopes, scopeList } from './granted-scope.ts';
import { recordAccessToken, type TokenStore, type TokenStoreData, userKey } from './token-store.ts';
import {
  type AuthorizationOptions,
  TokenRequestError,
  type UserOAuthClient,
  type UserToken,
} from './user-oauth.ts';

/** Signs the user in for a new grant (every read scope and the offline scope). */
export type SignIn = () => Promise<UserToken>;

const NO_REFRESH_TOKEN =
  'the sign-in gave no refresh token: is the scope that asks for one (CONFORMANCE_OFFLINE_SCOPE) right?';

/** Keeps the grant of a sign-in (its refresh token) and the access token it came with. */
function keepGrant(data: TokenStoreData, key: string, token: UserToken): void {
  if (!token.refreshToken) throw new Error(NO_REFRESH_TOKEN);
  data.grants[key] = {
    refreshToken: token.refreshToken,
    scopes: carriedScopes(token).join(' '),
    updatedAt: new Date().toISOString(),
  };
  recordAccessToken(data, key, token);
}

/** The scope a refresh asks for: the scopes of `asked` the grant holds; none of them: the grant's whole scope. */
function refreshScope(asked: string, granted: string): string {
  const holds = new Set(scopeList(granted));
  const both = scopeList(asked).filter((scope) => holds.has(scope));
  return (both.length > 0 ? both : scopeList(granted)).join(' ');
}

export class StoredGrants {
  constructor(
    readonly store: TokenStore,
    private readonly authUrl: string,
  ) {}

  key(login: { clientId: string; username: string }): string {
    return userKey(this.authUrl, login.clientId, login.username);
  }

  /** Stores the grant of a sign-in (npm run login). */
  save(login: { clientId: string; username: string }, token: UserToken): Promise<void> {
    return this.store.update((data) => keepGrant(data, this.key(login), token));
  }

  /**
   * An access token for `scopes` from the user's grant. A dead grant (invalid_grant: revoked, expired or
   * spent) is dropped and, when `signIn` is given, replaced by a new sign-in once.
   */
  async token(
    client: UserOAuthClient,
    login: { clientId: string; username: string },
    scopes: string,
    options: AuthorizationOptions,
    signIn: SignIn | undefined,
  ): Promise<UserToken> {
    const key = this.key(login);
    return this.store.update(async (data) => {
      for (let attempt = 0; ; attempt++) {
        if (!data.grants[key]) {
          if (!signIn)
            throw new Error(
              `the token store ${this.store.path} holds no live grant for ${login.username}: run \`npm run login\``,
            );
          keepGrant(data, key, await signIn());
        }
        const grant = data.grants[key];
        if (!grant) throw new Error(NO_REFRESH_TOKEN);
        try {
          const narrowed = refreshScope(scopes, grant.scopes);
          const refreshed = await client.refresh(grant.refreshToken, narrowed, options);
          // The scope the check asked for; granted: what the refresh said, else what it asked for.
          const token: UserToken = {
            ...refreshed,
            scopes,
            ...(refreshed.grantedScope === undefined
              ? { grantedScope: narrowed, scopeStatedBy: 'stored grant' }
              : {}),
          };
          if (token.refreshToken)
            data.grants[key] = {
              ...grant,
              refreshToken: token.refreshToken,
              updatedAt: new Date().toISOString(),
            };
          recordAccessToken(data, key, token);
          return token;
        } catch (error) {
          if (!(error instanceof TokenRequestError) || error.error !== 'invalid_grant' || attempt > 0)
            throw error;
          delete data.grants[key];
        }
      }
    });
  }
}
