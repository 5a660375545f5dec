// The suite's configuration: which target, which credentials, which profile. Resolved once per run, from
// the environment (CONFORMANCE_*) and optionally an env file, into the run manifest (./run-manifest.ts);
// every problem is reported by variable name before any request is sent.
import { resolve, sep } from 'node:path';
import { partnerKey, TokenStore, userKey } from '../auth/token-store.ts';
import { isOperationId, USER_SCOPES } from '../contract/operation-model.ts';
import { reportsDir } from '../run/reports-dir.ts';
import {
  assertAlgorithm,
  DEFAULT_SIGNATURE_SCHEME,
  SIGNATURE_ENCODINGS,
  type SignatureScheme,
} from '../webhooks/signature.ts';
import { ConfigError } from './config-error.ts';
import { type Env, resolveEnvironment } from './environment.ts';
import { type TargetSpec, targetsOf } from './run-plan.ts';

export { ConfigError };

export type TargetKind = 'sandbox' | 'prism' | 'remote';
export type Profile = 'ci-gate' | 'certification' | 'smoke';
export type Environment = 'production' | 'non-production';

/** What a target can do; a test that needs a capability the target lacks is skipped with that reason. */
export type Capability =
  | 'stateful' // data persists between requests (reads after writes, cursors, revocation)
  | 'real-auth' // tokens are really checked: invalid, expired and revoked tokens are refused
  | 'scopes' // scopes are enforced per operation
  | 'user-login' // user tokens can be minted through the authorization code flow
  | 'second-user' // a second user's credentials are configured
  | 'expired-user-token' // an expired user token: the sandbox's on demand, a given one, or the token store's
  | 'expired-partner-token' // likewise for partners
  | 'partner' // partner A credentials are configured
  | 'second-partner' // partner B credentials are configured
  | 'webhooks' // the target's webhooks reach the suite's receiver (sandbox admin API, or one the team registered)
  | 'sandbox-admin' // the embedded sandbox's administration API (receivers per check, simulated events, inspection)
  | 'rate-limit' // the target's rate limit is configured or read from its response headers
  | 'own-rate-limit' // a token with a small rate limit of its own can be minted (sandbox only)
  | 'request-count'; // the target counts requests server-side (sandbox admin API)

/** Why a capability is missing, and what would supply it (the reason a check reports as not verified). */
export const capabilitySource: Record<Capability, string> = {
  stateful: 'a target that keeps state (not a mock)',
  'real-auth': 'a target that checks tokens (not a mock)',
  scopes: 'a target that enforces scopes (not a mock)',
  'user-login':
    'user OAuth credentials (CONFORMANCE_CLIENT_ID, CONFORMANCE_CLIENT_SECRET, CONFORMANCE_REDIRECT_URI, CONFORMANCE_USER, CONFORMANCE_PASSWORD)',
  'second-user': 'a second test user (CONFORMANCE_USER_B, CONFORMANCE_PASSWORD_B)',
  'expired-user-token':
    'an expired user token (CONFORMANCE_EXPIRED_USER_TOKEN, or a token store, CONFORMANCE_TOKEN_STORE, holding one whose stated expiry has passed: a run after `npm run login` once its tokens expired)',
  'expired-partner-token':
    'an expired partner token (CONFORMANCE_EXPIRED_PARTNER_TOKEN, or a token store, CONFORMANCE_TOKEN_STORE, holding one of partner A whose stated expiry has passed: a later run)',
  partner: 'partner A credentials (CONFORMANCE_PARTNER_A_CLIENT_ID, CONFORMANCE_PARTNER_A_CLIENT_SECRET)',
  'second-partner':
    'partner B credentials (CONFORMANCE_PARTNER_B_CLIENT_ID, CONFORMANCE_PARTNER_B_CLIENT_SECRET)',
  webhooks:
    "the suite's webhook receiver registered with the target (CONFORMANCE_WEBHOOK_LISTEN, CONFORMANCE_WEBHOOK_PUBLIC_URL)",
  'sandbox-admin': 'the embedded sandbox administration API',
  'rate-limit':
    "the target's rate limit (CONFORMANCE_RATE_LIMIT, e.g. 2000/60, or announced in its response headers)",
  'own-rate-limit': 'a token with a rate limit of its own (the embedded sandbox issues one on demand)',
  'request-count': 'server-side request counts (the embedded sandbox administration API)',
};

