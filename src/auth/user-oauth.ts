// User tokens through the real OAuth 2.0 authorization code flow: a sign-in (the HTTP form filler, or a
// browser) gets the code from the authorization page's redirect, the code is exchanged at the token
// endpoint, with PKCE (S256) unless configured off; refresh tokens are redeemed (for a scope set, RFC 6749 §6) at
// the same endpoint. The client authenticates in the form body or by HTTP Basic (RFC 6749 §2.3.1). A token
// keeps the scope its server said it granted (src/auth/granted-scope.ts reads it).
import type { ClientAuthMethod, UserLogin } from '../config/suite-config.ts';
import type { ApiClient } from '../http/api-client.ts';
import { BODY, bodyField, bodyOf, describeExchange, type Exchange, exchangeLine } from '../http/exchange.ts';
import { redactText, registerSecret } from '../http/redact.ts';
import { type AuthorizationCode, authorizationRequest, type CodeSource } from './authorization-request.ts';
import { formSignIn } from './form-sign-in.ts';
import { refusedAgain, serverError } from './sign-in-answers.ts';
import { type ConfiguredUser, PersonNeeded, SignInServerFailure } from './sign-in-errors.ts';
import { memoryJournal, type SignInJournal } from './sign-in-journal.ts';

export interface UserToken {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  /** When the token was asked for (epoch ms): its stated expiry is `expiresIn` seconds later. */
  obtainedAt?: number;
  /** The scopes asked for. */
  scopes: string;
  /** The scope the server said it granted, when it said one: in the token response (RFC 6749 §5.1), or the redirect. */
  grantedScope?: string;
  /** Where it was said (default: the token response); a refresh that stated none: the stored grant's scope. */
  scopeStatedBy?: 'redirect' | 'stored grant';
  /** The token response the token came in, with its request (redacted): the statement of its grant. */
  statedIn?: string;
}

export interface AuthorizationOptions {
  /** Sandbox-only: ask for a token that expires after this many seconds (0 = already expired). */
  sandboxExpiresIn?: number;
  /** Sandbox-only: ask for a token with a rate limit of its own (`N/SECONDS`). */
  sandboxRateLimit?: string;
}

export interface UserOAuthOptions {
  /** The client authentication tried first; after a 401 the other one is tried and, if it works, kept. */
  clientAuth?: ClientAuthMethod;
  /** Send a PKCE S256 challenge with every authorization request (default: yes; CONFORMANCE_PKCE=0: no). */
  pkce?: boolean;
  /** Signs the user in (default: the HTTP form filler, its requests sent through the client's api). */
  codeSource?: CodeSource;
  /** Which configured user signs in (for the message when the target refuses the password; default A). */
  user?: ConfiguredUser;
  /** What the run knows of its sign-ins (src/auth/sign-in-journal.ts); default: this client's alone. */
  journal?: SignInJournal;
  /** The clock a token's obtainedAt is read on (default: Date.now). */
  now?: () => number;
}

/** A token request the target refused: `error` is the RFC 6749 §5.2 code (invalid_grant: a dead refresh token). */
export class TokenRequestError extends Error {
  constructor(
    readonly exchange: Exchange,
    readonly error: string | undefined,
  ) {
    super(`Token request failed: ${describeExchange(exchange)}`);
    this.name = 'TokenRequestError';
  }
}

const sandboxFields = (options: AuthorizationOptions): Record<string, string> => ({
  ...(options.sandboxExpiresIn === undefined ? {} : { sandbox_expires_in: String(options.sandboxExpiresIn) }),
  ...(options.sandboxRateLimit === undefined ? {} : { sandbox_rate_limit: options.sandboxRateLimit }),
});

const errorCode = (exchange: Exchange): string | undefined => {
  const body = bodyOf<{ error?: unknown } | null>(exchange);
  const error = body.ok ? body.value?.error : undefined;
  return typeof error === 'string' ? error : undefined;
};

interface TokenResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
}

/** The token response's body; one that is not JSON or carries no access_token fails the sign-in (AUTH-CODE-FLOW). */
function tokenResponse(exchange: Exchange): TokenResponse & { access_token: string } {
  const body = bodyOf<TokenResponse | null>(exchange);
  const token = body.ok ? body.value?.access_token : undefined;
  if (body.ok && typeof token === 'string' && token !== '') return { ...body.value, access_token: token };
  throw new SignInServerFailure(
    `${exchangeLine(exchange)}: the token response ${body.ok ? 'carries no access_token' : 'is not JSON'}`,
    { exchange, fields: [body.ok ? bodyField('/access_token') : BODY] },
  );
}

export class UserOAuthClient {
  private clientAuth: ClientAuthMethod;
  /** The PKCE verifiers of the codes obtained and not yet exchanged. */
  private readonly verifiers = new Map<string, string>();
  /** The scope the redirect carried with a code obtained and not yet exchanged, when it carried one. */
  private readonly redirectScopes = new Map<string, string>();
  private readonly codeSource: CodeSource;
  private readonly journal: SignInJournal;
  private readonly user: ConfiguredUser;

