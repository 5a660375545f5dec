// A worker's user tokens, one per scope set and user, cached for the run. Where they come from:
//   - pre-issued tokens (CONFORMANCE_USER_TOKENS), or Prism's stand-in;
//   - the token store (CONFORMANCE_TOKEN_STORE): the refresh_token grant per scope set, from the grant
//     `npm run login` stored; a dead grant is replaced by one sign-in;
//   - otherwise a sign-in per scope set, by the page's kind or CONFORMANCE_SIGN_IN (src/auth/sign-in-method.ts).
// Every token handed out is kept live (src/auth/token-lifetimes.ts): by its stated expiry it is renewed as a
// request goes out, by the grant's refresh token (the rotated one replacing it) or as it was first obtained.
// A cached token refused with a 401 during the run (not for a missing scope) is renewed once (`renew`).
// The pool knows the grant of every token it handed out (`grantOf`), which src/worker/user-data/grant-guard.ts checks
// against what the token does.

import { createHash } from 'node:crypto';
import { normaliseScopes } from '../config/scope-set.ts';
import type { SuiteConfig, UserLogin } from '../config/suite-config.ts';
import { USER_SCOPES } from '../contract/operation-model.ts';
import type { ApiClient } from '../http/api-client.ts';
import type { Exchange } from '../http/exchange.ts';
import { timed } from '../run-state/phase-log.ts';
import { BrowserSignIn } from './browser-sign-in.ts';
import { suppliedExpiredToken } from './expired-tokens.ts';
import { memoryJournal, type SignInJournal } from './sign-in-journal.ts';
import { codeSourceFor } from './sign-in-method.ts';
import { StoredGrants } from './stored-grants.ts';
import { runTokens, type TokenLifetimes } from './token-lifetimes.ts';
import { TokenStore } from './token-store.ts';
import {
  type AuthorizationOptions,
  TokenRequestError,
  UserOAuthClient,
  type UserToken,
} from './user-oauth.ts';

export type UserName = 'A' | 'B';

const PRISM_TOKEN = 'prism-mock-token';

/**
 * Where a token minted once serves the whole run: the run's memo (src/worker/session/run-memo.ts), so that the
 * workers of a run sign in once per scope set and user, not once each. Without one, each pool mints its own.
 */
export type RememberToken = (key: string, mint: () => Promise<UserToken>) => Promise<UserToken>;

/** What a cached token is for: whose, which scopes; `id` names it in the cache and the run's memo. */
interface PoolKey {
  user: UserName;
  scopes: readonly string[];
  id: string;
}

const poolKey = (user: UserName, scopes: readonly string[]): PoolKey => ({
  user,
  scopes,
  id: `${user}|${normaliseScopes(scopes)}`,
});

/** Names a token in a memo key without writing it there. */
const fingerprint = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 16);

