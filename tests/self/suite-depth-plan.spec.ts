// The depth plan (src/config/depth-plan.ts) and the rotation of the finite domains (src/config/input-classes.ts):
// which depth each target gets and why; every limit value and every form in every run, each collection
// meeting each value within a few runs; and, end to end against the embedded sandbox, a budgeted run that
// sends no more user-data requests for an account with three years of history than for the default one.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { collectionClasses, depthPlan, plannedRate } from '../../src/config/depth-plan.ts';
import { COLLECTIONS, END_FORMS, LIMIT_VALUES, START_FORMS } from '../../src/config/input-classes.ts';
import { busyMachineLine, wallTimeEstimate } from '../../src/config/wall-time.ts';
import { describeForm } from '../../src/contract/date-time-forms.ts';
import { DEPTH_ANNOTATION } from '../../src/protocol/covered-inputs.ts';
import { readResult } from '../../src/result/validate.ts';
import { plannedRequests } from '../../src/runner/report/input-coverage.ts';
import { progressLine } from '../../src/runner/report/progress-line.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

const inputs = { profile: 'ci-gate' as const, runTimeoutSeconds: 900, rotation: 0 };
/** A limit the target announces with its window. */
const announced = (limit: number, windowSeconds: number) =>
  plannedRate(undefined, {
    limit,
    window: { seconds: windowSeconds, source: 'announced', how: 'its headers' },
    atLeast: 0,
  });

test('the depth follows what the target allows: no limit deep, a production limit budgeted, smoke its own', () => {
  const open = depthPlan(inputs);
  expect(open).toMatchObject({ depth: 'deep', propertyCases: 100, classes: 'whole' });
  expect(open.why).toBe('no rate limit is configured or announced');
  const embedded = depthPlan({ ...inputs, rate: announced(20_000, 2) });
  expect(embedded.depth).toBe('deep');
  const production = depthPlan({ ...inputs, rate: announced(100, 60) });
  expect(production).toMatchObject({ depth: 'budgeted', propertyCases: 6, classes: 'rotated' });
  expect(production.why).toMatch(
    /100 per 60 s \(announced: its headers\): the deep plan's ~\d+ user-data requests would wait \d+ min/,
  );
  expect(depthPlan({ ...inputs, profile: 'smoke' })).toMatchObject({ depth: 'smoke', classes: 'none' });
  // A short run budget draws fewer cases, never fewer than the budgeted plan's.
  expect(depthPlan({ ...inputs, runTimeoutSeconds: 120 }).propertyCases).toBe(26);
  expect(depthPlan({ ...inputs, runTimeoutSeconds: 30 }).propertyCases).toBe(6);
  expect(depthPlan({ ...inputs, pinned: 'budgeted' }).why).toBe('CONFORMANCE_DEPTH=budgeted pins it');
});