export interface UserLogin {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  username: string;
  password: string;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
}

export interface SuiteConfig {
  target: TargetKind;
  baseUrl: string;
  authUrl: string;
  environment: Environment;
  profile: Profile;
  userLogin?: UserLogin;
  secondUser?: { username: string; password: string };
  /** Pre-issued user tokens: space-separated scope set → token. */
  userTokens?: Record<string, string>;
  partnerA?: ClientCredentials;
  partnerB?: ClientCredentials;
  /**
   * CONFORMANCE_PRODUCTION_BASE_URL: the production deployment of a non-production target, where partner A's
   * credentials also hold; the one check that needs production (add-test-data answers 404) is sent there.
   */
  productionBaseUrl?: string;
  /** Requisitions owned by partner A, for partner checks where test data cannot be generated (production). */
  partnerRequisitionIds?: string[];
  signingSecret?: string;
  /** The suite's webhook receiver and the signature scheme (README, "Running against your server"). */
  webhooks: WebhookSettings;
  requestBudget: number;
  /** CONFORMANCE_REQUEST_TIMEOUT_MS: how long one request may wait for its complete response. */
  requestTimeoutMs: number;
  /** CONFORMANCE_UNANSWERED_BUDGET: requests of the run left unanswered before the run stops sending. */
  unansweredBudget: number;
  /** CONFORMANCE_SEED: the fast-check seed of every property (fixed by default; `random`: drawn per run). */
  propertySeed: number;
  /** Statuses accepted for a token that lacks the operation's scope (the seed says 401). */
  insufficientScopeStatuses: number[];
  /** CONFORMANCE_RATE_LIMIT; undefined: the check reads the limit from the target's response headers. */
  rateLimit?: RateLimitConfig;
  /** CONFORMANCE_RATE_LIMIT_HEADERS: headers the target documents on a 429 (default Retry-After with a limit). */
  rateLimitHeaders: string[];
  /** CONFORMANCE_RATE_LIMIT_BUDGET: the most requests the 429 burst may send (default 1000). */
  rateLimitBudget: number;
  expectationsFile?: string;
  prismProxy: boolean;
  /** CONFORMANCE_STRICT=1: warnings (the suite's reading of loosely stated points) fail. */
  strict: boolean;
  /** CONFORMANCE_ALLOW_INCOMPLETE=1: an INCOMPLETE run exits 0. */
  allowIncomplete: boolean;
  /** CONFORMANCE_LATENCY_BUDGET: the p95 (ms) the team allows, per operationId or `*`. */
  latencyBudgets: LatencyBudgets;
  /** CONFORMANCE_RECORD_HAR: the file the run writes a HAR 1.2 of its exchanges to (undefined: none). */
  recordHar?: string;
  /** CONFORMANCE_BASELINE: a previous run's conformance.json, compared with this run's. */
  baseline?: string;
  /** CONFORMANCE_FAIL_ON: `any` (default) or `new` (the exit status reflects only new failures). */
  failOn: FailOn;
  /** CONFORMANCE_SANDBOX_FAULTS: the faults injected into the embedded sandbox (self tests, mutation runs). */
  sandboxFaults: readonly string[];
  /** CONFORMANCE_SANDBOX_VARIANTS: the conforming variants the embedded sandbox runs as. */
  sandboxVariants: readonly string[];
  /** How the suite gets and keeps tokens on a real target (README, "Running against your server"). */
  auth: AuthSettings;
  capabilities: ReadonlySet<Capability>;
}

export type FailOn = 'any' | 'new';

