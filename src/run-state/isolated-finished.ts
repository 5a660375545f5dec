// Where the isolated tests share the target with the others (a target the run did not start: src/config/
// run-plan.ts), the projects wait for one another: the others for the isolated tests that run first, the
// 429 burst for the others. The runner's reporter (src/runner/report/isolated-first-reporter.ts) writes a
// file once the last test of a group has ended, or at once when the run has none; a worker waits for it
// before its first test. Global setup clears them with the run's files.
import { existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { reportPath } from './reports-dir.ts';

const POLL_MS = 100;

/** The groups a worker may wait for: the isolated tests that run first, the others. */
export type WaitedGroup = 'first' | 'after';

const marker = (group: WaitedGroup): string => reportPath(`.run/ended-${group}`);

/** The runner: every test of `group` has ended. */
export function markEnded(group: WaitedGroup): void {
  writeFileSync(marker(group), '');
}

/** Resolves once every test of `group` has ended. */
export async function ended(group: WaitedGroup): Promise<void> {
  while (!existsSync(marker(group))) await sleep(POLL_MS);
}
