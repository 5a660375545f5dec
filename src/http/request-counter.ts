// Counts the requests a run sends, across Playwright workers: each request appends one byte to the run's
// request log (appends of one byte are atomic), so the count is the file's size. Global setup names the
// file in the run manifest; each worker counts through its own RequestCounter (src/suite/fixtures.ts).
import { appendFileSync, existsSync, statSync } from 'node:fs';

export class RequestBudgetExceeded extends Error {}

/** The requests the run has sent so far (0 without a log). */
export function requestsSent(log: string | undefined): number {
  return log && existsSync(log) ? statSync(log).size : 0;
}

export class RequestCounter {
  /** `budget`: the most requests the whole run may send (undefined: no limit). */
  constructor(
    private readonly log: string,
    private readonly budget?: number,
  ) {}

  /** Records one request, refusing it first if the budget is already spent. */
  count(): void {
    if (this.budget !== undefined && requestsSent(this.log) >= this.budget) {
      throw new RequestBudgetExceeded(
        `Request budget of ${this.budget} spent: the smoke profile sends no more requests (CONFORMANCE_REQUEST_BUDGET)`,
      );
    }
    appendFileSync(this.log, '.');
  }
}

/**
 * The requests of a run that got no answer before the request timeout, counted like the requests (one byte
 * each, in their own log). Once `budget` of them went unanswered the target has stopped answering: the run
 * sends nothing more, and every check not yet run is not verified instead of waiting out more timeouts.
 */
export class UnansweredRequests {
  constructor(
    private readonly log: string,
    private readonly budget: number,
    private readonly timeoutMs: number,
  ) {}

  record(): void {
    appendFileSync(this.log, '.');
  }

  /** The reason to send nothing more, once the budget is spent. */
  spent(): string | undefined {
    const count = requestsSent(this.log);
    return count >= this.budget
      ? `blocked: the target stopped answering; ${count} requests unanswered after ${this.timeoutMs} ms (CONFORMANCE_UNANSWERED_BUDGET=${this.budget})`
      : undefined;
  }
}