/** What the Playwright configuration needs before any target is started (playwright.config.ts). */
export interface RunOptions {
  profile: Profile;
  /** CONFORMANCE_GREP: the tests to run, by title and tags (undefined: all). */
  grep?: string;
  /** CONFORMANCE_WORKERS (default 2; smoke 1). */
  workers: number;
  /** CONFORMANCE_RUN_TIMEOUT_S: the whole run's budget (Playwright's globalTimeout), in seconds. */
  runTimeoutSeconds: number;
  /** Whether the run starts the embedded sandbox (no CONFORMANCE_BASE_URL, not Prism). */
  embeddedSandbox: boolean;
}

function oneOf<T extends string>(env: Env, variable: string, allowed: readonly T[], fallback: T): T {
  const value = env[variable];
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(variable, `must be one of ${allowed.join(', ')}; got "${value}"`);
  }
  return value as T;
}

function url(env: Env, variable: string): string | undefined {
  const value = env[variable];
  if (!value) return undefined;
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(variable, `must be an absolute URL; got "${value}"`);
  }
}

function positiveInteger(env: Env, variable: string, fallback: number): number {
  const value = env[variable];
  if (!value) return fallback;
  if (!/^[1-9]\d*$/.test(value))
    throw new ConfigError(variable, `must be a positive integer; got "${value}"`);
  return Number(value);
}

function flag(env: Env, variable: string): boolean {
  const value = env[variable];
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(variable, `must be 1 or 0; got "${value}"`);
}

/** Variables that must be set together: all or none. */
function group<K extends string>(env: Env, variables: Record<K, string>): Record<K, string> | undefined {
  const entries = Object.entries(variables) as [K, string][];
  const set = entries.filter(([, variable]) => env[variable]);
  if (set.length === 0) return undefined;
  const missing = entries.find(([, variable]) => !env[variable]);
  if (missing) {
    throw new ConfigError(missing[1], `is required with ${set.map(([, variable]) => variable).join(', ')}`);
  }
  return Object.fromEntries(entries.map(([key, variable]) => [key, env[variable]])) as Record<K, string>;
}

function userTokens(env: Env): Record<string, string> | undefined {
  const raw = env.CONFORMANCE_USER_TOKENS;
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      'CONFORMANCE_USER_TOKENS',
      'must be JSON: {"read:cycles read:sleep": "<token>", ...}',
    );
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Object.values(parsed).some((token) => typeof token !== 'string')
  ) {
    throw new ConfigError('CONFORMANCE_USER_TOKENS', 'must map scope sets to token strings');
  }
  return Object.fromEntries(
    Object.entries(parsed as Record<string, string>).map(([scopes, token]) => [
      normaliseScopes(scopes),
      token,
    ]),
  );
}

export function normaliseScopes(scopes: string | readonly string[]): string {
  const list = typeof scopes === 'string' ? scopes.split(/\s+/) : [...scopes];
  return [...new Set(list.filter(Boolean))].sort().join(' ');
}

/** The partner token request's grant_type and scope in the seed's example. */
export const SEED_PARTNER_TOKEN_REQUEST = { grantType: 'client_credentials', scope: 'service-partner/token' };

/** How the OAuth client authenticates at the user token endpoint (RFC 6749 §2.3.1). */
export type ClientAuthMethod = 'client_secret_post' | 'client_secret_basic';

export interface AuthSettings {
  /** CONFORMANCE_TOKEN_STORE: the token store `npm run login` fills (outside reports/). */
  tokenStore?: string;
  /**
   * CONFORMANCE_SIGN_IN: how a user signs in: `browser` (Chromium) or `form` (HTTP form filler); unset
   * (`auto`): the page decides, a served form by the form filler, a page built by script in the browser.
   */
  signIn: 'auto' | 'browser' | 'form';
  /** CONFORMANCE_PKCE=1: authorization requests carry a PKCE S256 challenge (RFC 7636). */
  pkce: boolean;
  /** CONFORMANCE_CLIENT_AUTH: the client authentication tried first (the other after a refusal). */
  clientAuth: ClientAuthMethod;
  /** CONFORMANCE_OFFLINE_SCOPE (default offline): the scope that makes the target issue a refresh token. */
  offlineScope: string;
  /** CONFORMANCE_EXPIRED_USER_TOKEN: an expired token of user A. */
  expiredUserToken?: string;
  /** CONFORMANCE_EXPIRED_PARTNER_TOKEN: an expired token of partner A. */
  expiredPartnerToken?: string;
  /**
   * Whether the token store held, when the run started, an access token of user A / partner A whose stated
   * expiry had passed (the token itself is read from the store where it is used: it is no variable's).
   */
  storeHasExpired: { user: boolean; partner: boolean };
  /** CONFORMANCE_PARTNER_SCOPE, CONFORMANCE_PARTNER_GRANT_TYPE: the partner token request's values (the seed's). */
  partnerScope: string;
  partnerGrantType: string;
}