test('the rate a plan is made for: configured governs, the target shows or contradicts, an unshown window is assumed', () => {
  const configured = { limit: 100, windowSeconds: 60 };
  const unshown = { limit: 100, atLeast: 41 };
  const learned = {
    limit: 100,
    window: { seconds: 10, source: 'learned' as const, how: 'a reset' },
    atLeast: 10,
  };
  // A limit announced without its window: a minute is assumed, then the window learned replaces it.
  expect(plannedRate(undefined, unshown)).toMatchObject({
    limitSource: 'announced',
    windowSource: 'assumed',
    windowSeconds: 60,
  });
  expect(plannedRate(undefined, { limit: 100, atLeast: 300 })).toMatchObject({
    windowSeconds: 300,
    windowSource: 'assumed',
  });
  expect(plannedRate(undefined, learned)).toMatchObject({ windowSeconds: 10, windowSource: 'learned' });
  // CONFORMANCE_RATE_LIMIT governs what the target shows of a rate as fast or faster...
  expect(plannedRate(configured, unshown)).toMatchObject({
    limitSource: 'configured',
    windowSource: 'configured',
  });
  expect(plannedRate(configured)).toMatchObject({ windowSeconds: 60, limitSource: 'configured' });
  expect(plannedRate({ limit: 100, windowSeconds: 20 }, learned)).toMatchObject({
    windowSeconds: 20,
    windowSource: 'configured',
  });
  // ...and yields to a stricter one: a slower rate learned, a lower limit while the window is unshown.
  const slower = plannedRate(
    { limit: 2000, windowSeconds: 60 },
    { ...learned, window: { ...learned.window, seconds: 60 } },
  );
  expect(slower).toMatchObject({
    limit: 100,
    windowSeconds: 60,
    limitSource: 'announced',
    windowSource: 'learned',
  });
  expect(slower?.how).toMatch(/^the target's answers contradict CONFORMANCE_RATE_LIMIT=2000\/60/);
  expect(plannedRate({ limit: 2000, windowSeconds: 60 }, unshown)).toMatchObject({
    limit: 100,
    windowSeconds: 60,
    limitSource: 'announced',
    windowSource: 'configured',
  });
  // A configured limit governs the plan: budgeted behind 100 a minute, whatever the target left unsaid.
  expect(depthPlan({ ...inputs, rate: plannedRate(configured) })).toMatchObject({ depth: 'budgeted' });
  expect(depthPlan({ ...inputs, rate: plannedRate(configured) }).why).toMatch(
    /^the rate limit is 100 per 60 s \(configured by CONFORMANCE_RATE_LIMIT\)/,
  );
  expect(plannedRate()).toBeUndefined();
});

test('budgeted: every limit value and every form in every run; each collection meets each within a few runs', () => {
  const budgeted = (rotation: number) => depthPlan({ ...inputs, rotation, rate: announced(100, 60) });
  const seen = new Set<string>();
  for (const rotation of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
    const plan = budgeted(rotation);
    const all = COLLECTIONS.map((_, index) => collectionClasses(plan, index));
    expect(new Set(all.flatMap((classes) => classes.limits))).toEqual(new Set(LIMIT_VALUES));
    expect(new Set(all.flatMap((c) => c.startForms.map(describeForm)))).toEqual(
      new Set(START_FORMS.map(describeForm)),
    );
    expect(new Set(all.flatMap((c) => c.endForms.map(describeForm)))).toEqual(
      new Set(END_FORMS.map(describeForm)),
    );
    expect(new Set(all.flatMap((c) => c.windows.map((w) => w.limit)))).toEqual(new Set([1, 2, 7]));
    // Each small walk reaches page 5.
    for (const { limit, records } of all.flatMap((c) => c.windows))
      expect(records).toBeGreaterThan(4 * limit);
    all.forEach((classes, index) => {
      for (const limit of classes.limits) seen.add(`${COLLECTIONS[index]} limit ${limit}`);
      for (const { limit } of classes.windows) seen.add(`${COLLECTIONS[index]} walk ${limit}`);
    });
    // Four runs: every (collection, limit) pair and every (collection, small page size) pair.
    if (rotation === 3) expect(seen.size).toBe(COLLECTIONS.length * (LIMIT_VALUES.length + 3));
  }
});

test("the doctor's estimate of a paced run: the windows its requests fill, the burst's wait for the last one's reset", () => {
  const rate = announced(100, 60);
  const plan = depthPlan({ ...inputs, rate });
  // The burst runs last on a shared target: the plan's requests less the embedded burst's, then a whole window.
  const shared = wallTimeEstimate(plan, { user: rate }, { burstLast: true });
  const requests = plan.requests.user - 25;
  const windows = Math.ceil(requests / 100);
  expect(shared.seconds).toBe((windows - 1) * 60 + 60 + 10);
  expect(shared.parts).toContain("the 429 burst's wait for its window's reset, about 60 s");
  // Within one window, the run ends at any point of it: half a window on average.
  const small = { ...plan, requests: { ...plan.requests, user: 95 } };
  expect(wallTimeEstimate(small, { user: rate }, { burstLast: true }).seconds).toBe(60);
  expect(wallTimeEstimate(small, { user: announced(100, 600) }, { burstLast: true }).seconds).toBe(310);
  // On the embedded sandbox the burst has a token of its own: nothing to wait for.
  expect(wallTimeEstimate(plan, { user: rate }, { burstLast: false }).seconds).toBe(
    (Math.ceil(plan.requests.user / 100) - 1) * 60 + 10,
  );
});

test("the doctor says when the machine is busy: its estimate is a quiet machine's", () => {
  expect(busyMachineLine(2, 2)).toBeUndefined();
  expect(busyMachineLine(15.24, 2)).toBe(
    "  ! this machine is busy (load average 15.2 on 2 cores): the estimate is a quiet machine's, and the run's own part of it grows with the load (~60 s quiet took 130 s at 15 on 2 cores)",
  );
});

/** The user-data requests of a budgeted run of the user-data checks against the embedded sandbox. */
async function userRequests(variants: string): Promise<number> {
  const reports = join(scratchDir(), variants || 'default-history');
  const [command, args] = cli('run', '--', '--grep-invert', '@partner');
  const { output } = await runProcess(
    command,
    args,
    {
      CONFORMANCE_DEPTH: 'budgeted',
      // Unset, not empty: a variable set but empty is refused.
      CONFORMANCE_SANDBOX_VARIANTS: variants || undefined,
      CONFORMANCE_REPORTS_DIR: reports,
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    },
    true,
  );
  const report = readResult(join(reports, 'conformance.json'));
  expect(
    report.requirements.filter((r) => r.status === 'fail').map((r) => r.id),
    output,
  ).toEqual([]);
  return report.requests?.byCredential.user ?? 0;
}

test('a budgeted run sends as many user-data requests for three years of history as for the default, within the plan', async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const [usual, long] = await Promise.all([userRequests(''), userRequests('long-history')]);
  expect(Math.abs(long - usual), `${usual} and ${long} requests`).toBeLessThanOrEqual(usual * 0.02);
  const planned = depthPlan({ profile: 'ci-gate', runTimeoutSeconds: 900, rotation: 0, pinned: 'budgeted' })
    .requests.user;
  // Within 5%: the doctor's estimate of a paced run's wall time counts the windows these requests fill.
  expect(Math.abs(usual - planned), `${usual} requests, ${planned} planned`).toBeLessThanOrEqual(
    planned * 0.05,
  );
});

test("the console's progress counts against the plan the run recorded: the deep plan's requests on the sandbox", () => {
  const deep = depthPlan({ profile: 'ci-gate', runTimeoutSeconds: 900, rotation: 0 });
  expect(deep.depth).toBe('deep');
  const { user, partner, other } = deep.requests;
  const annotations = [{ type: DEPTH_ANNOTATION, description: JSON.stringify(deep) }];
  expect(plannedRequests(annotations)).toBe(user + partner + other);
  expect(progressLine(1500, plannedRequests(annotations), 10.4)).toBe(
    `1500/${user + partner + other} requests planned, 10 s left of the run budget`,
  );
  expect(progressLine(12, plannedRequests([]), 10)).toBe('12 requests sent, 10 s left of the run budget');
});