export class UserTokenPool {
  private readonly cache = new Map<string, Promise<UserToken>>();
  /** The access token each settled cache entry holds, by its key's id (to know a token handed out for renewal). */
  private readonly handedOut = new Map<string, { key: PoolKey; token: string }>();
  /** Tokens renewed (refused with a 401), by the cache key whose current token replaces them. */
  private readonly replaced = new Map<string, PoolKey>();
  /** Every token handed out, by access token: whose it is, and what was asked and granted. */
  private readonly issued = new Map<string, { user: UserName; token: UserToken }>();
  /** The tokens the cache handed out (not minted for a caller alone), and those of grants the run revoked. */
  private readonly cachedTokens = new Set<string>();
  private readonly revokedTokens = new Set<string>();
  private readonly clients = new Map<UserName, UserOAuthClient>();
  private readonly grants: StoredGrants | undefined;
  /** Launched only when a sign-in needs it. */
  private readonly browser = new BrowserSignIn();
  private expired: Promise<string> | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly config: SuiteConfig,
    /** Whether a user without a live grant in the token store is signed in again (not by the doctor). */
    private readonly signInWithoutGrant = true,
    private readonly remember: RememberToken = (_key, mint) => mint(),
    /** What the run knows of its sign-ins (src/auth/sign-in-journal.ts): the run's, in its workers. */
    private readonly journal: SignInJournal = memoryJournal(),
    /** Where the tokens handed out are kept live (the process's, but in a test). */
    private readonly lifetimes: TokenLifetimes = runTokens,
  ) {
    const { tokenStore } = config.auth;
    const store =
      tokenStore &&
      new TokenStore(tokenStore, (waitMs) =>
        api.waitOfTheRun(waitMs, "another refresh holds the token store's lock"),
      );
    this.grants = store ? new StoredGrants(store, config.authUrl) : undefined;
  }

  private account(user: UserName): UserLogin | undefined {
    const login = this.config.userLogin;
    if (!login) return undefined;
    if (user === 'A') return login;
    return this.config.secondUser && { ...login, ...this.config.secondUser };
  }

  /** The OAuth client of a user; through another `api` (a test's, recorded), a new one. */
  oauthClient(user: UserName = 'A', api: ApiClient = this.api): UserOAuthClient | undefined {
    const account = this.account(user);
    if (!account) return undefined;
    const known = api === this.api ? this.clients.get(user) : undefined;
    if (known) return known;
    const { clientAuth, pkce, signIn } = this.config.auth;
    const client = new UserOAuthClient(api, this.config.authUrl, account, {
      clientAuth,
      pkce,
      user,
      codeSource: codeSourceFor(signIn, api, this.browser),
      journal: this.journal,
      now: this.lifetimes.now,
    });
    if (api === this.api) this.clients.set(user, client);
    return client;
  }

  /** `token`, its grant known to the pool once it is issued. */
  private known(user: UserName, token: Promise<UserToken>): Promise<UserToken> {
    token.then(
      (issued) => this.issued.set(issued.accessToken, { user, token: issued }),
      () => undefined,
    );
    return token;
  }

  /** `token`, known and kept live: once its renewal margin begins, `next` gives its successor. */
  private live(
    user: UserName,
    token: Promise<UserToken>,
    next: (old: UserToken) => Promise<UserToken>,
  ): Promise<UserToken> {
    this.known(user, token).then(
      (issued) =>
        this.lifetimes.keep(issued.accessToken, {
          obtainedAt: issued.obtainedAt ?? this.lifetimes.now(),
          expiresIn: issued.expiresIn,
          renew: async () => (await next(issued)).accessToken,
        }),
      () => undefined,
    );
    return token;
  }

  /**
   * A token in place of `old`, for its user, scope set and options: from the token store's grant; else by the
   * refresh token `old` came with, the one a rotating server returns replacing it (the old one is never sent
   * again); else, or once that grant is dead, by a new sign-in.
   */
  private async successor(old: UserToken, user: UserName, options: AuthorizationOptions): Promise<UserToken> {
    const scopes = old.scopes.split(' ');
    const client = this.oauthClient(user);
    const { refreshToken } = old;
    if (this.grants || !refreshToken || !client) return this.mint(scopes, user, options);
    try {
      const refreshed = await timed('login', () => client.refresh(refreshToken, old.scopes, options));
      return { ...refreshed, refreshToken: refreshed.refreshToken ?? refreshToken };
    } catch (error) {
      if (!(error instanceof TokenRequestError) || error.error !== 'invalid_grant') throw error;
      return this.mint(scopes, user, options);
    }
  }

  /** A token this pool handed out: whose it is, and what was asked and stated of its grant. */
  grantOf(accessToken: string): { user: UserName; token: UserToken } | undefined {
    return this.issued.get(accessToken);
  }

  private mint(scopes: readonly string[], user: UserName, options: AuthorizationOptions): Promise<UserToken> {
    const account = this.account(user);
    const client = this.oauthClient(user);
    if (!account || !client)
      return Promise.reject(
        new Error('A user token needs the user OAuth variables (CONFORMANCE_CLIENT_ID ...)'),
      );
    // A check that needs a new sign-in does not try one the run knows it cannot get (src/auth/sign-in-journal.ts).
    const authorize = (scopeSet: string, given: AuthorizationOptions) => {
      const stop = this.journal.stop(user);
      return stop ? Promise.reject(stop) : client.authorize(scopeSet, given);
    };
    const { grants } = this;
    if (!grants) return timed('login', () => authorize(normaliseScopes(scopes), options));
    const everything = normaliseScopes([...USER_SCOPES, this.config.auth.offlineScope]);
    const signIn = this.signInWithoutGrant ? () => authorize(everything, {}) : undefined;
    return timed('login', () => grants.token(client, account, normaliseScopes(scopes), options, signIn));
  }

  /** A cached token for a scope set; undefined when the target offers no way to get one. */
  cached(scopes: readonly string[], user: UserName = 'A'): Promise<UserToken> | undefined {
    // Prism checks only that a credential is present: any token stands for any scope set.
    if (this.config.target === 'prism')
      return Promise.resolve({ accessToken: PRISM_TOKEN, scopes: normaliseScopes(scopes) });
    const key = poolKey(user, scopes);
    const preIssued = user === 'A' ? this.config.userTokens?.[normaliseScopes(scopes)] : undefined;
    if (preIssued) return Promise.resolve({ accessToken: preIssued, scopes: normaliseScopes(scopes) });
    if (!this.account(user)) return undefined;
    const cached = this.cache.get(key.id);
    if (cached) return cached;
    // A renewal mints again: the run's token for the key is the one the target refused.
    const renewing = [...this.replaced.values()].some((replaced) => replaced.id === key.id);
    const mint = () => this.mint(scopes, user, {});
    return this.handOut(key, renewing ? mint() : this.remember(key.id, mint));
  }

  /**
   * Caches `token` as the key's, kept live: its successor, one for the whole run (the run's memo, keyed by the
   * token it replaces), becomes the key's token in turn.
   */
  private handOut(key: PoolKey, token: Promise<UserToken>): Promise<UserToken> {
    const { user } = key;
    const next = (old: UserToken) =>
      this.handOut(
        key,
        this.remember(`${key.id} after ${fingerprint(old.accessToken)}`, () => this.successor(old, user, {})),
      );
    const handed = this.live(user, token, next);
    handed.then(
      (issued) => {
        this.handedOut.set(key.id, { key, token: issued.accessToken });
        this.cachedTokens.add(issued.accessToken);
      },
      () => this.cache.delete(key.id),
    );
    this.cache.set(key.id, handed);
    return handed;
  }

  /**
   * A new token in place of a cached one the target refused with `exchange` (a 401), minted once per token:
   * a test still holding a replaced token gets its successor. Undefined when `token` is not one this pool
   * handed out, or the refusal was for a missing scope.
   */
  async renew(token: string, exchange: Exchange): Promise<string | undefined> {
    if (/insufficient_scope/i.test(exchange.headers['www-authenticate'] ?? '')) return undefined;
    const handed = [...this.handedOut.values()].find((current) => current.token === token)?.key;
    const key = handed ?? this.replaced.get(token);
    if (!key) return undefined;
    if (handed) {
      this.handedOut.delete(key.id);
      this.cache.delete(key.id);
      this.replaced.set(token, key);
    }
    const renewed = (await this.cached(key.scopes, key.user))?.accessToken;
    if (renewed === undefined || renewed === token) return undefined;
    this.lifetimes.replaced(token, renewed);
    return renewed;
  }

  /**
   * The run revoked the grant of `token`: its holders send the token the revocation went with from now on,
   * never renewed (a new sign-in would grant the access again). Resolves to that token.
   */
  async revoked(token: string): Promise<string> {
    const last = await this.lifetimes.end(token);
    this.revokedTokens.add(token).add(last);
    return last;
  }

  /**
   * The tokens of `user` for a scope set the cache handed out, of grants the run has not revoked: tokens of
   * the target's making that only their expiry can end (AUTH-EXPIRED-TOKEN holds one past it).
   */
  keptTokens(scopes: readonly string[], user: UserName = 'A'): UserToken[] {
    const scopeSet = normaliseScopes(scopes);
    return [...this.issued.values()]
      .filter((one) => one.user === user && one.token.scopes === scopeSet)
      .map((one) => one.token)
      .filter(
        ({ accessToken }) => this.cachedTokens.has(accessToken) && !this.revokedTokens.has(accessToken),
      );
  }

  /** A token of a grant minted for the caller alone (never cached, kept live): for revocation tests. */
  fresh(
    scopes: readonly string[],
    user: UserName = 'A',
    options: AuthorizationOptions = {},
  ): Promise<UserToken> {
    const next = (old: UserToken): Promise<UserToken> =>
      this.live(user, this.successor(old, user, options), next);
    return this.live(user, this.mint(scopes, user, options), next);
  }

  /**
   * An expired token of user A: the one configured or the token store's (CONFORMANCE_EXPIRED_USER_TOKEN,
   * CONFORMANCE_TOKEN_STORE), else, on the embedded sandbox, one it mints already expired.
   */
  expiredToken(): Promise<string> {
    const configured = suppliedExpiredToken(this.config, 'user');
    this.expired ??= configured
      ? Promise.resolve(configured)
      : this.known(
          'A',
          this.remember('A|expired', () => this.mint(USER_SCOPES, 'A', { sandboxExpiresIn: -60 })),
        ).then((token) => token.accessToken);
    return this.expired;
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