/** CONFORMANCE_TOKEN_STORE: never under the reports directory (reports are shared; the store holds tokens). */
function tokenStorePath(env: Env): string | undefined {
  const value = env.CONFORMANCE_TOKEN_STORE;
  if (!value) return undefined;
  const path = resolve(value);
  const reports = resolve(reportsDir);
  if (path === reports || path.startsWith(`${reports}${sep}`))
    throw new ConfigError(
      'CONFORMANCE_TOKEN_STORE',
      `must be outside ${reports} (reports are shared; the store holds live tokens)`,
    );
  return path;
}

type TokenOwners = Pick<SuiteConfig, 'baseUrl' | 'authUrl' | 'userLogin' | 'partnerA'>;

/** The token store's expired access token of user A (every read scope, if it has one) or partner A. */
function storedExpiredToken(
  path: string,
  owners: TokenOwners,
  whose: 'user' | 'partner',
): string | undefined {
  const store = new TokenStore(path);
  const { userLogin: login, partnerA } = owners;
  if (whose === 'user')
    return login
      ? store.expiredAccessToken(
          userKey(owners.authUrl, login.clientId, login.username),
          normaliseScopes(USER_SCOPES),
        )?.accessToken
      : undefined;
  return partnerA
    ? store.expiredAccessToken(partnerKey(owners.baseUrl, partnerA.clientId))?.accessToken
    : undefined;
}

/** An expired token of user A or partner A the configuration supplies: its variable's, else the token store's. */
export function suppliedExpiredToken(config: SuiteConfig, whose: 'user' | 'partner'): string | undefined {
  const { tokenStore, expiredUserToken, expiredPartnerToken } = config.auth;
  const given = whose === 'user' ? expiredUserToken : expiredPartnerToken;
  return given ?? (tokenStore ? storedExpiredToken(tokenStore, config, whose) : undefined);
}

