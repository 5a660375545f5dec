// Tells the workers of a run when a group of its tests has ended (src/run-state/isolated-finished.ts): on a
// target the isolated tests share with the others, the others wait for the isolated tests that run first,
// and the 429 burst for the others (src/config/run-plan.ts `isolatedFirst`). Listed in every run's
// reporters, a shard's too; a group the run lacks (a narrowed run, a later shard) is said at once. Where a
// --reporter list of the user's own lacks it, nothing would tell the workers: the isolated tests are then
// not verified (src/worker/suite/test-guards.ts; src/protocol/isolated-first.ts), and the others do not wait.
import type { Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { markEnded, type WaitedGroup } from '../../run-state/isolated-finished.ts';

/** A test's project's place (src/config/run-plan.ts `Isolation`), as playwright.config.ts states it. */
const isolationOf = (test: TestCase): unknown => test.parent.project()?.metadata.isolation;

export default class IsolatedFirstReporter implements Reporter {
  private readonly left = new Map<WaitedGroup, Set<TestCase>>();

  onBegin(_config: unknown, suite: Suite): void {
    for (const group of ['first', 'after'] as const) {
      this.left.set(group, new Set(suite.allTests().filter((test) => isolationOf(test) === group)));
      if (this.left.get(group)?.size === 0) markEnded(group);
    }
  }

  onTestEnd(test: TestCase): void {
    for (const [group, tests] of this.left) if (tests.delete(test) && tests.size === 0) markEnded(group);
  }

  printsToStdio(): boolean {
    return false;
  }
}
