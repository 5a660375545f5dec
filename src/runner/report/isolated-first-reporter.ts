// Tells the workers of a run when its isolated tests have all ended (src/run-state/isolated-finished.ts): on a
// target they share with the others, the others wait for them (src/config/run-plan.ts `isolatedFirst`). Listed
// in every run's reporters, a shard's too; a run without isolated tests (a narrowed one, a later shard) says
// so as it begins. Where a --reporter list of the user's own lacks it, nothing would tell the others: the
// isolated tests are then not verified (src/worker/suite/fixtures.ts; src/protocol/isolated-first.ts), and the others do not wait.
import type { Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { markIsolatedFinished } from '../../run-state/isolated-finished.ts';

/** The role of a test's project (src/config/run-plan.ts), as playwright.config.ts states it in its metadata. */
const isolated = (test: TestCase): boolean => test.parent.project()?.metadata.role === 'isolated';

export default class IsolatedFirstReporter implements Reporter {
  private left = new Set<TestCase>();

  onBegin(_config: unknown, suite: Suite): void {
    this.left = new Set(suite.allTests().filter(isolated));
    if (this.left.size === 0) markIsolatedFinished();
  }

  onTestEnd(test: TestCase): void {
    if (!this.left.delete(test) || this.left.size > 0) return;
    markIsolatedFinished();
  }

  printsToStdio(): boolean {
    return false;
  }
}
