// The suite's HTTP client: every request of every test goes through it, so that requests are counted
// (and budgeted), paced by the rate budget of their credential, guarded by the profile, and recorded for
// the report. A 429 means "later": the request is sent again once the announced reset has passed, until the
// judge of 429s (rate-limited.ts) ends it; a request the run cannot afford (a wait past its deadline, a
// target that stopped answering, the smoke profile's spent request budget) is refused with a
// RequestRefused, never sent.

import { messageOf } from '../text/error-message.ts';
import { createExchange, type Exchange, type SentRequest } from './exchange.ts';
import { type FormFields, formBody } from './form-body.ts';
import type { Pacer } from './pacer.ts';
import { observationOf } from './rate-budget.ts';
import { announcedRateLimit } from './rate-limit-headers.ts';
import { boundedRetries, type RateLimitedAnswer, type RateLimitJudge } from './rate-limited.ts';
import { registerIssuedTokens } from './redact.ts';
import type { RequestCounter, UnansweredRequests } from './request-counter.ts';
import { RequestRefused } from './request-refused.ts';
import { learnedTimeouts, methodAndPath, type RequestTimeouts, TIMEOUT_RULE } from './request-timeout.ts';
import { type Sending, type SlowRequestTold, sendWithSecond } from './second-sending.ts';
import { type Transport, TransportError } from './transport.ts';
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
  /**
   * A step of the user sign-in (the authorization page and its forms, wherever they post; the user token
   * endpoint): no write of data whatever its method, and outside the smoke profile's request budget.
   */
  signIn?: boolean;
}

/**
 * Decides whether a request may be sent, with its bearer token and whether it is a step of the user sign-in;
 * throws to refuse (profile guards).
 */
export type RequestGuard = (method: string, url: URL, token?: string, signIn?: boolean) => void;

export interface ApiClientOptions {
  baseUrl: string;
  /** The rate budgets of the run (or of this process) and its request counter (the run's count and budget). */
  pacer: Pacer;
  requests: RequestCounter;
  /** The run's count of requests that got no answer: once its budget is spent, nothing more is sent. */
  unanswered?: UnansweredRequests;
  /** Told of every wait of the run's own before it starts, for the rate limit (a test's timeout grows by it). */
  onWait?: (waitMs: number, reason: string) => void;
  /**
   * Told as a request starts waiting for the target's answer, with the longest it may wait (the bound);
   * returns what to call once it has an answer or none: a test's timeout counts none of the target's time.
   */
  onTargetWait?: (atMostMs: number) => () => void;
  /** Decides, after each 429 of a request, whether to send it again (default: boundedRetries). */
  rateLimited?: RateLimitJudge;
  guard?: RequestGuard;
  /** Receives every exchange (the per-test recorder). */
  onExchange?: (exchange: Exchange) => void;
  /** CONFORMANCE_REQUEST_TIMEOUT_MS: the bound, after which a request without an answer is unanswered. */
  timeoutMs?: number;
  /** Where the resend marks are learned (default: from this client's own answers). */
  timeouts?: RequestTimeouts;
  /**
   * Whether a request late or lost may be sent a second time beside the first (`signIn`: a step of the user
   * sign-in): a read (default: none).
   */
  sendsAgain?: (request: SentRequest, signIn: boolean) => boolean;
  /** Told when a request is slow (1 s) or loses its connection; returns who hears what became of it. */
  onSlow?: (request: SentRequest) => SlowRequestTold;
  /** The contract's operation a request is (its operationId; undefined: none), which its exchange names. */
  operationOf?: (request: SentRequest) => string | undefined;
  /** What a request left without an answer (none in time, or its connection lost) throws (default: its TransportFailure). */
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
  /** After it, a request without an answer is unanswered; and how it was set, for the failure that says so. */
  private readonly bound: { ms: number; how: string };

  constructor(
    private readonly transport: Transport,
    options: ApiClientOptions,
  ) {
    // Made once: every client derived from this one (withOptions) learns from the same answers.
    this.options = { ...options, timeouts: options.timeouts ?? learnedTimeouts(methodAndPath) };
    this.bound =
      options.timeoutMs === undefined
        ? {
            ms: TIMEOUT_RULE.boundMs,
            how: 'the bound a production client allows; CONFORMANCE_REQUEST_TIMEOUT_MS sets it',
          }
        : { ms: options.timeoutMs, how: 'CONFORMANCE_REQUEST_TIMEOUT_MS' };
  }

