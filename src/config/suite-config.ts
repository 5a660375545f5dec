// The shape of the suite's configuration, as ./config.ts resolves it from the variables (./variables.ts)
// and the run manifest carries it to the workers and the reporter. A field that holds a variable names it;
// what the variable means is said once, at its row of ./variables.ts.
import type { SignatureScheme } from '../http/webhook-signature.ts';
import type { Capability } from './capabilities.ts';
import type { Profile } from './profiles.ts';
import type { LatencyBudgets, RateLimitConfig } from './variable-parsers.ts';
import type { ValueOf } from './variables.ts';

export type TargetKind = ValueOf<'CONFORMANCE_TARGET'>;
export type { Profile };
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
  /** CONFORMANCE_PRODUCTION_BASE_URL */
  productionBaseUrl?: string;
  /** Requisitions owned by partner A, for partner checks where test data cannot be generated (production). */
  partnerRequisitionIds?: string[];
  signingSecret?: string;
  /** The suite's webhook receiver and the signature scheme (docs/sign-in.md, "Webhooks"). */
  webhooks: WebhookSettings;
  requestBudget: number;
  /** CONFORMANCE_REQUEST_TIMEOUT_MS */
  requestTimeoutMs?: number;
  /** CONFORMANCE_UNANSWERED_BUDGET */
  unansweredBudget: number;
  /** CONFORMANCE_SEED */
  propertySeed: number;
  /** CONFORMANCE_DEPTH: `auto`, or the depth plan pinned (src/config/depth-plan.ts). */
  depth: ValueOf<'CONFORMANCE_DEPTH'>;
  /** CONFORMANCE_EXPLORE=1: a new seed per run, failures shrunk and added to the failure store. */
  explore: boolean;
  /** CONFORMANCE_FAILURE_STORE: every seed and counterexample that ever failed, replayed first by every run. */
  failureStore: string;
  /** Statuses accepted for a token that lacks the operation's scope (the seed says 401). */
  insufficientScopeStatuses: number[];
  /** CONFORMANCE_RATE_LIMIT */
  rateLimit?: RateLimitConfig;
  /** CONFORMANCE_RATE_LIMIT_HEADERS */
  rateLimitHeaders: string[];
  /** CONFORMANCE_RATE_LIMIT_BUDGET */
  rateLimitBudget: number;
  expectationsFile?: string;
  /** CONFORMANCE_SIGNING_KEY_FILE */
  signingKeyFile?: string;
  prismProxy: boolean;
  /** CONFORMANCE_STRICT */
  strict: boolean;
  /** CONFORMANCE_ALLOW_INCOMPLETE */
  allowIncomplete: boolean;
  /** CONFORMANCE_LATENCY_BUDGET: the p95 (ms) the team allows, per operationId or `*`. */
  latencyBudgets: LatencyBudgets;
  /** CONFORMANCE_RECORD_HAR */
  recordHar?: string;
  /** CONFORMANCE_BASELINE */
  baseline?: string;
  /** CONFORMANCE_FAIL_ON */
  failOn: FailOn;
  /** CONFORMANCE_SANDBOX_FAULTS */
  sandboxFaults: readonly string[];
  /** CONFORMANCE_SANDBOX_VARIANTS */
  sandboxVariants: readonly string[];
  /** How the suite gets and keeps tokens on a real target (docs/sign-in.md). */
  auth: AuthSettings;
  capabilities: ReadonlySet<Capability>;
}

/** What the Playwright configuration needs before any target is started (playwright.config.ts). */
export interface RunOptions {
  profile: Profile;
  /** CONFORMANCE_GREP */
  grep?: string;
  /** CONFORMANCE_WORKERS */
  workers: number;
  /** CONFORMANCE_RUN_TIMEOUT_S */
  runTimeoutSeconds: number;
  /** Whether the run starts the embedded sandbox (no CONFORMANCE_BASE_URL, not Prism). */
  embeddedSandbox: boolean;
}

export interface AuthSettings {
  /** CONFORMANCE_TOKEN_STORE */
  tokenStore?: string;
  /** CONFORMANCE_SIGN_IN */
  signIn: ValueOf<'CONFORMANCE_SIGN_IN'>;
  /** CONFORMANCE_PKCE */
  pkce: boolean;
  /** CONFORMANCE_CLIENT_AUTH */
  clientAuth: ClientAuthMethod;
  /** CONFORMANCE_OFFLINE_SCOPE */
  offlineScope: string;
  /** CONFORMANCE_EXPIRED_USER_TOKEN */
  expiredUserToken?: string;
  /** CONFORMANCE_EXPIRED_PARTNER_TOKEN */
  expiredPartnerToken?: string;
  /**
   * Whether the token store held, when the run started, an access token of user A / partner A whose stated
   * expiry had passed (the token itself is read from the store where it is used: it is no variable's).
   */
  storeHasExpired: StoreExpiries;
  /** CONFORMANCE_PARTNER_SCOPE, CONFORMANCE_PARTNER_GRANT_TYPE */
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
  /** CONFORMANCE_WEBHOOK_LISTEN */
  listen?: { host: string; port: number };
  /** CONFORMANCE_WEBHOOK_PUBLIC_URL */
  publicUrl?: string;
  /** CONFORMANCE_WEBHOOK_WAIT_S */
  waitSeconds: number;
  signature: SignatureScheme;
}
