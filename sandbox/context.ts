// Shared state and options of one running sandbox instance. The user-data side (sandbox/user, sandbox/oauth)
// and the partner side (sandbox/partner) both receive this object; nothing else is global.
import type { SandboxCredentials } from './credentials.ts';
import type { FaultName } from './faults/index.ts';
import type { LoginPage } from './oauth/login-pages.ts';
import type { FixedWindowRateLimiter, RateLimitHeaderStyle, RateLimitPolicy } from './rate-limit.ts';
import type { VariantName } from './variants.ts';

export type Environment = 'production' | 'non-production';

export interface SandboxOptions {
  host: string;
  port: number;
  environment: Environment;
  /** Seed of the deterministic data generator. */
  seed: number;
  /** The policies every client is limited by (rate-limit.ts; the variant production-rate-limits sets its own). */
  rateLimit: readonly RateLimitPolicy[];
  /** How the limit is announced: X-RateLimit-* with Retry-After on a 429, production's, or production's without its window (rate-limit.ts). */
  rateLimitHeaders: Exclude<RateLimitHeaderStyle, 'ietf'>;
  faults: ReadonlySet<FaultName>;
  /** Conforming variants (sandbox/variants.ts): behaviours the seed allows; combinable with faults. */
  variants: ReadonlySet<VariantName>;
  logRequests: boolean;
  /** Clock; injectable so tests can move time (token expiry, rate-limit windows). */
  now: () => Date;
  /**
   * The instant (ms) the generated history is built up to; default: start-up (on the instance's clock).
   * Instances of a process with the same epoch, seed and data faults share their data (sandbox/user/services.ts).
   */
  dataEpoch?: number;
  /**
   * How many days of history each user has at least (default 150; `--history-days`, variant long-history:
   * about three years), so that a run's request count can be held flat however long the account's history.
   */
  historyDays: number;
  /**
   * A real authorization server's sign-in (sandbox/oauth): a script-rendered login form with a CSRF token,
   * a consent step, and client authentication by HTTP Basic only. Off: the plain HTML form of the embedded run.
   */
  realisticLogin: boolean;
  /**
   * The served sign-in page otherwise (sandbox/oauth/login-pages.ts): plain (default), french, consent (a
   * login, then a consent page with an icon allow button), enter-only (no button), identifier-first,
   * second-factor (sandbox/oauth/login-pages.ts).
   */
  loginPage: LoginPage;
  /**
   * The plain login page asks for a captcha too from this sign-in on (1: from the first), as a server does
   * that grows wary of a user signing in again and again; undefined: never.
   */
  captchaFromSignIn?: number;
  /**
   * The users (usernames) the plain login page asks for a captcha too, once their username is posted, as a
   * server does that grows wary of one account; undefined: none.
   */
  captchaFor?: readonly string[];
  /** The sign-in from which the faults that break the sign-in mid-run break it (default 2: the second). */
  brokenFromSignIn?: number;
  /**
   * Fault partner-token-429 refuses each known client's first this many token requests with its right secret,
   * then issues tokens (2: the preflight's request and the one it sends again after the wait); undefined: every
   * request.
   */
  partnerTokenRefusals?: number;
  /** Serve HTTPS with this key and certificate (PEM), e.g. issued by a private CA; undefined: HTTP. */
  tls?: { key: string; cert: string };
  /** Lifetime of the user and partner access tokens issued without sandbox_expires_in (default 3600 s). */
  tokenLifetimeSeconds: number;
  /** Every this many ms each user's data changes on its own (a webhook to each registered client); 0: never. */
  userActivityMs: number;
  /** How late the faults late-first-copy-* send their wrong first answer (default 12 s: past any resend mark). */
  lateFirstCopyMs?: number;
}

export interface WebhookSender {
  /**
   * Sends a webhook to every URL registered by `owner`, signed with `signingSecret` (header Service-Signed);
   * without a secret (fault webhook-signature-missing) the header is left out.
   */
  send(owner: string, signingSecret: string | undefined, event: unknown): void;
  /** Registers `url` to receive the webhooks of `owner` (an OAuth client id or a partner client id). */
  register(owner: string, url: string): void;
  /** Removes every URL registered by `owner`. */
  unregister(owner: string): void;
  /** The URLs registered by `owner`. */
  urls(owner: string): readonly string[];
}

export interface SandboxContext {
  options: SandboxOptions;
  fault(name: FaultName): boolean;
  variant(name: VariantName): boolean;
  webhooks: WebhookSender;
  /** The fixed credentials of sandbox/sandbox.env (OAuth client, test users, partners). */
  credentials: SandboxCredentials;
  /** One fixed-window limiter per instance; keys are client ids (see rate-limit.ts `rateLimitHook`). */
  rateLimiter: FixedWindowRateLimiter;
  /** The headers announcing the limit: the option's, unless a variant says otherwise. */
  rateLimitStyle: RateLimitHeaderStyle;
}
