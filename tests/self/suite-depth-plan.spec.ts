// The depth plan (src/config/depth-plan.ts) and the rotation of the finite domains (src/config/input-classes.ts):
// which depth each target gets and why; every limit value and every form in every run, each collection
// meeting each value within a few runs; and, end to end against the embedded sandbox, a budgeted run that
// sends no more user-data requests for an account with three years of history than for the default one.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { collectionClasses, depthPlan } from '../../src/config/depth-plan.ts';
import { COLLECTIONS, END_FORMS, LIMIT_VALUES, START_FORMS } from '../../src/config/input-classes.ts';
import { describeForm } from '../../src/contract/date-time-forms.ts';
import { DEPTH_ANNOTATION, plannedRequests } from '../../src/report/input-coverage.ts';
import { progressLine } from '../../src/report/progress-line.ts';
import { readResult } from '../../src/result/validate.ts';
import { cli, runProcess } from '../../src/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

const inputs = { profile: 'ci-gate' as const, runTimeoutSeconds: 900, rotation: 0 };

test('the depth follows what the target allows: no limit deep, a production limit budgeted, smoke its own', () => {
  const open = depthPlan(inputs);
  expect(open).toMatchObject({ depth: 'deep', propertyCases: 100, classes: 'whole' });
  expect(open.why).toBe('the target announces no rate limit with its window');
  const embedded = depthPlan({ ...inputs, announced: { limit: 20_000, windowSeconds: 2 } });
  expect(embedded.depth).toBe('deep');
  const production = depthPlan({ ...inputs, announced: { limit: 100, windowSeconds: 60 } });
  expect(production).toMatchObject({ depth: 'budgeted', propertyCases: 6, classes: 'rotated' });
  expect(production.why).toMatch(
    /announces 100 per 60 s: the deep plan's ~\d+ user-data requests would wait \d+ min/,
  );
  expect(depthPlan({ ...inputs, profile: 'smoke' })).toMatchObject({ depth: 'smoke', classes: 'none' });
  // A short run budget draws fewer cases, never fewer than the budgeted plan's.
  expect(depthPlan({ ...inputs, runTimeoutSeconds: 120 }).propertyCases).toBe(26);
  expect(depthPlan({ ...inputs, runTimeoutSeconds: 30 }).propertyCases).toBe(6);
  expect(depthPlan({ ...inputs, pinned: 'budgeted' }).why).toBe('CONFORMANCE_DEPTH=budgeted pins it');
});

test('budgeted: every limit value and every form in every run; each collection meets each within a few runs', () => {
  const budgeted = (rotation: number) =>
    depthPlan({ ...inputs, rotation, announced: { limit: 100, windowSeconds: 60 } });
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
  expect(Math.abs(usual - planned), `${usual} requests, ${planned} planned`).toBeLessThanOrEqual(
    planned * 0.1,
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
