// The window of a limit a target announces without one (`X-RateLimit-Limit: 100`; the seed: "The rate limit
// values and windows: not shown"), learned from its answers: the reset (seconds or an epoch) of the answer that
// opens a window (Remaining at the limit less one, or risen), the first 429's reset counted from that opening,
// or, without resets, two openings in a row. Every reset is a lower bound: a longer one corrects the window.

/** What an answer said about its limit, as the learner reads it (a part of RateObservation). */
export interface WindowEvidence {
  status: number;
  limit?: number;
  remaining?: number;
  resetSeconds?: number;
  retryAfterSeconds?: number;
}

/** A window learned, with the evidence it rests on, in words. */
export interface LearnedWindow {
  seconds: number;
  how: string;
}

/** Where a figure of a limit comes from, as `doctor` and the plan say it. */
export type FigureSource = 'configured' | 'announced' | 'learned' | 'assumed';

/** What a target showed of a credential's limit: the limit announced, its window announced or learned. */
export interface ShownRate {
  limit: number;
  window?: { seconds: number; source: 'announced' | 'learned'; how: string };
  /** The longest reset announced: the window is at least this long (0: none). */
  atLeast: number;
}

/** Opening to opening, the client's last answer between them no further than this from the second. */
const TIGHT_OPENINGS = 0.9;

export class WindowLearner {
  /** The window the evidence gives, once an answer opened one (or a 429 closed it). */
  private learned?: LearnedWindow;
  /** The longest reset seen: the window is at least this long. */
  private longestReset = 0;
  private opening?: { at: number; reset?: number };
  private last?: { at: number; remaining?: number };

  constructor(private readonly now: () => number = Date.now) {}

  /** The window learned, if any answer showed it; a later, longer reset corrects it. */
  get window(): LearnedWindow | undefined {
    if (!this.learned) return undefined;
    const longer = Math.ceil(this.longestReset - 0.05);
    return longer > this.learned.seconds
      ? { seconds: longer, how: `a later X-RateLimit-Reset of ${longer} s (first ${this.learned.how})` }
      : this.learned;
  }

  /** The longest reset any answer announced (0: none): what the window is at least, learned or not. */
  get atLeast(): number {
    return Math.ceil(this.longestReset - 0.05);
  }

  observe(seen: WindowEvidence): void {
    const at = this.now();
    const { limit, remaining, status } = seen;
    const reset = status === 429 ? (seen.retryAfterSeconds ?? seen.resetSeconds) : seen.resetSeconds;
    if (reset !== undefined) this.longestReset = Math.max(this.longestReset, reset);
    if (limit === undefined) return;
    if (status === 429 && reset !== undefined && this.opening)
      this.learn(
        (at - this.opening.at) / 1000 + reset,
        "the first 429's reset, counted from the answer that opened its window",
      );
    const opens =
      status !== 429 &&
      remaining !== undefined &&
      (remaining >= limit - 1 || (this.last?.remaining !== undefined && remaining > this.last.remaining));
    if (opens) this.opened(at, reset);
    this.last = { at, remaining };
  }

  private opened(at: number, reset: number | undefined): void {
    const previous = this.opening;
    const sinceLast = this.last ? at - this.last.at : Number.POSITIVE_INFINITY;
    this.opening = { at, reset };
    if (reset !== undefined) this.learn(reset, 'the X-RateLimit-Reset of an answer that opened a window');
    // No reset: the window closed between the client's last answer and this opening, so two openings close
    // together (the client sending up to the second) bound it.
    else if (
      previous &&
      previous.reset === undefined &&
      sinceLast <= (1 - TIGHT_OPENINGS) * (at - previous.at)
    )
      this.learn((at - previous.at) / 1000, 'the time between two openings of a window (Remaining rose)');
  }

  private learn(seconds: number, how: string): void {
    const whole = Math.max(1, Math.ceil(seconds - 0.05));
    if (!this.learned || whole > this.learned.seconds) this.learned = { seconds: whole, how };
  }
}
