// Paces a client's requests by the rate budget of their credential (rate-budget.ts). A worker of a run asks
// the run's coordinator (src/runner/coordinator/server.ts), which keeps one budget per credential for every
// worker; a client outside a run keeps its own. Either way a turn granted covers a lease of requests, so a
// target with room to spare costs one question per lease, not one per request.
import type { RateObservation, Turn } from './rate-budget.ts';
import { RateBudget } from './rate-budget.ts';
import type { ShownRate } from './rate-window.ts';

export interface Pacer {
  /** Waits for a turn to send a request under `credential`; a turn the run cannot wait for is returned. */
  turn(credential: string, onWait: (waitMs: number, reason: string) => void): Promise<Refusal | undefined>;
  /** What a response of `credential` announced. */
  observe(credential: string, seen: RateObservation): void;
  /** What the target showed of `credential`'s limit so far, with every answer this client saw told first. */
  shown(credential: string): Promise<ShownRate | undefined>;
}

export interface Refusal {
  reason: string;
}

/** Where turns come from: a budget per credential, in this process or in the run's coordinator. */
export type TurnSource = (credential: string, seen: RateObservation | undefined) => Promise<Turn>;
/** What a credential's budget learned of its limit (rate-window.ts), told the client's latest answer first. */
export type ShownSource = (
  credential: string,
  seen: RateObservation | undefined,
) => Promise<ShownRate | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The budget a credential's requests draw on at a target: instances of a matrix run are servers of their own. */
export const budgetKey = (baseUrl: string, credential: string): string => `${baseUrl} ${credential}`;

/** `pacer`'s budgets of one target, by credential: instances of a matrix run are servers of their own. */
export const targetPacer = (pacer: Pacer, baseUrl: string): Pacer => ({
  turn: (credential, onWait) => pacer.turn(budgetKey(baseUrl, credential), onWait),
  observe: (credential, seen) => pacer.observe(budgetKey(baseUrl, credential), seen),
  shown: (credential) => pacer.shown(budgetKey(baseUrl, credential)),
});

/** The budgets of a process of its own (a standalone client, or the coordinator's, of a shard: `share`). */
export function localTurns(
  deadline = Number.POSITIVE_INFINITY,
  share = 1,
): {
  source: TurnSource;
  shown: ShownSource;
  budgets: Map<string, RateBudget>;
} {
  const budgets = new Map<string, RateBudget>();
  const told = (credential: string, seen: RateObservation | undefined): RateBudget => {
    let budget = budgets.get(credential);
    if (!budget) {
      budget = new RateBudget(deadline, Date.now, share);
      budgets.set(credential, budget);
    }
    if (seen) budget.observe(seen);
    return budget;
  };
  return {
    source: async (credential, seen) => told(credential, seen).turn(),
    shown: async (credential, seen) => told(credential, seen).shown(),
    budgets,
  };
}

/** A 429 the budget must wait for (not one a request ended on: rate-budget.ts `judged`). */
const holds = (seen: RateObservation): boolean => seen.status === 429 && !seen.judged;

/**
 * A client's pacer: leases granted by `source`, the latest observation handed back with the next question
 * (for a turn, or for what the budget learned: `shown`).
 */
export function leasingPacer(source: TurnSource, shown?: ShownSource): Pacer {
  const leases = new Map<string, number>();
  const unreported = new Map<string, RateObservation>();
  const latest = (credential: string): RateObservation | undefined => {
    const seen = unreported.get(credential);
    unreported.delete(credential);
    return seen;
  };
  return {
    shown: async (credential) => shown?.(credential, latest(credential)),
    async turn(credential, onWait) {
      for (;;) {
        const lease = leases.get(credential) ?? 0;
        if (lease > 0) {
          leases.set(credential, lease - 1);
          return undefined;
        }
        const turn = await source(credential, latest(credential));
        if (turn.kind === 'go') {
          leases.set(credential, turn.grant - 1);
          return undefined;
        }
        if (turn.kind === 'refused') return { reason: turn.reason };
        onWait(turn.waitMs, turn.reason);
        await sleep(turn.waitMs);
      }
    },
    observe(credential, seen) {
      const lease = leases.get(credential) ?? 0;
      // A 429 that holds, or less left than this lease holds: the lease is void, and the budget hears it at once.
      if (holds(seen)) leases.set(credential, 0);
      else if (seen.remaining !== undefined && seen.remaining < lease) leases.set(credential, seen.remaining);
      const previous = unreported.get(credential);
      if (!previous || !holds(previous) || holds(seen)) unreported.set(credential, seen);
    },
  };
}
