// The suite's HTTP client: every request of every test goes through it, so that requests are counted
// (and budgeted), paced by the rate budget of their credential, guarded by the profile, and recorded for
// the report. A 429 means "later": the request is sent again once the announced reset has passed, until the
// judge of 429s (rate-limited.ts) ends it; a request the run cannot afford (a wait past its deadline, a
// target that stopped answering) is refused with a RequestRefused, never sent.
import { createExchange, type Exchange, type SentRequest } from './exchange.ts';
import { type FormFields, formBody } from './form-body.ts';
import type { Pacer } from './pacer.ts';
import { observationOf } from './rate-budget.ts';
import { announcedRateLimit } from './rate-limit-headers.ts';
import { boundedRetries, type RateLimitedAnswer, type RateLimitJudge } from './rate-limited.ts';
import { registerIssuedTokens } from './redact.ts';
import type { RequestCounter, UnansweredRequests } from './request-counter.ts';
import { RequestRefused } from './request-refused.ts';
import {
  fixedTimeouts,
  learnedTimeouts,
  methodAndPath,
  type RequestTimeouts,
  type Timeout,
} from './request-timeout.ts';
import { type Transport, TransportError, type TransportResponse } from './transport.ts';
import { TransportFailure } from './transport-failure.ts';

export interface ApiRequest {
  method?: string;
  /** A path under the base URL (`/v2/cycle`), or an absolute URL. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Bearer token; omitted means no Authorization header. */
  token?: string;
  headers?: Record<string, string>;
  /** JSON body (serialised) */
  json?: unknown;
  /** Raw body, sent as is (with the content-type given in headers). */
  body?: string;
  /** Form-encoded body: name/value pairs in order (names may repeat), or one value a name. */
  form?: FormFields;
  /** Sent at once, unpaced, and a 429 is returned to the caller instead of being waited out (the 429 burst). */
  noRetry?: boolean;
  /** The credential whose rate budget the request draws on (default: the user OAuth client). */
  credential?: string;
  maxRedirects?: number;
}

/** Decides whether a request may be sent, with its bearer token; throws to refuse (profile guards). */
export type RequestGuard = (method: string, url: URL, token?: string) => void;

export interface ApiClientOptions {
  baseUrl: string;
  /** The rate budgets of the run (or of this process) and its request counter (the run's count and budget). */
  pacer: Pacer;
  requests: RequestCounter;
  /** The run's count of requests that got no answer: once its budget is spent, nothing more is sent. */
  unanswered?: UnansweredRequests;
  /** Told of every wait for the rate limit before it starts (a test's timeout grows by it). */
  onWait?: (waitMs: number, reason: string) => void;
  /** Told of a refusal before it is thrown (the suite keeps it: the test it ends is not verified by it). */
  onRefused?: (refusal: RequestRefused) => void;
  /** Decides, after each 429 of a request, whether to send it again (default: boundedRetries). */
  rateLimited?: RateLimitJudge;
  guard?: RequestGuard;
  /** Receives every exchange (the per-test recorder). */
  onExchange?: (exchange: Exchange) => void;
  /** CONFORMANCE_REQUEST_TIMEOUT_MS: a request without an answer by then fails (undefined: learned). */
  timeoutMs?: number;
  /** Where the timeout is learned, when timeoutMs is not set (default: from this client's own answers). */
  timeouts?: RequestTimeouts;
  /** What a request left without an answer throws (default: its TransportFailure). */
  unansweredError?: (failure: TransportFailure) => Error;
  /** On a 401 to a request with a token: a new token to send it again with, once (undefined: none). */
  renewToken?: (token: string, refusal: Exchange) => Promise<string | undefined>;
  /**
   * The token to send now in place of the request's, asked as each attempt goes out, after any wait: a token
   * the run keeps is renewed by its stated expiry (src/auth/token-lifetimes.ts). Default: the request's.
   */
  currentToken?: (token: string, api: ApiClient) => Promise<string>;
}

/** The rate budget of the user OAuth client's requests: every request that names no other credential. */
export const USER_CREDENTIAL = 'user';

/** The rate budget of a partner client's requests: the target limits each partner client apart. */
export const partnerCredential = (clientId: string): string => `partner ${clientId}`;

export class ApiClient {
  private readonly options: ApiClientOptions & { timeouts: RequestTimeouts };

  constructor(
    private readonly transport: Transport,
    options: ApiClientOptions,
  ) {
    // Made once: every client derived from this one (withOptions) learns from the same answers.
    const timeouts =
      options.timeoutMs === undefined
        ? (options.timeouts ?? learnedTimeouts(methodAndPath))
        : fixedTimeouts(options.timeoutMs);
    this.options = { ...options, timeouts };
  }

  /** The same client with some options replaced (e.g. a per-test recorder and guard). */
  withOptions(options: Partial<ApiClientOptions>): ApiClient {
    return new ApiClient(this.transport, { ...this.options, ...options });
  }

  url(path: string, query?: ApiRequest['query']): URL {
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.options.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    return url;
  }

