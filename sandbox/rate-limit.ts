// Fixed-window rate limiting per client (OAuth client of the user API, partner client of the partner API).
// The seed only says "Requests over the rate limit get 429" (values and windows not shown); the sandbox
// defaults to 2000 requests per 60 s per client, configurable with --rate-limit N/SECONDS.
//
// Every limited response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds
// until the window resets); a 429 also carries Retry-After (seconds). Under the variant
// ietf-rate-limit-headers they are the IETF fields instead (draft-ietf-httpapi-ratelimit-headers):
// RateLimit-Policy: "default";q=<limit>;w=<window seconds> and RateLimit: "default";r=<remaining>;t=<reset>.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window of this key resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/** What a request is counted against: a key, and the limit of that key when it is not the instance's. */
export type RateLimitKey = string | { key: string; config: RateLimitConfig };

export class FixedWindowRateLimiter {
  readonly #windows = new Map<string, Window>();

  constructor(
    readonly config: RateLimitConfig,
    private readonly now: () => Date,
  ) {}

  /** Counts one request of `key` and says whether it is within the limit (the instance's, or the key's). */
  take(key: string, config: RateLimitConfig = this.config): RateLimitDecision {
    const now = this.now().getTime();
    const windowMs = config.windowSeconds * 1000;
    let window = this.#windows.get(key);
    if (!window || now >= window.startedAt + windowMs || now < window.startedAt) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    const { limit } = config;
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000)),
      windowSeconds: config.windowSeconds,
    };
  }
}

export interface RateLimitHookOptions {
  /** Fault injection: never answer 429. */
  never429?: boolean;
  /** Variant ietf-rate-limit-headers: the IETF RateLimit and RateLimit-Policy fields instead of X-RateLimit-*. */
  ietfHeaders?: boolean;
}

export function rateLimitHeaders(decision: RateLimitDecision, ietf = false): Record<string, string> {
  if (ietf)
    return {
      'ratelimit-policy': `"default";q=${decision.limit};w=${decision.windowSeconds}`,
      ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    };
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}

/**
 * A Fastify hook (onRequest or preHandler) that counts the request in `limiter` (the instance's one, see
 * SandboxContext) against the key `keyOf` returns (the authenticated client id; undefined skips limiting,
 * e.g. for requests that failed authentication), sets the X-RateLimit-* headers and answers 429 over the
 * limit. Register it after the authentication hook.
 */
export function rateLimitHook(
  limiter: FixedWindowRateLimiter,
  keyOf: (request: FastifyRequest) => RateLimitKey | undefined,
  options: RateLimitHookOptions = {},
): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(request);
    if (key === undefined) return;
    const decision = typeof key === 'string' ? limiter.take(key) : limiter.take(key.key, key.config);
    const headers = rateLimitHeaders(decision, options.ietfHeaders);
    if (decision.allowed || options.never429) {
      reply.headers(headers);
      return;
    }
    reply.headers({ ...headers, 'retry-after': String(decision.resetSeconds) });
    reply
      .code(429)
      .send({ error: 'rate_limited', message: `Over the rate limit of ${decision.limit} requests` });
    return reply;
  };
}
