// Client-side throttle shared by every request of a worker: on a 429 it waits as Retry-After says (else
// until the announced reset) before the request is sent again (ApiClient, unless the request asks to see
// the 429: the burst of RL-429); after a response that left nothing remaining (X-RateLimit-Remaining: 0,
// or RateLimit r=0) it holds the next request until the announced reset. Waits are capped at MAX_WAIT_MS.
import { announcedRateLimit } from './rate-limit-headers.ts';

const MAX_WAIT_MS = 15_000;

export class Throttle {
  private notBefore = 0;

  async waitForTurn(): Promise<void> {
    const wait = Math.min(this.notBefore - Date.now(), MAX_WAIT_MS);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Learns from a response's headers; returns how long to wait before retrying, when it was a 429. */
  observe(status: number, headers: Record<string, string>): number | undefined {
    const announced = announcedRateLimit(headers);
    const reset = announced?.resetSeconds;
    if (announced?.remaining === 0 && reset !== undefined) {
      this.notBefore = Math.max(this.notBefore, Date.now() + Math.min(reset * 1000, MAX_WAIT_MS));
    }
    if (status !== 429) return undefined;
    const waitMs = Math.min(Math.max((announced?.retryAfterSeconds ?? reset ?? 1) * 1000, 100), MAX_WAIT_MS);
    this.notBefore = Math.max(this.notBefore, Date.now() + waitMs);
    return waitMs;
  }
}
