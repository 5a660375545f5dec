// A partner's server-to-server client: client credentials for a bearer token, sent on every request, and
// renewed by the expires_in its response states (src/auth/token-lifetimes.ts: as a request goes out); on a
// 401 it requests a new token and retries once, as the seed tells partners to do.
import type { ClientCredentials, SuiteConfig } from '../config/suite-config.ts';
import { SEED_PARTNER_TOKEN_REQUEST } from '../config/variables.ts';
import { type ApiClient, type ApiRequest, partnerCredential } from '../http/api-client.ts';
import { BODY, bodyField, bodyOf, describeExchange, type Exchange, STATUS } from '../http/exchange.ts';
import { registerSecret } from '../http/redact.ts';
import { timed } from '../run-state/phase-log.ts';
import { runTokens, type TokenLifetimes } from './token-lifetimes.ts';
import { partnerKey, TokenStore } from './token-store.ts';

/** A token request the server failed: its answer, what was wrong with it, and the offending field. */
export class PartnerTokenFailure extends Error {
  constructor(
    readonly exchange: Exchange,
    readonly problem: string,
    readonly field: string,
  ) {
    super(`The partner token request ${problem}: ${describeExchange(exchange)}`);
    this.name = 'PartnerTokenFailure';
  }
}

/** The token request's grant_type and scope (CONFORMANCE_PARTNER_GRANT_TYPE, CONFORMANCE_PARTNER_SCOPE). */
export interface PartnerTokenSettings {
  grantType: string;
  scope: string;
  /** Told of each token the client obtains, with its stated lifetime (the token store keeps them). */
  onToken?: (token: string, expiresIn: number) => Promise<void>;
  /**
   * What a token request the server failed throws instead of the PartnerTokenFailure: in a check, its failure
   * of OP-PARTNER-TOKEN (src/worker/suite/fixtures.ts), as the preflight charges a 429 there.
   */
  failed?: (failure: PartnerTokenFailure) => Error;
}

/** The token an answer to a token request carries; a failure of the server's where it carries none. */
function issuedToken(exchange: Exchange): { token: string; expiresIn?: number } | PartnerTokenFailure {
  if (exchange.status !== 200)
    return new PartnerTokenFailure(exchange, `answered ${exchange.status}, not 200`, STATUS);
  const body = bodyOf<{ access_token?: unknown; expires_in?: unknown } | null>(exchange);
  if (!body.ok) return new PartnerTokenFailure(exchange, 'was answered with a body that is not JSON', BODY);
  const token = body.value?.access_token;
  if (typeof token !== 'string' || token === '')
    return new PartnerTokenFailure(
      exchange,
      'was answered without an access_token',
      bodyField('/access_token'),
    );
  const expiresIn = body.value?.expires_in;
  return { token, ...(typeof expiresIn === 'number' ? { expiresIn } : {}) };
}

/** The seed's example values. */
export const SEED_PARTNER_TOKEN_SETTINGS: PartnerTokenSettings = SEED_PARTNER_TOKEN_REQUEST;

export class PartnerClient {
  /** How many times a 401 made the client fetch a new token and retry. */
  renewals = 0;

  /** `tokens` (client id → token) may be shared between clients of one worker, to reuse tokens. */
  constructor(
    private readonly api: ApiClient,
    readonly credentials: ClientCredentials,
    private readonly tokens: Map<string, string> = new Map(),
    readonly settings: PartnerTokenSettings = SEED_PARTNER_TOKEN_SETTINGS,
    /** Where its tokens are kept live (the process's, but in a test). */
    private readonly lifetimes: TokenLifetimes = runTokens,
  ) {}

  private get token(): string | undefined {
    return this.tokens.get(this.credentials.clientId);
  }

  private set token(token: string | undefined) {
    if (token === undefined) this.tokens.delete(this.credentials.clientId);
    else this.tokens.set(this.credentials.clientId, token);
  }

  /** The rate budget the partner's requests draw on: the target limits each partner client apart. */
  private get credential(): string {
    return partnerCredential(this.credentials.clientId);
  }

  /** The token request of the seed's partner flow, step 1 (extra fields are merged into the body). */
  requestToken(overrides: Record<string, unknown> = {}, api: ApiClient = this.api): Promise<Exchange> {
    return api.send({
      method: 'POST',
      path: '/v2/partner/token',
      credential: this.credential,
      json: {
        grant_type: this.settings.grantType,
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        scope: this.settings.scope,
        ...overrides,
      },
    });
  }

  async accessToken(): Promise<string> {
    return this.token ?? this.obtain(this.api);
  }

  /** A new token, through `api`, kept with its stated lifetime: its successor is obtained the same way. */
  private async obtain(api: ApiClient): Promise<string> {
    const obtainedAt = this.lifetimes.now();
    const exchange = await timed('login', () => this.requestToken({}, api));
    const issued = issuedToken(exchange);
    if (issued instanceof PartnerTokenFailure) throw this.settings.failed?.(issued) ?? issued;
    const { token, expiresIn } = issued;
    registerSecret(token);
    this.token = token;
    this.lifetimes.keep(token, { obtainedAt, expiresIn, renew: (next) => this.obtain(next) });
    if (expiresIn !== undefined) await this.settings.onToken?.(token, expiresIn);
    return token;
  }

  /** Forgets the current token (or installs a given one, e.g. an expired token for a test). */
  useToken(token?: string): void {
    this.token = token;
  }

  async send(request: Omit<ApiRequest, 'token'>): Promise<Exchange> {
    const { credential } = this;
    const exchange = await this.api.send({ ...request, credential, token: await this.accessToken() });
    if (exchange.status !== 401) return exchange;
    this.token = undefined;
    this.renewals++;
    return this.api.send({ ...request, credential, token: await this.accessToken() });
  }
}

/** The partner token request's values; with a token store, each token issued is kept there with its expiry. */
export function partnerTokenSettings(
  config: SuiteConfig,
  credentials: ClientCredentials,
  api: ApiClient,
): PartnerTokenSettings {
  const { partnerGrantType: grantType, partnerScope: scope, tokenStore } = config.auth;
  if (!tokenStore) return { grantType, scope };
  const store = new TokenStore(tokenStore, (waitMs) =>
    api.waitOfTheRun(waitMs, "another worker holds the token store's lock"),
  );
  const key = partnerKey(config.baseUrl, credentials.clientId);
  return {
    grantType,
    scope,
    onToken: (accessToken, expiresIn) => store.record(key, { accessToken, scopes: scope, expiresIn }),
  };
}
