// The phases of a run that no reporter sees (global setup, each target's start, logins, teardown), timed
// where they happen, in any process of the run, as JSON lines beside the run's manifest; `npm run bench`
// reads them back. Outside a run (a command that signs in, a self test) nothing is recorded.

import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readJsonLines } from './json-lines.ts';
import { processVariable } from './process-variables.ts';

export type Phase = 'global setup' | 'target start' | 'login' | 'teardown';

const PHASE_LOG = join('.run', 'phases.ndjson');

/** Runs `work`, recording how long it took as one `phase` of the current run. */
export async function timed<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const manifest = processVariable('CONFORMANCE_RUN_MANIFEST');
    const line = JSON.stringify({ phase, ms: Math.round(performance.now() - started) });
    if (manifest) appendFileSync(join(dirname(manifest), PHASE_LOG), `${line}\n`);
  }
}

/** The phases a run recorded in `reportsDir`: count and total milliseconds of each. */
export function recordedPhases(reportsDir: string): Partial<Record<Phase, { count: number; ms: number }>> {
  const phases: Partial<Record<Phase, { count: number; ms: number }>> = {};
  for (const { phase, ms } of readJsonLines<{ phase: Phase; ms: number }>(join(reportsDir, PHASE_LOG))) {
    const total = phases[phase] ?? { count: 0, ms: 0 };
    phases[phase] = { count: total.count + 1, ms: total.ms + ms };
  }
  return phases;
}
