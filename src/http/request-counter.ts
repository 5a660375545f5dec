// Counts the requests a run sends, across Playwright workers: each request appends one byte to a file
// (appends of one byte are atomic), so the count is the file's size. The run's global setup names the file.
import { appendFileSync, existsSync, statSync } from 'node:fs';

export class RequestBudgetExceeded extends Error {}

export function requestLogPath(): string | undefined {
  return process.env.CONFORMANCE_REQUEST_LOG || undefined;
}

export function requestsSent(path = requestLogPath()): number {
  return path && existsSync(path) ? statSync(path).size : 0;
}

/** Records one request, refusing it first if a budget is set and already spent. */
export function countRequest(budget?: number): void {
  const path = requestLogPath();
  if (!path) return;
  if (budget !== undefined && requestsSent(path) >= budget) {
    throw new RequestBudgetExceeded(
      `Request budget of ${budget} spent: the smoke profile sends no more requests (CONFORMANCE_REQUEST_BUDGET)`,
    );
  }
  appendFileSync(path, '.');
}