function storeHasExpired(path: string | undefined, owners: TokenOwners): AuthSettings['storeHasExpired'] {
  if (!path) return { user: false, partner: false };
  try {
    return {
      user: storedExpiredToken(path, owners, 'user') !== undefined,
      partner: storedExpiredToken(path, owners, 'partner') !== undefined,
    };
  } catch (error) {
    throw new ConfigError(
      'CONFORMANCE_TOKEN_STORE',
      `cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function authSettings(env: Env, owners: TokenOwners): AuthSettings {
  const tokenStore = tokenStorePath(env);
  return {
    tokenStore,
    signIn: oneOf(env, 'CONFORMANCE_SIGN_IN', ['auto', 'browser', 'form'] as const, 'auto'),
    pkce: flag(env, 'CONFORMANCE_PKCE'),
    clientAuth: oneOf(
      env,
      'CONFORMANCE_CLIENT_AUTH',
      ['client_secret_post', 'client_secret_basic'] as const,
      'client_secret_post',
    ),
    offlineScope: env.CONFORMANCE_OFFLINE_SCOPE || 'offline',
    expiredUserToken: env.CONFORMANCE_EXPIRED_USER_TOKEN || undefined,
    expiredPartnerToken: env.CONFORMANCE_EXPIRED_PARTNER_TOKEN || undefined,
    storeHasExpired: storeHasExpired(tokenStore, owners),
    partnerScope: env.CONFORMANCE_PARTNER_SCOPE || SEED_PARTNER_TOKEN_REQUEST.scope,
    partnerGrantType: env.CONFORMANCE_PARTNER_GRANT_TYPE || SEED_PARTNER_TOKEN_REQUEST.grantType,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidList(env: Env, variable: string): string[] | undefined {
  const raw = env[variable];
  if (!raw) return undefined;
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined || ids.length === 0)
    throw new ConfigError(variable, `must be comma-separated uuids; got "${bad ?? raw}"`);
  return [...new Set(ids)];
}

function rateLimit(env: Env): RateLimitConfig | undefined {
  const raw = env.CONFORMANCE_RATE_LIMIT;
  if (!raw) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  if (!match)
    throw new ConfigError('CONFORMANCE_RATE_LIMIT', `must be REQUESTS/SECONDS, e.g. 2000/60; got "${raw}"`);
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

/** The seed of every property unless CONFORMANCE_SEED says otherwise: a gate's verdict does not flip between runs. */
export const FIXED_PROPERTY_SEED = 20_261_125;

/** CONFORMANCE_SEED: an integer, or `random` (global setup draws it once, for every target of the run). */
function propertySeed(env: Env): number {
  const raw = env.CONFORMANCE_SEED;
  if (raw === undefined || raw === '') return FIXED_PROPERTY_SEED;
  if (raw === 'random') return drawnSeed();
  if (!/^-?\d{1,10}$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new ConfigError('CONFORMANCE_SEED', `must be an integer or "random"; got "${raw}"`);
  return Number(raw);
}

/** A seed for CONFORMANCE_SEED=random. */
export const drawnSeed = (): number => Math.floor(Math.random() * 2 ** 31);

/** CONFORMANCE_RATE_LIMIT_HEADERS; unset: Retry-After where a limit is documented, else none. */
const rateLimitHeaders = (env: Env): string[] =>
  (env.CONFORMANCE_RATE_LIMIT_HEADERS ?? (env.CONFORMANCE_RATE_LIMIT ? 'Retry-After' : ''))
    .split(',')
    .map((header) => header.trim())
    .filter(Boolean);

// ---------------------------------------------------------------- webhooks and rate limits on real targets

export interface WebhookSettings {
  /** CONFORMANCE_WEBHOOK_LISTEN: where the suite's receiver listens for the whole run (remote targets). */
  listen?: { host: string; port: number };
  /** CONFORMANCE_WEBHOOK_PUBLIC_URL: the URL the team registered with the service; it reaches `listen`. */
  publicUrl?: string;
  /**
   * CONFORMANCE_WEBHOOK_WAIT_S: how long a check waits for a webhook, and for none after a revocation
   * (default 3 s on the embedded sandbox, which delivers at once; 10 s elsewhere).
   */
  waitSeconds: number;
  signature: SignatureScheme;
}

/**
 * The webhook signature scheme: CONFORMANCE_SIGNATURE_HEADER (default Service-Signed),
 * CONFORMANCE_SIGNATURE_ALGORITHM (sha256), CONFORMANCE_SIGNATURE_ENCODING (hex or base64) and
 * CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER (a header whose value is signed before the body; unset: the body).
 * Shared by the webhook checks and `npm run verify-webhook`.
 */
export function signatureScheme(env: Env): SignatureScheme {
  const algorithm = env.CONFORMANCE_SIGNATURE_ALGORITHM || DEFAULT_SIGNATURE_SCHEME.algorithm;
  try {
    assertAlgorithm(algorithm);
  } catch (error) {
    throw new ConfigError('CONFORMANCE_SIGNATURE_ALGORITHM', (error as Error).message);
  }
  const variables = [
    'CONFORMANCE_SIGNATURE_HEADER',
    'CONFORMANCE_SIGNATURE_ALGORITHM',
    'CONFORMANCE_SIGNATURE_ENCODING',
    'CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER',
  ];
  return {
    header: env.CONFORMANCE_SIGNATURE_HEADER || DEFAULT_SIGNATURE_SCHEME.header,
    algorithm: algorithm.toLowerCase(),
    encoding: oneOf(env, 'CONFORMANCE_SIGNATURE_ENCODING', SIGNATURE_ENCODINGS, 'hex'),
    ...(env.CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER
      ? { timestampHeader: env.CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER }
      : {}),
    configured: variables.some((variable) => !!env[variable]),
  };
}

function listenAddress(env: Env): WebhookSettings['listen'] {
  const raw = env.CONFORMANCE_WEBHOOK_LISTEN;
  if (!raw) return undefined;
  const match = /^(\[[0-9a-f:.]+\]|[^:\s]+):(\d{1,5})$/i.exec(raw);
  const port = Number(match?.[2]);
  if (!match?.[1] || port > 65535)
    throw new ConfigError('CONFORMANCE_WEBHOOK_LISTEN', `must be HOST:PORT, e.g. 0.0.0.0:8787; got "${raw}"`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

function webhookSettings(env: Env, target: TargetKind): WebhookSettings {
  const receiver = group(env, {
    listen: 'CONFORMANCE_WEBHOOK_LISTEN',
    publicUrl: 'CONFORMANCE_WEBHOOK_PUBLIC_URL',
  });
  return {
    ...(receiver
      ? { listen: listenAddress(env), publicUrl: url(env, 'CONFORMANCE_WEBHOOK_PUBLIC_URL') }
      : {}),
    waitSeconds: positiveInteger(env, 'CONFORMANCE_WEBHOOK_WAIT_S', target === 'sandbox' ? 3 : 10),
    signature: signatureScheme(env),
  };
}

function capabilitiesOf(target: TargetKind, config: Omit<SuiteConfig, 'capabilities'>): Set<Capability> {
  if (target === 'prism') return new Set();
  const capabilities = new Set<Capability>(['stateful', 'real-auth', 'scopes']);
  if (config.userLogin) capabilities.add('user-login');
  if (config.secondUser && config.userLogin) capabilities.add('second-user');
  if (config.partnerA) capabilities.add('partner');
  if (config.partnerB) capabilities.add('second-partner');
  // A configured limit, or the one the target announces in its response headers (read by the check).
  capabilities.add('rate-limit');
  if (config.webhooks.publicUrl) capabilities.add('webhooks');
  const { expiredUserToken, expiredPartnerToken, storeHasExpired } = config.auth;
  if ((expiredUserToken || storeHasExpired.user) && config.userLogin) capabilities.add('expired-user-token');
  if ((expiredPartnerToken || storeHasExpired.partner) && config.partnerA)
    capabilities.add('expired-partner-token');
  if (target === 'sandbox') {
    for (const capability of [
      'expired-user-token',
      'expired-partner-token',
      'webhooks',
      'sandbox-admin',
      'request-count',
      'own-rate-limit',
    ] as const) {
      capabilities.add(capability);
    }
  }
  return capabilities;
}

/** The configuration of a process environment (default: this process's) and the env file it names. */
export const loadConfig = (rawEnv?: Env): SuiteConfig => configOf(resolveEnvironment(rawEnv));

/** The configuration of resolved variables (src/config/run-manifest.ts resolves them once per run). */
export function configOf(env: Env): SuiteConfig {
  const baseUrl = url(env, 'CONFORMANCE_BASE_URL');
  const target = oneOf(
    env,
    'CONFORMANCE_TARGET',
    ['sandbox', 'prism', 'remote'] as const,
    baseUrl ? 'remote' : 'sandbox',
  );
  if (!baseUrl) {
    throw new ConfigError(
      'CONFORMANCE_BASE_URL',
      target === 'remote'
        ? 'is required for a remote target (the service root, with the /developer prefix)'
        : 'is not set: the embedded target was not started (run the suite with `npm run conformance`)',
    );
  }
  const prismProxy = env.CONFORMANCE_PRISM_PROXY === '1';
  if (prismProxy && target === 'prism') {
    throw new ConfigError(
      'CONFORMANCE_PRISM_PROXY',
      'validates exchanges with a real target; it cannot be combined with CONFORMANCE_TARGET=prism',
    );
  }
  const login = group(env, {
    clientId: 'CONFORMANCE_CLIENT_ID',
    clientSecret: 'CONFORMANCE_CLIENT_SECRET',
    redirectUri: 'CONFORMANCE_REDIRECT_URI',
    username: 'CONFORMANCE_USER',
    password: 'CONFORMANCE_PASSWORD',
  });
  const tokens = userTokens(env);
  if (target !== 'prism' && !login && !tokens) {
    throw new ConfigError(
      'CONFORMANCE_CLIENT_ID',
      'and the other user OAuth variables (CONFORMANCE_CLIENT_SECRET, CONFORMANCE_REDIRECT_URI, CONFORMANCE_USER, CONFORMANCE_PASSWORD) are required, or pre-issued tokens in CONFORMANCE_USER_TOKENS',
    );
  }
  const partnerA = group(env, {
    clientId: 'CONFORMANCE_PARTNER_A_CLIENT_ID',
    clientSecret: 'CONFORMANCE_PARTNER_A_CLIENT_SECRET',
  });
  const partnerB = group(env, {
    clientId: 'CONFORMANCE_PARTNER_B_CLIENT_ID',
    clientSecret: 'CONFORMANCE_PARTNER_B_CLIENT_SECRET',
  });
  if (partnerB && !partnerA) {
    throw new ConfigError(
      'CONFORMANCE_PARTNER_A_CLIENT_ID',
      'is required when partner B is configured (ownership tests need both)',
    );
  }
  if (partnerA && partnerB && partnerA.clientId === partnerB.clientId) {
    throw new ConfigError(
      'CONFORMANCE_PARTNER_B_CLIENT_ID',
      'must name a different partner from CONFORMANCE_PARTNER_A_CLIENT_ID',
    );
  }
  const secondUser = group(env, { username: 'CONFORMANCE_USER_B', password: 'CONFORMANCE_PASSWORD_B' });
  const authUrl = url(env, 'CONFORMANCE_AUTH_URL') ?? new URL(baseUrl).origin;
  const config: Omit<SuiteConfig, 'capabilities'> = {
    target,
    baseUrl,
    authUrl,
    environment: oneOf(
      env,
      'CONFORMANCE_ENVIRONMENT',
      ['production', 'non-production'] as const,
      'non-production',
    ),
    profile: profileOf(env),
    userLogin: login,
    secondUser,
    userTokens: tokens,
    partnerA,
    partnerB,
    productionBaseUrl: url(env, 'CONFORMANCE_PRODUCTION_BASE_URL'),
    partnerRequisitionIds: uuidList(env, 'CONFORMANCE_PARTNER_REQUISITION_IDS'),
    signingSecret: env.CONFORMANCE_PARTNER_SIGNING_SECRET || undefined,
    webhooks: webhookSettings(env, target),
    requestBudget: positiveInteger(env, 'CONFORMANCE_REQUEST_BUDGET', 60),
    requestTimeoutMs: positiveInteger(env, 'CONFORMANCE_REQUEST_TIMEOUT_MS', 10_000),
    unansweredBudget: positiveInteger(env, 'CONFORMANCE_UNANSWERED_BUDGET', 5),
    propertySeed: propertySeed(env),
    insufficientScopeStatuses: env.CONFORMANCE_ACCEPT_403 === '1' ? [401, 403] : [401],
    rateLimit: rateLimit(env),
    rateLimitHeaders: rateLimitHeaders(env),
    rateLimitBudget: positiveInteger(env, 'CONFORMANCE_RATE_LIMIT_BUDGET', 1000),
    expectationsFile: env.CONFORMANCE_EXPECTATIONS || undefined,
    prismProxy,
    strict: flag(env, 'CONFORMANCE_STRICT'),
    allowIncomplete: flag(env, 'CONFORMANCE_ALLOW_INCOMPLETE'),
    latencyBudgets: latencyBudgets(env),
    recordHar: recordHarPath(env),
    baseline: baselinePath(env),
    failOn: failOn(env),
    sandboxFaults: listOf(env, 'CONFORMANCE_SANDBOX_FAULTS'),
    sandboxVariants: listOf(env, 'CONFORMANCE_SANDBOX_VARIANTS'),
    auth: authSettings(env, { baseUrl, authUrl, userLogin: login, partnerA }),
  };
  return { ...config, capabilities: capabilitiesOf(target, config) };
}

/** The run options of resolved variables: the Playwright configuration's part of the resolution. */
export const runOptions = (env: Env): RunOptions => ({
  profile: profileOf(env),
  grep: env.CONFORMANCE_GREP || undefined,
  // A smoke run's few requests do not pay for a second worker's start.
  workers: positiveInteger(env, 'CONFORMANCE_WORKERS', profileOf(env) === 'smoke' ? 1 : 2),
  runTimeoutSeconds: positiveInteger(env, 'CONFORMANCE_RUN_TIMEOUT_S', 900),
  embeddedSandbox: !env.CONFORMANCE_BASE_URL && env.CONFORMANCE_TARGET !== 'prism',
});

/** What the run runs against: one target, or CONFORMANCE_MATRIX's (src/config/run-plan.ts). */
export const runTargets = (env: Env): TargetSpec[] => targetsOf(env, (variable) => listOf(env, variable));

const profileOf = (env: Env): Profile =>
  oneOf(env, 'CONFORMANCE_PROFILE', ['ci-gate', 'certification', 'smoke'] as const, 'ci-gate');

/** A comma-separated list (empty when unset). */
export const listOf = (env: Env, variable: string): string[] =>
  (env[variable] ?? '').split(',').filter(Boolean);

/** Every secret value of a configuration: registered for redaction, never written (the run manifest refers to it). */
export function secretsOf(config: SuiteConfig): string[] {
  return [
    config.userLogin?.clientSecret,
    config.userLogin?.password,
    config.secondUser?.password,
    config.partnerA?.clientSecret,
    config.partnerB?.clientSecret,
    config.signingSecret,
    ...Object.values(config.userTokens ?? {}),
    config.auth.expiredUserToken,
    config.auth.expiredPartnerToken,
  ].filter((secret): secret is string => !!secret);
}

// Recorded traffic and baseline (README, "Recorded traffic").
/** CONFORMANCE_RECORD_HAR: the file the run writes a HAR 1.2 of its exchanges to (undefined: none). */
const recordHarPath = (env: Env): string | undefined =>
  env.CONFORMANCE_RECORD_HAR ? resolve(env.CONFORMANCE_RECORD_HAR) : undefined;
/** CONFORMANCE_BASELINE: a previous run's conformance.json, compared with this run's. */
export const baselinePath = (env: Env): string | undefined =>
  env.CONFORMANCE_BASELINE ? resolve(env.CONFORMANCE_BASELINE) : undefined;
/** CONFORMANCE_FAIL_ON: `any` (default) or `new` (the exit status reflects only new failures). */
export const failOn = (env: Env): FailOn => oneOf(env, 'CONFORMANCE_FAIL_ON', ['any', 'new'] as const, 'any');

/** Per-operation p95 budgets in milliseconds; `*` applies to every operation not named. */
export type LatencyBudgets = Readonly<Record<string, number>>;

/** CONFORMANCE_LATENCY_BUDGET, e.g. `listCycles=800,*=1500` (empty: no budget). */
export function latencyBudgets(env: Env): LatencyBudgets {
  const raw = env.CONFORMANCE_LATENCY_BUDGET;
  if (!raw) return {};
  const budgets: Record<string, number> = {};
  for (const item of raw.split(',').map((part) => part.trim())) {
    const match = /^([A-Za-z]+|\*)=([1-9]\d*)$/.exec(item);
    if (!match?.[1] || (match[1] !== '*' && !isOperationId(match[1])))
      throw new ConfigError(
        'CONFORMANCE_LATENCY_BUDGET',
        `must be OPERATION=MS pairs (an operationId of specs/openapi.yaml or *, a positive integer of milliseconds), e.g. listCycles=800,*=1500; got "${item}"`,
      );
    budgets[match[1]] = Number(match[2]);
  }
  return budgets;
}
