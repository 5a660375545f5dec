// The rate budget of one credential that the target limits (the OAuth client for user data, a partner
// client for partner requests), learned from what its responses announce (rate-limit-headers.ts). One
// instance per credential serves the whole run (src/runner/coordinator/server.ts), so the run's workers draw on
// one budget instead of each spending the same one. Grants are counted down locally between responses, so
// concurrent requests do not overshoot what the last response said was left; a 429 or an exhausted window
// holds every request until the announced reset (a 429 that announces none: a window, or a backoff that
// doubles), however long that is: only the run's deadline bounds a wait. How often one request may be
// answered 429 is not the budget's to say (rate-limited.ts). A shard of a run (`--shard i/n`) shares the
// credential with the other shards: it takes `share` (1/n) of each announced window, one request per turn.

import type { AnnouncedRateLimit } from './rate-limit-headers.ts';
import { type ShownRate, WindowLearner } from './rate-window.ts';

/** What a response told the budget (the parts of AnnouncedRateLimit it uses), and whether it was a 429. */
export interface RateObservation {
  status: number;
  limit?: number;
  windowSeconds?: number;
  remaining?: number;
  resetSeconds?: number;
  retryAfterSeconds?: number;
  /** A 429 the run ended its request on (rate-limited.ts): counted, but no sign of the budget, so never waited for. */
  judged?: boolean;
}

/** Why requests of a credential wait: its announced budget is spent, or the target answered 429. */
export type HoldCause = 'spent' | '429';

/** The answer to a request for a turn: go (with up to `grant` requests), wait, or give up. */
export type Turn =
  | { kind: 'go'; grant: number }
  | { kind: 'wait'; waitMs: number; reason: string; cause: HoldCause }
  | { kind: 'refused'; reason: string };

/** Time added to an announced reset: servers round it to whole seconds, some down. */
const RESET_MARGIN_MS = 250;
/** A 429 that announces no reset, of a target whose window is unknown: 1 s, doubled on each in a row, up to this. */
const MAX_BACKOFF_MS = 60_000;
/** At most this share of what is left goes to one worker's lease, so that the others get some. */
const LEASE_SHARE = 4;
const MAX_LEASE = 100;

export const observationOf = (
  status: number,
  announced: AnnouncedRateLimit | undefined,
): RateObservation => ({
  status,
  limit: announced?.limit,
  windowSeconds: announced?.windowSeconds,
  remaining: announced?.remaining,
  resetSeconds: announced?.resetSeconds,
  retryAfterSeconds: announced?.retryAfterSeconds,
});

/** `100 per 60 s`, or `a rate limit` when the target announced none. */
export const describedLimit = (limit?: number, windowSeconds?: number): string =>
  limit === undefined
    ? 'a rate limit'
    : `${limit} per ${windowSeconds === undefined ? 'window' : `${windowSeconds} s`}`;

export class RateBudget {
  /** Requests left in the current window, as counted down since the last response said; undefined: unknown. */
  private remaining?: number;
  /** When the current window resets (epoch ms); undefined: unknown. */
  private resetAt?: number;
  /** Until when a 429 holds every request (epoch ms): no answer sent before it was known shortens it. */
  private heldUntil?: number;
  /** 429s in a row that announced no reset (the backoff's exponent). */
  private unannounced = 0;
  limit?: number;
  windowSeconds?: number;
  /** Whether a response has told how much is left: until one has, requests go one at a time. */
  private announces = false;
  private responses = 0;
  /** Requests answered 429 (outside a burst that asked for them). */
  rejected = 0;
  /** Requests granted in the current window: a shard's share of the window is counted against them. */
  private grantedInWindow = 0;
  /** The window of a limit announced without one, learned from the answers (rate-window.ts). */
  private readonly windows: WindowLearner;

  constructor(
    /** When the run's budget ends (epoch ms): a wait past it is refused. */
    private readonly deadline: number,
    private readonly now: () => number = Date.now,
    /** The part of each window this budget may spend: 1/n for a shard of n sharing the credential. */
    private readonly share = 1,
  ) {
    this.windows = new WindowLearner(now);
  }

  /** What the target showed of this limit so far (undefined: no limit announced). */
  shown(): ShownRate | undefined {
    if (this.limit === undefined) return undefined;
    const { atLeast } = this.windows;
    if (this.windowSeconds !== undefined)
      return {
        limit: this.limit,
        window: { seconds: this.windowSeconds, source: 'announced', how: 'the response headers name it' },
        atLeast,
      };
    const learned = this.windows.window;
    return { limit: this.limit, ...(learned ? { window: { ...learned, source: 'learned' } } : {}), atLeast };
  }

