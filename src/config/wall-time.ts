// The wall time a run will take, as `doctor` estimates it before the run: the run's own time, or the time its
// requests take at the rate that paces them, whichever is longer; then, on a target the isolated tests share
// (any but the embedded sandbox), what the 429 burst adds after the rest: the wait for the reset its 429
// announces, at most a window. The constants are measured (docs/rate-limits.md, "The plan and its estimate").
import { type DepthPlan, type PlannedRate, secondsAtLimit } from './depth-plan.ts';

export interface WallTimeEstimate {
  seconds: number;
  /** What it is made of, in words. */
  parts: string[];
}

/** A ci-gate run's own time where no limit paces it: setup, sign-ins, checks and reports. */
const OWN_SECONDS = 60;
/** What a run spends before its first paced request and after its last: setup, sign-ins, the reports. */
const EDGES_SECONDS = 15;
/** Requests of the embedded sandbox's 429 burst (a token of its own, limited to 20), in the plans' counts. */
const EMBEDDED_BURST = 40;
/** The 429 burst's requests in flight at once far from the limit (tests/conformance/rate-limit.spec.ts). */
const BURST_CONCURRENCY = 16;

/** The requests the 429 burst sends on a target whose client is limited to `limit`, at most. */
const burstRequests = (limit: number): number => limit + BURST_CONCURRENCY;

interface Paced {
  what: string;
  requests: number;
  rate?: PlannedRate;
}

/** Seconds `requests` take at a rate, and how that reads. */
function pacedSeconds({ what, requests, rate }: Paced): { seconds: number; part?: string } {
  if (!rate) return { seconds: 0 };
  const seconds = Math.round(
    secondsAtLimit(requests, rate) + (requests % rate.limit) * (rate.windowSeconds / rate.limit),
  );
  return {
    seconds,
    part: `~${requests} ${what} requests at ${rate.limit} per ${rate.windowSeconds} s: ${seconds} s`,
  };
}

/**
 * The estimate for `plan` at these rates; `isolatedAfter`: the isolated tests share the target's client and run
 * after the rest (not on instances of their own).
 */
export function wallTimeEstimate(
  plan: DepthPlan,
  rates: { user?: PlannedRate; partner?: PlannedRate },
  { isolatedAfter }: { isolatedAfter: boolean },
): WallTimeEstimate {
  const burst = isolatedAfter && rates.user ? burstRequests(rates.user.limit) - EMBEDDED_BURST : 0;
  const user = pacedSeconds({
    what: 'user-data',
    requests: plan.requests.user + Math.max(0, burst),
    rate: rates.user,
  });
  const partner = pacedSeconds({ what: 'partner', requests: plan.requests.partner, rate: rates.partner });
  const paced = Math.max(user.seconds, partner.seconds);
  const tail = isolatedAfter && rates.user ? rates.user.windowSeconds : 0;
  const parts = [
    ...[user.part, partner.part].filter((part): part is string => part !== undefined),
    paced > OWN_SECONDS
      ? `${EDGES_SECONDS} s before the first and after the last`
      : `the run's own ~${OWN_SECONDS} s`,
    ...(tail > 0 ? [`the 429 burst's wait for its reset after the rest, at most ${tail} s`] : []),
  ];
  return { seconds: Math.round(Math.max(OWN_SECONDS, paced + EDGES_SECONDS) + tail), parts };
}
