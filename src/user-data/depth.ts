// The run's depth plan (src/config/depth-plan.ts) for a target: resolved once per worker session from the
// profile, the run's budget and the rate limit the target announces on user data, which the headers of a
// read every run makes tell (user A's profile: one exchange for every worker, the run's memo, so every
// worker resolves the same plan). Each test that reads through the plan records it as an annotation, so the
// report says how deep the run went, and why; a check records the input classes it covered (`covered`).
import { test } from '@playwright/test';
import { type DepthPlan, depthPlan, limitAnnounced, rotationOf } from '../config/depth-plan.ts';
import { profileRow } from '../config/profiles.ts';
import type { Exchange } from '../http/exchange.ts';
import { DEPTH_ANNOTATION, recordCovered } from '../report/input-coverage.ts';
import type { TargetSession } from '../session/target-session.ts';

async function resolve(
  session: TargetSession,
  announcing: () => Promise<Exchange | undefined>,
): Promise<DepthPlan> {
  const { config, manifest } = session;
  const rotation = rotationOf(manifest.startedAt, config.explore, config.propertySeed);
  const inputs = {
    profile: config.profile,
    runTimeoutSeconds: manifest.options.runTimeoutSeconds,
    rotation,
    pinned: config.depth,
  };
  // Smoke's plan is its profile's, a pinned plan is pinned: no read needed.
  if (profileRow(config.profile).depth !== 'auto' || config.depth !== 'auto') return depthPlan(inputs);
  const exchange = await announcing().catch((error: unknown) => {
    // A check stopped on the way (no token for its user): its stop, not a plan without a limit.
    if (test.info().expectedStatus === 'skipped') throw error;
    return undefined;
  });
  return depthPlan({ ...inputs, announced: exchange && limitAnnounced(exchange.headers) });
}

/**
 * The plan of the session's target, resolved on first use from the answer `announcing` gets (undefined:
 * no answer to read a limit from; a resolution a stopped check left undone is tried again); recorded on the
 * running test.
 */
export async function planOf(
  session: TargetSession,
  announcing: () => Promise<Exchange | undefined>,
): Promise<DepthPlan> {
  const plan = await session.sharedRead('depth plan', () => resolve(session, announcing));
  const { annotations } = test.info();
  if (!annotations.some((annotation) => annotation.type === DEPTH_ANNOTATION))
    annotations.push({ type: DEPTH_ANNOTATION, description: JSON.stringify(plan) });
  return plan;
}

/** Records that the running check sent and judged these values of a class (src/report/input-coverage.ts). */
export const covered = (family: string, values: readonly (string | number)[], where?: string): void =>
  recordCovered(test.info(), family, values.map(String), where);