  async send(request: ApiRequest): Promise<Exchange> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = this.url(request.path, request.query);
    this.options.guard?.(method, url, request.token);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
    let body = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] ??= 'application/json';
    } else if (request.form) {
      body = formBody(request.form);
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const asked: SentRequest = { method, url: url.toString(), headers, body };
    const credential = request.credential ?? USER_CREDENTIAL;
    const answers: RateLimitedAnswer[] = [];
    for (;;) {
      if (!request.noRetry) await this.waitForTurn(asked, credential, answers);
      this.refuseWhenUnanswered(asked);
      const { sent, token } = await this.withCurrentToken(asked, request.token);
      this.options.requests.count(credential, sent.url);
      // Learned before the clock starts: asking the run's coordinator is no part of the target's latency.
      const timeout = await this.options.timeouts.timeoutFor(sent);
      const startedAt = new Date();
      const started = performance.now();
      const response = await this.roundTrip(sent, request.maxRedirects ?? 0, timeout);
      const timing = { startedAt: startedAt.toISOString(), durationMs: performance.now() - started };
      this.options.timeouts.answered(sent, timing.durationMs);
      const exchange = createExchange(sent, response.status, response.headers, response.text, timing);
      this.options.onExchange?.(exchange);
      const announced = announcedRateLimit(exchange.headers);
      const seen = observationOf(exchange.status, announced);
      if (exchange.status !== 429 || request.noRetry) {
        this.options.pacer.observe(credential, seen);
        return this.renewed({ ...request, token }, exchange);
      }
      answers.push({ exchange, announced, at: Date.now() });
      const stop = await this.judge(credential, answers);
      // A 429 the request ends on is no sign of the budget: the others do not wait for it.
      this.options.pacer.observe(credential, stop ? { ...seen, judged: true } : seen);
      if (stop) this.end(stop);
      this.options.requests.rateLimited();
    }
  }

  /** The request as it goes out now: with the token to send in place of `token` (see currentToken). */
  private async withCurrentToken(
    sent: SentRequest,
    token: string | undefined,
  ): Promise<{ sent: SentRequest; token: string | undefined }> {
    const { currentToken } = this.options;
    if (token === undefined || !currentToken) return { sent, token };
    const now = await currentToken(token, this);
    if (now === token) return { sent, token };
    return { sent: { ...sent, headers: { ...sent.headers, authorization: `Bearer ${now}` } }, token: now };
  }

  private judge(credential: string, answers: readonly RateLimitedAnswer[], cannotWait?: string) {
    return (this.options.rateLimited ?? boundedRetries)(credential, answers, cannotWait);
  }

  /** Waits for the credential's turn; a wait the run cannot make ends the request (after a 429, as judged). */
  private async waitForTurn(
    sent: SentRequest,
    credential: string,
    answers: readonly RateLimitedAnswer[],
  ): Promise<void> {
    const refusal = await this.options.pacer.turn(credential, (waitMs, reason) =>
      this.options.onWait?.(waitMs, `${reason} (${sent.method} ${new URL(sent.url).pathname})`),
    );
    if (!refusal) return;
    const stop = answers.length > 0 ? await this.judge(credential, answers, refusal.reason) : undefined;
    this.end(stop ?? new RequestRefused(sent, refusal.reason));
  }

  private refuseWhenUnanswered(sent: SentRequest): void {
    const spent = this.options.unanswered?.spent();
    if (spent) this.refuse(new RequestRefused(sent, spent));
  }

  private refuse(refusal: RequestRefused): never {
    this.options.onRefused?.(refusal);
    throw refusal;
  }

  /** Ends a request the judge of 429s stopped: a refusal as any, a failure of the target thrown as it is. */
  private end(error: Error): never {
    if (error instanceof RequestRefused) this.refuse(error);
    throw error;
  }

  /** The exchange, or after a 401 the request sent again with a renewed token (see renewToken). */
  private async renewed(request: ApiRequest, exchange: Exchange): Promise<Exchange> {
    const { renewToken } = this.options;
    if (exchange.status !== 401 || request.token === undefined || !renewToken) return exchange;
    const token = await renewToken(request.token, exchange);
    if (token === undefined) return exchange;
    return this.withOptions({ renewToken: undefined }).send({ ...request, token });
  }

  /**
   * One round trip. Tokens in the body are registered as secrets before anything parses it (a truncated
   * token response is redacted too); a request without a complete response throws a TransportFailure, one
   * left without any answer what `unansweredError` makes of it.
   */
  private async roundTrip(
    sent: SentRequest,
    maxRedirects: number,
    timeout: Timeout,
  ): Promise<TransportResponse> {
    const { unanswered, unansweredError } = this.options;
    try {
      const response = await this.transport.send({ ...sent, maxRedirects, timeoutMs: timeout.ms });
      registerIssuedTokens(response.text);
      return response;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!(error instanceof TransportError && error.timedOut)) throw new TransportFailure(sent, reason);
      unanswered?.record(timeout.ms);
      const failure = new TransportFailure(sent, `no response: ${reason} (${timeout.how})`);
      throw unansweredError ? unansweredError(failure) : failure;
    }
  }
}
