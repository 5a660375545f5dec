// Global setup goes on while Playwright loads the spec files and starts the workers (src/runner/run/global-setup.ts):
// none of that needs the targets, and a worker's start (its own process, about a second) need not wait for
// them. A file beside the run manifest says when the setup has finished (the manifests or the run error
// written); a worker's first test waits for it. Outside a run (no manifest named) there is nothing to wait for.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processVariable } from './process-variables.ts';

const POLL_MS = 10;

const marker = (): string | undefined => {
  const manifest = processVariable('CONFORMANCE_RUN_MANIFEST');
  return manifest && join(dirname(manifest), '.run', 'setup-finished');
};

/** Global setup: the run's setup has finished, well or not. */
export function markSetupFinished(): void {
  const file = marker();
  if (file) writeFileSync(file, '');
}

/** Resolves once the run's global setup has finished. */
export async function setupFinished(): Promise<void> {
  const file = marker();
  while (file && !existsSync(file)) await sleep(POLL_MS);
}
