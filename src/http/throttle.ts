// Client-side throttle shared by every request of a worker: honours Retry-After on a 429 and
// X-RateLimit-Remaining: 0 (waiting for X-RateLimit-Reset) before the next request.
const MAX_WAIT_MS = 15_000;

function seconds(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) return number > 1e9 ? number - Date.now() / 1000 : number; // epoch or delta
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : (date - Date.now()) / 1000;
}

export class Throttle {
  private notBefore = 0;

  async waitForTurn(): Promise<void> {
    const wait = Math.min(this.notBefore - Date.now(), MAX_WAIT_MS);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Learns from a response's headers; returns how long to wait before retrying, when it was a 429. */
  observe(status: number, headers: Record<string, string>): number | undefined {
    const retryAfter = seconds(headers['retry-after']);
    const reset = seconds(headers['x-ratelimit-reset']);
    if (headers['x-ratelimit-remaining'] === '0' && reset !== undefined) {
      this.notBefore = Math.max(this.notBefore, Date.now() + Math.min(reset * 1000, MAX_WAIT_MS));
    }
    if (status !== 429) return undefined;
    const waitMs = Math.min(Math.max((retryAfter ?? reset ?? 1) * 1000, 100), MAX_WAIT_MS);
    this.notBefore = Math.max(this.notBefore, Date.now() + waitMs);
    return waitMs;
  }
}
