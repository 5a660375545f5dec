// The wall time a run will take, as `doctor` estimates it before the run: the run's own time, or the time its
// requests take at the rate that paces them (the windows they fill, the 429 burst's wait for the last one's
// reset) and the run's edges, whichever is longer. The constants are measured (docs/rate-limits.md, "The plan
// and its estimate").
import { type DepthPlan, type PlannedRate, secondsAtLimit } from './depth-plan.ts';

export interface WallTimeEstimate {
  seconds: number;
  /** What it is made of, in words. */
  parts: string[];
}

/** A ci-gate run's own time where no limit paces it: setup, sign-ins, checks and reports. */
const OWN_SECONDS = 60;
/**
 * What a paced run spends besides its requests' share of the windows: its setup before the first request
 * and its reports, less the part of its first window the doctor's and the sign-in's requests opened before it.
 */
const EDGES_SECONDS = 10;
/** Requests of the embedded sandbox's 429 burst (a token of its own, limited to 20), in the plans' counts. */
const EMBEDDED_BURST = 25;

interface Paced {
  what: string;
  requests: number;
  rate?: PlannedRate;
}

/**
 * Seconds `requests` take at a rate: each window's worth goes at once, then the run waits for the next window
 * (the last window's time is the 429 burst's wait: wallTimeEstimate), and how that reads.
 */
function pacedSeconds({ what, requests, rate }: Paced): { seconds: number; part?: string } {
  if (!rate) return { seconds: 0 };
  const seconds = secondsAtLimit(requests, rate);
  const windows = Math.ceil(requests / rate.limit);
  return {
    seconds,
    part: `~${requests} ${what} requests at ${rate.limit} per ${rate.windowSeconds} s: ${windows} windows, ${seconds} s to the last`,
  };
}

/** The 429 burst's wait for the reset of the window the others' last requests are in (see below). */
const burstWait = (requests: number, { limit, windowSeconds }: PlannedRate): number =>
  requests > limit ? windowSeconds : windowSeconds / 2;

/**
 * The estimate for `plan` at these rates; `burstLast`: the isolated tests share the target's client (not on
 * instances of their own: src/config/run-plan.ts), so the 429 burst runs last, spends what is left of the
 * client's window and waits for its reset, in place of the embedded sandbox's own token's requests. A paced
 * run's last requests go out as the window they waited for opens, so that wait is about a whole window (a
 * remote run behind 100 a minute: the others ended 0.3 s into their sixth window, the burst took 59 s); a run
 * within one window ends at any point of it: half a window on average.
 */
export function wallTimeEstimate(
  plan: DepthPlan,
  rates: { user?: PlannedRate; partner?: PlannedRate },
  { burstLast }: { burstLast: boolean },
): WallTimeEstimate {
  const requests = plan.requests.user - (burstLast && rates.user ? EMBEDDED_BURST : 0);
  const burst = burstLast && rates.user ? burstWait(requests, rates.user) : 0;
  const user = pacedSeconds({ what: 'user-data', requests, rate: rates.user });
  const partner = pacedSeconds({ what: 'partner', requests: plan.requests.partner, rate: rates.partner });
  const paced = Math.round(Math.max(user.seconds, partner.seconds) + burst + EDGES_SECONDS);
  const parts = [
    ...[user.part, partner.part].filter((part): part is string => part !== undefined),
    ...(burst > 0 ? [`the 429 burst's wait for its window's reset, about ${Math.round(burst)} s`] : []),
    paced > OWN_SECONDS ? `${EDGES_SECONDS} s of setup and reports` : `the run's own ~${OWN_SECONDS} s`,
  ];
  return { seconds: Math.max(OWN_SECONDS, paced), parts };
}

/**
 * What the machine's load does to the run's own time, if it is busy (a load average above its cores): the
 * estimate is a quiet machine's, and the run's own time grows with the load, by a factor the load alone
 * does not give (the run mostly waits on its target). Measured: a default remote run, ~60 s quiet, took 130 s
 * at a load average of 15 on 2 cores (docs/rate-limits.md, "The plan and its estimate").
 */
export function busyMachineLine(loadAverage: number, cores: number): string | undefined {
  if (loadAverage <= cores) return undefined;
  return `  ! this machine is busy (load average ${loadAverage.toFixed(1)} on ${cores} cores): the estimate is a quiet machine's, and the run's own part of it grows with the load (~60 s quiet took 130 s at 15 on 2 cores)`;
}
