// Fixed-window rate limiting per client (OAuth client of the user API, partner client of the partner API).
// The seed only says "Requests over the rate limit get 429" (values and windows not shown); the sandbox
// defaults to one policy, 2000 requests per 60 s per client, configurable with --rate-limit N/SECONDS[,...]:
// with several policies (e.g. 100/60,10000/86400) a request is served only when every one allows it, a
// refused request uses up none of them, and the policy with the fewest remaining requests governs what the
// headers say.
//
// Header styles (RateLimitHeaderStyle):
// - default: X-RateLimit-Limit (the governing limit), X-RateLimit-Remaining, X-RateLimit-Reset (seconds
//   until the governing window resets) on every limited response; a 429 also carries Retry-After (seconds);
// - production (--rate-limit-headers production), what a production deployment announces: the same but
//   X-RateLimit-Limit lists every policy after the governing limit, `100, 100;window=60, 10000;window=86400`,
//   and a 429 carries no Retry-After;
// - windowless (--rate-limit-headers windowless, variant rate-limit-without-window): production's without its
//   window, X-RateLimit-Limit the governing limit alone, and no Retry-After on a 429 (a client learns the
//   window from X-RateLimit-Reset);
// - ietf (variant ietf-rate-limit-headers), the IETF fields of draft-ietf-httpapi-ratelimit-headers for the
//   governing policy: RateLimit-Policy: "default";q=<limit>;w=<window> and RateLimit: "default";r=<remaining>;
//   t=<reset>, no X-RateLimit-*; a 429 still carries Retry-After.
// Windows start at a client's first request after the last one closed; variant clock-aligned-rate-limit aligns
// them to the clock instead (each starts at a multiple of its length since the Unix epoch: a 60-s window at
// each minute), so a client's first request may come at any point of one.
// Fault injection: `never429` serves every request; `refuses` answers some 429 whatever the window holds,
// with Retry-After: 1 and the headers still announcing the window's room (a limiter that does not keep
// the limit it announces).
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

/** A production deployment's limits per client: 100 requests per minute and 10,000 per day. */
export const PRODUCTION_RATE_LIMITS: readonly RateLimitPolicy[] = [
  { limit: 100, windowSeconds: 60 },
  { limit: 10_000, windowSeconds: 86_400 },
];

/**
 * The variant production-rate-limits: production's two policies, the short one scaled to 50 per 10 s so a
 * test run meets it (and waits out its windows) within minutes.
 */
export const SCALED_PRODUCTION_RATE_LIMITS: readonly RateLimitPolicy[] = [
  { limit: 50, windowSeconds: 10 },
  { limit: 10_000, windowSeconds: 86_400 },
];

export type RateLimitHeaderStyle = 'default' | 'production' | 'windowless' | 'ietf';

export interface RateLimitDecision {
  allowed: boolean;
  /** The governing policy's limit and window: the policy with the fewest remaining requests. */
  limit: number;
  windowSeconds: number;
  /** What the governing policy has left in its window. */
  remaining: number;
  /** Whole seconds until the governing policy's window resets (at least 1). */
  resetSeconds: number;
  /** Every policy the request was counted against, in configured order. */
  policies: readonly RateLimitPolicy[];
}

interface Window {
  startedAt: number;
  count: number;
}

/** What a request is counted against: a key, and the policies of that key when they are not the instance's. */
export type RateLimitKey = string | { key: string; policies: readonly RateLimitPolicy[] };

export class FixedWindowRateLimiter {
  readonly #windows = new Map<string, Window>();
  /** The requests counted against a client's limit, and against a token's own (sandbox_rate_limit). */
  readonly counted = { client: 0, ownLimit: 0 };
  /** The requests answered 429 over a client's limit, and over a token's own. */
  readonly answered429 = { client: 0, ownLimit: 0 };

  constructor(
    readonly policies: readonly RateLimitPolicy[],
    private readonly now: () => Date,
    /** Windows aligned to the clock (variant clock-aligned-rate-limit), not to a client's first request. */
    private readonly aligned = false,
  ) {
    if (policies.length === 0) throw new Error('a rate limiter needs at least one policy');
  }

