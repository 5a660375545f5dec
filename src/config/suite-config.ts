// The shape of the suite's configuration, as ./config.ts resolves it from the variables (./variables.ts)
// and the run manifest carries it to the workers and the reporter.
import type { SignatureScheme } from '../webhooks/signature.ts';
import type { Capability } from './capability.ts';
import type { LatencyBudgets, RateLimitConfig } from './variable-parsers.ts';
import type { ValueOf } from './variables.ts';

export type TargetKind = ValueOf<'CONFORMANCE_TARGET'>;
export type Profile = ValueOf<'CONFORMANCE_PROFILE'>;
export type Environment = ValueOf<'CONFORMANCE_ENVIRONMENT'>;
export type FailOn = ValueOf<'CONFORMANCE_FAIL_ON'>;
/** How the OAuth client authenticates at the user token endpoint (RFC 6749 §2.3.1). */
export type ClientAuthMethod = ValueOf<'CONFORMANCE_CLIENT_AUTH'>;

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
  /** The suite's webhook receiver and the signature scheme (docs/sign-in.md, "Webhooks"). */
  webhooks: WebhookSettings;
  requestBudget: number;
  /**
   * CONFORMANCE_REQUEST_TIMEOUT_MS: how long one request may wait for its complete response; undefined:
   * learned from the target's answers (src/http/request-timeout.ts).
   */
  requestTimeoutMs?: number;
  /** CONFORMANCE_UNANSWERED_BUDGET: requests of the run left unanswered before the run stops sending. */
  unansweredBudget: number;
  /** CONFORMANCE_SEED: the fast-check seed of every property (fixed by default; `random`: drawn per run). */
  propertySeed: number;
  /** CONFORMANCE_DEPTH: `auto`, or the depth plan pinned (src/config/depth-plan.ts). */
  depth: ValueOf<'CONFORMANCE_DEPTH'>;
  /** CONFORMANCE_EXPLORE=1: a new seed per run, failures shrunk and added to the failure store. */
  explore: boolean;
  /** CONFORMANCE_FAILURE_STORE: every seed and counterexample that ever failed, replayed first by every run. */
  failureStore: string;
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
  /** How the suite gets and keeps tokens on a real target (docs/sign-in.md). */
  auth: AuthSettings;
  capabilities: ReadonlySet<Capability>;
}

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

export interface AuthSettings {
  /** CONFORMANCE_TOKEN_STORE: the token store `npm run login` fills (outside reports/). */
  tokenStore?: string;
  /** CONFORMANCE_SIGN_IN: how a user signs in: `browser` (Chromium; remote targets) or `form` (HTTP form filler). */
  signIn: ValueOf<'CONFORMANCE_SIGN_IN'>;
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
  storeHasExpired: StoreExpiries;
  /** CONFORMANCE_PARTNER_SCOPE, CONFORMANCE_PARTNER_GRANT_TYPE: the partner token request's values (the seed's). */
  partnerScope: string;
  partnerGrantType: string;
}

export interface StoreExpiries {
  user: boolean;
  partner: boolean;
}

/** Whose tokens a token store is asked about. */
export type TokenOwners = Pick<SuiteConfig, 'baseUrl' | 'authUrl' | 'userLogin' | 'partnerA'>;

/** Reads a token store for expired tokens of the owners (src/auth/expired-tokens.ts: config reads no store). */
export type ReadStoreExpiries = (tokenStore: string, owners: TokenOwners) => StoreExpiries;

export interface WebhookSettings {
  /** CONFORMANCE_WEBHOOK_LISTEN: where the suite's receiver listens for the whole run (remote targets). */
  listen?: { host: string; port: number };
  /** CONFORMANCE_WEBHOOK_PUBLIC_URL: the URL the team registered with the service; it reaches `listen`. */
  publicUrl?: string;
  /** CONFORMANCE_WEBHOOK_WAIT_S: how long a check waits for a webhook, and for none after a revocation. */
  waitSeconds: number;
  signature: SignatureScheme;
}