  constructor(
    private readonly api: ApiClient,
    private readonly authUrl: string,
    private readonly login: UserLogin,
    private readonly options: UserOAuthOptions = {},
  ) {
    this.clientAuth = options.clientAuth ?? 'client_secret_post';
    this.codeSource = options.codeSource ?? formSignIn(api);
    this.journal = options.journal ?? memoryJournal();
    this.user = options.user ?? 'A';
  }

  /** Runs the whole flow for `scopes` and returns the issued token. */
  async authorize(scopes: string, options: AuthorizationOptions = {}): Promise<UserToken> {
    const code = await this.obtainCode(scopes);
    return this.exchangeCode(code, scopes, options);
  }

  /** The sign-in part: returns the authorization code delivered to the redirect URI. */
  async obtainCode(scopes: string): Promise<string> {
    const request = authorizationRequest(this.authUrl, this.login, scopes, this.options.pkce !== false);
    const { code, scope }: AuthorizationCode = await this.codeSource(
      request,
      { ...this.login, user: this.user },
      this.journal,
    ).catch((error: unknown) => this.remember(error));
    registerSecret(code);
    if (request.codeVerifier) this.verifiers.set(code, request.codeVerifier);
    if (scope) this.redirectScopes.set(code, scope);
    return code;
  }

  /**
   * The scope a code's token carries, as its server said it: the token response's `scope` (null: none
   * stated; empty: none granted), else the one the redirect carried with the code.
   */
  statedScope(code: string | undefined, scope: unknown): Pick<UserToken, 'grantedScope' | 'scopeStatedBy'> {
    const redirected = code === undefined ? undefined : this.redirectScopes.get(code);
    if (code !== undefined) this.redirectScopes.delete(code);
    if (typeof scope === 'string') return { grantedScope: scope };
    return redirected ? { grantedScope: redirected, scopeStatedBy: 'redirect' } : {};
  }

  /** Tells the journal what the rest of the run must know (the server failed, a person is needed); rethrows. */
  private remember(error: unknown): never {
    if (error instanceof SignInServerFailure) this.journal.failed(error.what);
    if (error instanceof PersonNeeded) this.journal.personNeeded(error);
    throw error;
  }

  /** The token request's fields for a code (with its PKCE code_verifier when one was sent). */
  codeGrant(code: string): Record<string, string> {
    const verifier = this.verifiers.get(code);
    this.verifiers.delete(code);
    return {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.login.redirectUri,
      ...(verifier ? { code_verifier: verifier } : {}),
    };
  }

  /**
   * POSTs a grant to {auth_url}/oauth/oauth2/token with the client's credentials, in the form body or as
   * HTTP Basic. A 401 under one method is retried once under the other, which is then kept.
   */
  async tokenRequest(grant: Record<string, string>): Promise<Exchange> {
    const { clientId, clientSecret } = this.login;
    const send = (method: ClientAuthMethod) =>
      this.api.send({
        method: 'POST',
        path: `${this.authUrl}/oauth/oauth2/token`,
        signIn: true,
        ...(method === 'client_secret_post'
          ? { form: { ...grant, client_id: clientId, client_secret: clientSecret } }
          : {
              form: grant,
              headers: {
                authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
              },
            }),
      });
    const first = await send(this.clientAuth);
    if (first.status !== 401) return first;
    const other = this.clientAuth === 'client_secret_post' ? 'client_secret_basic' : 'client_secret_post';
    const second = await send(other);
    if (second.status === 401) return first;
    this.clientAuth = other; // the other method authenticated the client (whatever it says of the grant)
    return second;
  }

  exchangeCode(code: string, scopes: string, options: AuthorizationOptions = {}): Promise<UserToken> {
    return this.issue({ ...this.codeGrant(code), ...sandboxFields(options) }, scopes, code);
  }

  /** A new access token from a refresh token, for `scopes` (a narrowing of the grant's, RFC 6749 §6). */
  refresh(refreshToken: string, scopes: string, options: AuthorizationOptions = {}): Promise<UserToken> {
    return this.issue(
      { grant_type: 'refresh_token', refresh_token: refreshToken, scope: scopes, ...sandboxFields(options) },
      scopes,
    );
  }

  private async issue(grant: Record<string, string>, scopes: string, code?: string): Promise<UserToken> {
    const obtainedAt = (this.options.now ?? Date.now)();
    const exchange = await this.tokenRequest(grant);
    try {
      serverError(exchange);
      // A refused refresh token may be dead (revoked, spent); a code the server just issued may not.
      if (grant.grant_type === 'authorization_code') refusedAgain(exchange, this.user, this.journal);
    } catch (error) {
      this.remember(error);
    }
    if (exchange.status !== 200) throw new TokenRequestError(exchange, errorCode(exchange));
    this.journal.stepsWorked([exchange], this.user);
    const body = tokenResponse(exchange);
    const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : undefined;
    registerSecret(body.access_token);
    registerSecret(refreshToken);
    return {
      accessToken: body.access_token,
      refreshToken,
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : undefined,
      obtainedAt,
      scopes,
      ...this.statedScope(code, body.scope),
      statedIn: redactText(`${describeExchange(exchange)}\n  answered: ${exchange.text.slice(0, 600)}`),
    };
  }
}
