// User tokens from the token store's grants: each scope set's token comes from the user's refresh token
// (the refresh_token grant, narrowed to the scope set, RFC 6749 §6), and the rotated refresh token is written
// back under the store's lock, so two runs refreshing at once never lose the grant. A user without a live
// grant (never signed in, or revoked) is signed in again when the run can (a browser or the form filler).
import { USER_SCOPES } from '../contract/operation-model.ts';
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
    scopes: token.scopes,
    updatedAt: new Date().toISOString(),
  };
  recordAccessToken(data, key, token);
}

/**
 * A refreshed token that the target gave read scopes beyond those asked for would pass a scope check it
 * should fail: such a target needs a sign-in per scope set (a widened token is never used).
 */
function checkNarrowed(token: UserToken): void {
  if (token.grantedScope === undefined) return;
  const asked = new Set(token.scopes.split(' '));
  const extra = token.grantedScope
    .split(' ')
    .filter((scope) => (USER_SCOPES as readonly string[]).includes(scope) && !asked.has(scope));
  if (extra.length > 0)
    throw new Error(
      `the refresh for "${token.scopes}" was given ${extra.join(' ')} too: the target does not narrow a refresh to the scope asked for (RFC 6749 §6)`,
    );
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
    const token = await this.store.update(async (data) => {
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
          const token = await client.refresh(grant.refreshToken, scopes, options);
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
    checkNarrowed(token);
    return token;
  }
}