  /** The window announced, else learned (undefined: neither yet). */
  private knownWindow(): number | undefined {
    return this.windowSeconds ?? this.windows.window?.seconds;
  }

  /** What this budget's share leaves of the window (undefined: the whole window is its own, or unknown). */
  private shareLeft(): number | undefined {
    if (this.share >= 1 || this.limit === undefined) return undefined;
    return Math.floor(this.limit * this.share) - this.grantedInWindow;
  }

  /** Asks for a turn to send a request: granted (a lease of `grant` requests), a wait, or a refusal. */
  turn(): Turn {
    const now = this.now();
    if (this.resetAt !== undefined && now >= this.resetAt) {
      // A new window: what it holds is learned again from the next response.
      this.remaining = undefined;
      this.resetAt = undefined;
      this.grantedInWindow = 0;
    }
    const shareLeft = this.shareLeft();
    if ((this.remaining === undefined || this.remaining > 0) && (shareLeft === undefined || shareLeft > 0)) {
      // A target that announces no budget is not paced; one that does, but not yet for this window, is
      // asked one request at a time until it says.
      const silent = !this.announces && this.responses > 0;
      const grant =
        this.remaining === undefined
          ? silent
            ? MAX_LEASE
            : 1
          : Math.max(1, Math.min(MAX_LEASE, Math.floor(this.remaining / LEASE_SHARE)));
      // A shard's requests are granted one at a time, before its share is known too (a target silent so far
      // may announce its limit in the next answer): a lease spent after the window turned would land in the
      // next one, uncounted there, beside the other shards' shares, and a silent target's lease of
      // MAX_LEASE would outlast the share the next answer sets.
      const granted = this.share >= 1 ? grant : 1;
      if (this.remaining !== undefined) this.remaining -= granted;
      this.grantedInWindow += granted;
      return { kind: 'go', grant: granted };
    }
    const resetAt = this.resetAt ?? now + 1000;
    const waitMs = resetAt - now;
    const cause: HoldCause = this.heldUntil !== undefined && now < this.heldUntil ? '429' : 'spent';
    const reason = `rate limited: ${describedLimit(this.limit, this.knownWindow())}${cause === '429' ? ', answered 429' : ''}, reset in ${Math.ceil(waitMs / 1000)} s`;
    if (resetAt > this.deadline)
      return {
        kind: 'refused',
        reason: `${reason}, past the run's budget of time (CONFORMANCE_RUN_TIMEOUT_S): on the run's side`,
      };
    return { kind: 'wait', waitMs, reason, cause };
  }

  /** Learns from a response. */
  observe(seen: RateObservation): void {
    const now = this.now();
    this.responses += 1;
    if (seen.remaining !== undefined) this.announces = true;
    if (seen.limit !== undefined) this.limit = seen.limit;
    if (seen.windowSeconds !== undefined) this.windowSeconds = seen.windowSeconds;
    else if (!seen.judged) this.windows.observe(seen);
    const resetSeconds = seen.retryAfterSeconds ?? seen.resetSeconds;
    const resetAt = resetSeconds === undefined ? undefined : now + resetSeconds * 1000 + RESET_MARGIN_MS;
    if (seen.status === 429) {
      this.rejected += 1;
      if (seen.judged) return;
      this.unannounced = resetAt === undefined ? this.unannounced + 1 : 0;
      this.remaining = 0;
      // No announced reset: wait a window if one is known, else a backoff, and learn again.
      this.resetAt = resetAt ?? now + this.unannouncedWaitMs();
      this.heldUntil = this.resetAt;
      return;
    }
    this.unannounced = 0;
    // Answered before the 429 that holds the budget was known: it cannot end the hold.
    if (seen.remaining === undefined || (this.heldUntil !== undefined && now < this.heldUntil)) return;
    // A response of a later window replaces the count; one of the same window can only lower it (the
    // requests granted since were not yet counted by the target when it answered).
    const laterWindow =
      resetAt !== undefined && (this.resetAt === undefined || resetAt > this.resetAt + 1000);
    this.remaining =
      laterWindow || this.remaining === undefined ? seen.remaining : Math.min(this.remaining, seen.remaining);
    if (resetAt !== undefined && (laterWindow || this.resetAt === undefined)) this.resetAt = resetAt;
  }

  /** The wait after a 429 that announced no reset: the window when known, else 1 s doubled per such 429 in a row. */
  private unannouncedWaitMs(): number {
    const window = this.knownWindow();
    if (window !== undefined) return window * 1000;
    return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.unannounced - 1));
  }
}
