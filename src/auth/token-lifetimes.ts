// The run's tokens as handles: a token the run obtained (a user's, a partner's) is kept with the lifetime its
// server stated (expires_in, counted from when the token was asked for). As each request goes out, after any
// wait, the API client asks for the token to send in its place (`current`): the same while it has more than
// its renewal margin to live, else its successor, obtained once per token and sent from then on. A token
// never kept (pre-issued, made up, or expired on purpose) is sent as it is.
import type { ApiClient } from '../http/api-client.ts';

export interface KeptToken {
  /** When the token was asked for (epoch ms) and how long its server said it lives; none: no stated expiry. */
  obtainedAt: number;
  expiresIn?: number;
  /** A new token in place of this one (itself kept by the caller), through `api`, the client about to send. */
  renew: (api: ApiClient) => Promise<string>;
}

interface Entry extends KeptToken {
  successor?: Promise<string>;
  /** The token is sent as it is from now on: its chain ends here (a revoked grant's). */
  ended?: boolean;
}

/** Renewed this long before its stated expiry: a quarter of its life, at most 30 s (a request's way there). */
export const renewalMarginMs = (lifetimeMs: number): number => Math.min(30_000, lifetimeMs / 4);

export class TokenLifetimes {
  private readonly kept = new Map<string, Entry>();

  /** `now`: the clock lifetimes are counted on (a token's obtainedAt is read on it too). */
  constructor(readonly now: () => number = Date.now) {}

  keep(token: string, kept: KeptToken): void {
    if (!this.kept.has(token)) this.kept.set(token, { ...kept });
  }

  /** When a kept token expires by its server's word (epoch ms); undefined when not kept or not stated. */
  expiresAt(token: string): number | undefined {
    const entry = this.kept.get(token);
    return entry?.expiresIn === undefined ? undefined : entry.obtainedAt + entry.expiresIn * 1000;
  }

  /** `successor` replaces `token` (a token the target refused, renewed): holders of `token` send it instead. */
  replaced(token: string, successor: string): void {
    const entry = this.kept.get(token);
    if (entry && !entry.successor && successor !== token) entry.successor = Promise.resolve(successor);
  }

  /** From now on `token` is sent as it is, never renewed: an expired token a check sends on purpose. */
  asIs(token: string): void {
    this.kept.delete(token);
  }

  /** The token a holder of `token` sends now, its chain ending there: a revoked grant's, never renewed again. */
  async end(token: string): Promise<string> {
    const last = await this.last(token);
    const entry = this.kept.get(last);
    if (entry) entry.ended = true;
    return last;
  }

  /** The token to send now in place of `token`: its newest successor, renewed when its margin has begun. */
  async current(token: string, api: ApiClient): Promise<string> {
    const entry = this.kept.get(token);
    if (!entry) return token;
    if (entry.successor) return this.current(await entry.successor, api);
    if (entry.ended || !this.due(entry)) return token;
    const successor = entry.renew(api);
    entry.successor = successor;
    // A renewal that failed is tried again by the next sender.
    successor.catch(() => {
      if (entry.successor === successor) entry.successor = undefined;
    });
    return successor;
  }

  /** Whether its renewal margin has begun; never for a token stated born expired (its successor would be too). */
  private due(entry: Entry): boolean {
    if (entry.expiresIn === undefined || entry.expiresIn <= 0) return false;
    const lifetimeMs = entry.expiresIn * 1000;
    return this.now() >= entry.obtainedAt + lifetimeMs - renewalMarginMs(lifetimeMs);
  }

  /** The newest successor of `token` obtained so far, without renewing. */
  private async last(token: string): Promise<string> {
    const successor = this.kept.get(token)?.successor;
    const next = successor && (await successor.catch(() => undefined));
    return next === undefined ? token : this.last(next);
  }
}

/** The tokens of this process (a worker, or a command): tokens are unique, whichever target issued them. */
export const runTokens = new TokenLifetimes();
