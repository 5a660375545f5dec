// Where the isolated tests share the target with the others (a target the run did not start: src/config/
// run-plan.ts), they run first and the others' workers wait for them: the runner's reporter of them
// (src/runner/report/isolated-first-reporter.ts) writes a file once the last has ended, or at once when the run has
// none; a worker of the others waits for it before its first test. Global setup clears it with the run's files.
import { existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { reportPath } from './reports-dir.ts';

const POLL_MS = 100;

const marker = (): string => reportPath('.run/isolated-finished');

/** The runner: every isolated test of the run has ended. */
export function markIsolatedFinished(): void {
  writeFileSync(marker(), '');
}

/** Resolves once every isolated test of the run has ended. */
export async function isolatedFinished(): Promise<void> {
  while (!existsSync(marker())) await sleep(POLL_MS);
}