  /** Tells the client's `onWait` of a wait of the run's own outside its requests (a lock its token store holds). */
  waitOfTheRun(waitMs: number, reason: string): void {
    this.options.onWait?.(waitMs, reason);
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
    const signIn = request.signIn === true;
    this.options.guard?.(method, url, request.token, signIn);
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
      this.refuseWhenSpent(asked, signIn);
      const { sent, token } = await this.withCurrentToken(asked, request.token);
      this.options.requests.count(credential, sent.url, signIn);
      const { response, startedAt, durationMs } = await this.answer(sent, request, credential);
      const timing = { startedAt: startedAt.toISOString(), durationMs };
      const operation = this.options.operationOf?.(sent);
      const exchange = createExchange(
        sent,
        response.status,
        response.headers,
        response.text,
        timing,
        operation,
      );
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
      if (stop) throw stop;
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
    throw stop ?? new RequestRefused(sent, refusal.reason);
  }

  /** Refuses a request once the target stopped answering, or the run's request budget is spent. */
  private refuseWhenSpent(sent: SentRequest, signIn: boolean): void {
    const spent = this.options.unanswered?.spent() ?? this.options.requests.spent(signIn);
    if (spent) throw new RequestRefused(sent, spent);
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
   * The request's answer: the first sending's, or for a read late or lost, a second sending's (src/http/
   * second-sending.ts). A request left without one throws what `unansweredError` makes of it; any other
   * failed round trip (a refused connection, a redirect loop, the run stopping) its TransportFailure.
   */
  private async answer(sent: SentRequest, request: ApiRequest, credential: string): Promise<Sending> {
    // Learned before the clock starts: asking the run's coordinator is no part of the target's latency.
    const resendMark = await this.options.timeouts.resendMarkFor(sent);
    const again = !request.noRetry && this.options.sendsAgain?.(sent, request.signIn === true) === true;
    const started = performance.now();
    const answered = this.options.onTargetWait?.(this.bound.ms);
    try {
      return await sendWithSecond({
        send: (timeoutMs) => this.sending(sent, request.maxRedirects ?? 0, timeoutMs),
        slowMs: TIMEOUT_RULE.slowMs,
        resendMark,
        boundMs: this.bound.ms,
        sendAgain: again
          ? async () =>
              !(await this.options.pacer.turn(credential, (ms, why) => this.options.onWait?.(ms, why)))
          : undefined,
        onSlow: () => this.options.onSlow?.(sent) ?? (() => {}),
      });
    } catch (error) {
      throw this.failure(sent, error, performance.now() - started);
    } finally {
      answered?.();
    }
  }

  /**
   * One sending and its complete answer. Tokens in the body are registered as secrets before anything parses
   * it (a truncated token response is redacted too); every answer teaches the resend marks, a late one too.
   */
  private async sending(sent: SentRequest, maxRedirects: number, timeoutMs: number): Promise<Sending> {
    const startedAt = new Date();
    const started = performance.now();
    const response = await this.transport.send({ ...sent, maxRedirects, timeoutMs }).catch((error) => {
      // A sending given up at the bound says how the bound was set.
      if (!(error instanceof TransportError && error.kind === 'timeout')) throw error;
      throw new TransportError(`${error.message} (${this.bound.how})`, 'timeout');
    });
    const durationMs = performance.now() - started;
    registerIssuedTokens(response.text);
    this.options.timeouts.answered(sent, durationMs);
    return { response, startedAt, durationMs };
  }

  /** What a request that got no answer throws, after `waitedMs`. */
  private failure(sent: SentRequest, error: unknown, waitedMs: number): Error {
    const reason = messageOf(error);
    const { kind, code } = error instanceof TransportError ? error : { kind: 'other', code: undefined };
    if (kind === 'other' || kind === 'interrupted')
      return new TransportFailure(sent, reason, undefined, false, code);
    if (kind === 'race') return new RequestRefused(sent, reason, 'transport');
    const { unanswered, unansweredError } = this.options;
    unanswered?.record(kind === 'timeout' ? this.bound.ms : Math.round(waitedMs));
    const failure = new TransportFailure(sent, `no response: ${reason}`, undefined, true);
    return unansweredError ? unansweredError(failure) : failure;
  }
}
