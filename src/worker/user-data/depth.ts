// The run's depth plan (src/config/depth-plan.ts) for a target, kept per worker session: made for the rate of
// user data (CONFORMANCE_RATE_LIMIT and what the target showed every worker of the run: the coordinator's budget
// of the user OAuth client, src/http/rate-window.ts), the run's budget and the profile, and made again as soon as
// what the target shows changes it. Each test records the plan it read, so the report says how deep the run
// went and why; a check records the input classes it covered.
import { test } from '@playwright/test';
import {
  configuredLimit,
  type DepthPlan,
  depthPlan,
  describeRate,
  type PlannedRate,
  plannedRate,
  rotationOf,
} from '../../config/depth-plan.ts';
import { profileRow } from '../../config/profiles.ts';
import type { Exchange } from '../../http/exchange.ts';
import { observationOf, RateBudget } from '../../http/rate-budget.ts';
import { announcedRateLimit } from '../../http/rate-limit-headers.ts';
import type { ShownRate } from '../../http/rate-window.ts';
import { DEPTH_ANNOTATION, recordCovered } from '../../protocol/covered-inputs.ts';
import type { TargetSession } from '../session/target-session.ts';

/** How often a session asks the run's coordinator what the target showed: a plan a second old is current. */
const ASKED_EVERY_MS = 1_000;

/** What one answer shows of its limit, when the coordinator has heard none yet. */
function shownBy(exchange: Exchange | undefined): ShownRate | undefined {
  if (!exchange) return undefined;
  const budget = new RateBudget(Number.POSITIVE_INFINITY);
  budget.observe(observationOf(exchange.status, announcedRateLimit(exchange.headers)));
  return budget.shown();
}

const sameRate = (a?: PlannedRate, b?: PlannedRate): boolean =>
  a?.limit === b?.limit &&
  a?.windowSeconds === b?.windowSeconds &&
  a?.limitSource === b?.limitSource &&
  a?.windowSource === b?.windowSource;

/** A session's plan: the one made first, and the current one with the revision that made it. */
class SessionPlan {
  private current?: DepthPlan & { revision: number };
  private askedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly session: TargetSession) {}

  async plan(announcing: () => Promise<Exchange | undefined>): Promise<DepthPlan> {
    const { config, manifest } = this.session;
    const inputs = {
      profile: config.profile,
      runTimeoutSeconds: manifest.options.runTimeoutSeconds,
      rotation: rotationOf(manifest.startedAt, config.explore, config.propertySeed),
      pinned: config.depth,
    };
    // Smoke's plan is its profile's, a pinned plan is pinned: no read needed.
    if (profileRow(config.profile).depth !== 'auto' || config.depth !== 'auto')
      return depthPlan({ ...inputs, rate: configuredLimit(config) });
    if (this.current && Date.now() - this.askedAt < ASKED_EVERY_MS) return this.current;
    // One answer of user data (the same for every worker: the run's memo) before the first plan.
    const exchange = await this.session.sharedRead('depth plan', () =>
      announcing().catch((error: unknown) => {
        // A check stopped on the way (no token for its user): its stop, not a plan without a limit.
        if (test.info().expectedStatus === 'skipped') throw error;
        return undefined;
      }),
    );
    this.askedAt = Date.now();
    const shown = (await this.session.userRate()) ?? shownBy(exchange);
    const next = depthPlan({ ...inputs, rate: plannedRate(configuredLimit(config), shown) });
    this.current = this.remade(next);
    return this.current;
  }

  /** The current plan, or `next` where it differs (its depth or its rate), saying what it was before. */
  private remade(next: DepthPlan): DepthPlan & { revision: number } {
    const current = this.current;
    if (!current) return { ...next, revision: 0 };
    if (current.depth === next.depth && sameRate(current.rate, next.rate)) return current;
    const into = Math.round((Date.now() - Date.parse(this.session.manifest.startedAt)) / 1000);
    const before = `${current.depth}, ${current.rate ? describeRate(current.rate) : 'no rate limit'}`;
    return {
      ...next,
      why: `${next.why}; made again ${into} s into the run (before: ${before})`,
      revision: current.revision + 1,
    };
  }
}

/**
 * The plan of the session's target, current when asked (`announcing` gets the answer a first plan reads a
 * limit from; undefined: none); recorded on the running test.
 */
export async function planOf(
  session: TargetSession,
  announcing: () => Promise<Exchange | undefined>,
): Promise<DepthPlan> {
  const plan = await session.shared('depth plans', () => new SessionPlan(session)).plan(announcing);
  const { annotations } = test.info();
  if (!annotations.some((annotation) => annotation.type === DEPTH_ANNOTATION))
    annotations.push({ type: DEPTH_ANNOTATION, description: JSON.stringify(plan) });
  return plan;
}

/** Records that the running check sent and judged these values of a class (src/protocol/covered-inputs.ts). */
export const covered = (family: string, values: readonly (string | number)[], where?: string): void =>
  recordCovered(test.info(), family, values.map(String), where);
