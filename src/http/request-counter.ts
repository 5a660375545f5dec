// Counts the requests a run sends, across Playwright workers: each request appends one byte to the run's
// request log (appends of one byte are atomic), and the byte says what it was: `u` a user-data operation, `p`
// a partner request, `o` another (a step of the user sign-in, wherever it posts; the sandbox's
// administration: requests the seed's rate limit of the user data operations does not count); a paced
// request answered 429 adds an `r`. Global setup names the file in the run manifest; each worker counts
// through its own RequestCounter (src/worker/suite/fixtures.ts). A smoke run's request budget counts the requests
// to the service's API, user data and partner (docs/profiles-and-targets.md, "The smoke budget").
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';

/** Requests by kind: user-data operations, partner requests, and the rest (sign-in, administration). */
export interface RequestTally {
  user: number;
  partner: number;
  other: number;
}

const KINDS = { user: 'u', partner: 'p', other: 'o' } as const satisfies Record<keyof RequestTally, string>;

/** The annotation that carries a test's requests, as JSON `{"user":N,"partner":M,"other":K}`. */
export const REQUESTS_ANNOTATION = 'requests';

/** What this process has sent (a worker runs one test at a time: a test's share is the difference). */
export const processTally: RequestTally = { user: 0, partner: 0, other: 0 };

/**
 * A partner's request: drawn on a partner's budget, or sent to the partner API without one (a refusal check);
 * a step of the user sign-in (`signIn`), whatever its path, is neither.
 */
function kindOf(credential: string, url: string, signIn: boolean): keyof RequestTally {
  if (signIn) return 'other';
  const path = new URL(url).pathname;
  if (credential.startsWith('partner') || path.includes('/v2/partner/')) return 'partner';
  return /\/(oauth|sandbox)\//.test(path) ? 'other' : 'user';
}

const combined = (a: RequestTally, b: RequestTally, sign: 1 | -1): RequestTally => ({
  user: a.user + sign * b.user,
  partner: a.partner + sign * b.partner,
  other: a.other + sign * b.other,
});

/** What was sent since `before`, kind by kind. */
export const tallySince = (before: RequestTally, now: RequestTally): RequestTally =>
  combined(now, before, -1);

export const sumOfTallies = (a: RequestTally, b: RequestTally): RequestTally => combined(a, b, 1);

const logText = (log: string | undefined): string =>
  log && existsSync(log) ? readFileSync(log, 'latin1') : '';
const occurrences = (text: string, byte: string): number => text.split(byte).length - 1;

/** The run's requests by kind of credential, from its log. */
export function requestTally(log: string | undefined): RequestTally {
  const text = logText(log);
  return {
    user: occurrences(text, KINDS.user),
    partner: occurrences(text, KINDS.partner),
    other: occurrences(text, KINDS.other),
  };
}

/** The requests the run has sent so far (0 without a log). */
export function requestsSent(log: string | undefined): number {
  const { user, partner, other } = requestTally(log);
  return user + partner + other;
}

/** The requests a smoke run's budget counts: those to the service's API, user data and partner. */
export const budgeted = ({ user, partner }: RequestTally): number => user + partner;

/** The paced requests of the run that were answered 429 all the same (each was sent again later). */
export const rateLimitedAnswers = (log: string | undefined): number => occurrences(logText(log), 'r');

export class RequestCounter {
  /** `budget`: the most requests to the service's API the whole run may send (undefined: no limit). */
  constructor(
    private readonly log: string,
    private readonly budget?: number,
  ) {}

  /**
   * Why the run sends no more requests to the service's API, once its budget is spent; undefined: it may.
   * A sign-in's steps are outside the budget (`signIn`): a sign-in is never started only to be refused.
   */
  spent(signIn: boolean): string | undefined {
    if (signIn || this.budget === undefined || budgeted(requestTally(this.log)) < this.budget)
      return undefined;
    return `the run's request budget is spent: ${this.budget} requests to the service's API (CONFORMANCE_REQUEST_BUDGET, the smoke profile's)`;
  }

  /** Records one request to `url` drawing on `credential`'s budget (a step of the user sign-in: `signIn`). */
  count(credential: string, url: string, signIn: boolean): void {
    const kind = kindOf(credential, url, signIn);
    processTally[kind] += 1;
    appendFileSync(this.log, KINDS[kind]);
  }

  /** Records that a paced request was answered 429. */
  rateLimited(): void {
    appendFileSync(this.log, 'r');
  }
}

/**
 * The requests of a run that got no answer before their timeout, one line each (the time waited) in their own
 * log. Once `budget` of them went unanswered the target has stopped answering: the run sends nothing more,
 * and every check not yet run is not verified instead of waiting out more timeouts.
 */
export class UnansweredRequests {
  /** Once spent, the budget stays spent. */
  private spentReason: string | undefined;

  constructor(
    private readonly log: string,
    private readonly budget: number,
  ) {}

  /** A request went unanswered after `waitedMs`. */
  record(waitedMs: number): void {
    appendFileSync(this.log, `${waitedMs}\n`);
  }

  /** The reason to send nothing more, once the budget is spent. */
  spent(): string | undefined {
    if (this.spentReason !== undefined) return this.spentReason;
    // Checked before every request: most runs see no unanswered request, and a size costs no read (each
    // line holds at least a digit and its newline).
    if (!existsSync(this.log) || statSync(this.log).size < 2 * this.budget) return undefined;
    const waits = readFileSync(this.log, 'utf8').split('\n').filter(Boolean).map(Number);
    if (waits.length < this.budget) return undefined;
    const [least, most] = [Math.min(...waits), Math.max(...waits)];
    this.spentReason = `blocked: the target stopped answering; ${waits.length} requests unanswered after ${least === most ? least : `${least}–${most}`} ms (CONFORMANCE_UNANSWERED_BUDGET=${this.budget})`;
    return this.spentReason;
  }
}
