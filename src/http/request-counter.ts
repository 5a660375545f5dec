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
