// User OAuth state: authorization codes, access tokens and refresh tokens (opaque random strings), and the
// grants a user revoked. Expiry is measured on the sandbox clock.
import { randomBytes } from 'node:crypto';
import type { Pkce } from './authorize.ts';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
export const CODE_LIFETIME_MS = 10 * 60_000;
/** The scope that makes the token endpoint also issue a refresh token. */
export const OFFLINE_SCOPE = 'offline';

export interface Grant {
  userId: number;
  clientId: string;
  scopes: readonly string[];
  /** Sandbox-only (`sandbox_rate_limit`): the token's own rate limit, counted per token. */
  rateLimit?: { limit: number; windowSeconds: number };
}

interface AccessToken extends Grant {
  expiresAt: number;
  revoked: boolean;
}

interface RefreshToken extends Grant {
  spent: boolean;
  revoked: boolean;
}

interface AuthorizationCode extends Grant {
  redirectUri: string;
  pkce?: Pkce;
  expiresAt: number;
  used: boolean;
}

export type TokenCheck = { status: 'valid' | 'expired' | 'revoked'; grant: Grant } | { status: 'unknown' };

export type CodeRedemption =
  | { status: 'ok'; grant: Grant; redirectUri: string; pkce?: Pkce }
  | { status: 'unknown' | 'used' | 'expired' };

export interface IssuedTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn: number;
  scopes: readonly string[];
}

const opaque = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;
const pairKey = (userId: number, clientId: string): string => `${userId}\u0000${clientId}`;

export class UserTokenStore {
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #access = new Map<string, AccessToken>();
  readonly #refresh = new Map<string, RefreshToken>();
  /** user/client pairs whose access the user revoked (until the user grants access again). */
  readonly #revoked = new Set<string>();

  constructor(private readonly now: () => Date) {}

  issueCode(grant: Grant, redirectUri: string, pkce?: Pkce): string {
    const code = opaque('sbx_code');
    this.#codes.set(code, {
      ...grant,
      redirectUri,
      ...(pkce ? { pkce } : {}),
      expiresAt: this.now().getTime() + CODE_LIFETIME_MS,
      used: false,
    });
    return code;
  }

  /** Redeems a code once; `allowReuse` is the fault that skips the single-use check. */
  redeemCode(code: string, allowReuse = false): CodeRedemption {
    const stored = this.#codes.get(code);
    if (!stored) return { status: 'unknown' };
    if (stored.used && !allowReuse) return { status: 'used' };
    if (this.now().getTime() >= stored.expiresAt) return { status: 'expired' };
    stored.used = true;
    const { redirectUri, userId, clientId, scopes, pkce } = stored;
    return { status: 'ok', grant: { userId, clientId, scopes }, redirectUri, ...(pkce ? { pkce } : {}) };
  }

  /**
   * Issues an access token for `grant`, and a refresh token when `refreshScopes` (default: the grant's) holds
   * the offline scope, or `everyGrant` (variant short-lived-tokens). A refresh with a narrowed scope passes the
   * original scopes: the new refresh token keeps the scope of the one it replaces (RFC 6749 §6).
   */
  issueTokens(
    grant: Grant,
    lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshScopes: readonly string[] = grant.scopes,
    everyGrant = false,
  ): IssuedTokens {
    const accessToken = opaque('sbx_at');
    this.#access.set(accessToken, {
      ...grant,
      expiresAt: this.now().getTime() + lifetimeSeconds * 1000,
      revoked: false,
    });
    this.#revoked.delete(pairKey(grant.userId, grant.clientId));
    let refreshToken: string | undefined;
    if (everyGrant || refreshScopes.includes(OFFLINE_SCOPE)) {
      refreshToken = opaque('sbx_rt');
      this.#refresh.set(refreshToken, { ...grant, scopes: refreshScopes, spent: false, revoked: false });
    }
    return { accessToken, refreshToken, expiresIn: Math.max(0, lifetimeSeconds), scopes: grant.scopes };
  }

  /** The grant of a live refresh token of `clientId`, without spending it. */
  refreshGrant(token: string, clientId: string): Grant | undefined {
    const stored = this.#refresh.get(token);
    if (!stored || stored.spent || stored.revoked || stored.clientId !== clientId) return undefined;
    const { userId, scopes } = stored;
    return { userId, clientId, scopes };
  }

  /** Spends a refresh token (rotation: each one works once). */
  spendRefreshToken(token: string): void {
    const stored = this.#refresh.get(token);
    if (stored) stored.spent = true;
  }

  checkAccessToken(token: string): TokenCheck {
    const stored = this.#access.get(token);
    if (!stored) return { status: 'unknown' };
    const { userId, clientId, scopes, rateLimit } = stored;
    const grant = { userId, clientId, scopes, ...(rateLimit ? { rateLimit } : {}) };
    if (stored.revoked) return { status: 'revoked', grant };
    if (this.now().getTime() >= stored.expiresAt) return { status: 'expired', grant };
    return { status: 'valid', grant };
  }

  /** Revokes every access and refresh token and every unused code of `userId` for `clientId`. */
  revoke(userId: number, clientId: string): void {
    const matches = (grant: Grant) => grant.userId === userId && grant.clientId === clientId;
    for (const token of this.#access.values()) if (matches(token)) token.revoked = true;
    for (const token of this.#refresh.values()) if (matches(token)) token.revoked = true;
    for (const code of this.#codes.values()) if (matches(code)) code.used = true;
    this.#revoked.add(pairKey(userId, clientId));
  }

  /** Whether `userId` revoked the access of `clientId` (and has not granted it again since). */
  isRevoked(userId: number, clientId: string): boolean {
    return this.#revoked.has(pairKey(userId, clientId));
  }
}