  /** The current window of `key` under its `index`th policy, a new one once the last has closed. */
  #window(key: string, index: number, policy: RateLimitPolicy, now: number): Window {
    const id = `${key}\n${index}`;
    const window = this.#windows.get(id);
    const length = policy.windowSeconds * 1000;
    if (window && now >= window.startedAt && now < window.startedAt + length) return window;
    const fresh = { startedAt: this.aligned ? now - (now % length) : now, count: 0 };
    this.#windows.set(id, fresh);
    return fresh;
  }

  /** Counts one request of `key` when every policy (the instance's, or the key's) allows it. */
  take(key: string, policies: readonly RateLimitPolicy[] = this.policies): RateLimitDecision {
    const now = this.now().getTime();
    const windows = policies.map((policy, index) => ({
      policy,
      window: this.#window(key, index, policy, now),
    }));
    const allowed = windows.every(({ policy, window }) => window.count < policy.limit);
    if (allowed) for (const { window } of windows) window.count += 1;
    const states = windows.map(({ policy, window }) => ({
      ...policy,
      remaining: Math.max(0, policy.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + policy.windowSeconds * 1000 - now) / 1000)),
    }));
    // Fewest remaining governs; of equals, the later reset (a 429 lasts until every exhausted window resets).
    const governing = states.reduce((best, state) =>
      state.remaining < best.remaining ||
      (state.remaining === best.remaining && state.resetSeconds > best.resetSeconds)
        ? state
        : best,
    );
    return { allowed, ...governing, policies };
  }
}

export function rateLimitHeaders(
  decision: RateLimitDecision,
  style: RateLimitHeaderStyle,
): Record<string, string> {
  if (style === 'ietf')
    return {
      'ratelimit-policy': `"default";q=${decision.limit};w=${decision.windowSeconds}`,
      ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    };
  const listed = decision.policies.map((policy) => `${policy.limit};window=${policy.windowSeconds}`);
  return {
    'x-ratelimit-limit':
      style === 'production' ? [decision.limit, ...listed].join(', ') : String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}

export interface RateLimitHookOptions {
  /** The headers announcing the limit (see the top of this file). */
  style: RateLimitHeaderStyle;
  /** Fault injection: never answer 429. */
  never429?: boolean;
  /** Fault injection: the requests answered 429 whatever the window holds (Retry-After: 1). */
  refuses?: (request: FastifyRequest) => boolean;
}

/** What the sandbox's refusals answer: a 429 with the body of any, ready again in a second by its word. */
function refuse(
  reply: FastifyReply,
  decision: RateLimitDecision,
  headers: Readonly<Record<string, string | undefined>>,
) {
  reply.headers(headers);
  return reply
    .code(429)
    .send({ error: 'rate_limited', message: `Over the rate limit of ${decision.limit} requests` });
}

/**
 * A Fastify hook (onRequest or preHandler) that counts the request in `limiter` (the instance's one, see
 * SandboxContext) against the key `keyOf` returns (the authenticated client id; undefined skips limiting,
 * e.g. for requests that failed authentication), sets the rate-limit headers and answers 429 over the
 * limit. Register it after the authentication hook.
 */
export function rateLimitHook(
  limiter: FixedWindowRateLimiter,
  keyOf: (request: FastifyRequest) => RateLimitKey | undefined,
  options: RateLimitHookOptions,
): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(request);
    if (key === undefined) return;
    const decision = typeof key === 'string' ? limiter.take(key) : limiter.take(key.key, key.policies);
    const kind = typeof key === 'string' ? 'client' : 'ownLimit';
    limiter.counted[kind] += 1;
    const headers = rateLimitHeaders(decision, options.style);
    if (options.refuses?.(request)) return refuse(reply, decision, { ...headers, 'retry-after': '1' });
    if (decision.allowed || options.never429) {
      reply.headers(headers);
      return;
    }
    // Production (with its window or without) announces the reset in X-RateLimit-Reset only.
    const retryAfter = ['production', 'windowless'].includes(options.style)
      ? {}
      : { 'retry-after': String(decision.resetSeconds) };
    limiter.answered429[kind] += 1;
    return refuse(reply, decision, { ...headers, ...retryAfter });
  };
}
