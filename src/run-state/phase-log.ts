// The phases of a run that no reporter sees (global setup, each target's start, logins, teardown), timed
// where they happen, in any process of the run, as JSON lines beside the run's manifest; `npm run bench`
// reads them back. Outside a run (a command that signs in, a self test) nothing is recorded.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  const file = join(reportsDir, PHASE_LOG);
  const phases: Partial<Record<Phase, { count: number; ms: number }>> = {};
  if (!existsSync(file)) return phases;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { phase, ms } = JSON.parse(line) as { phase: Phase; ms: number };
    const total = phases[phase] ?? { count: 0, ms: 0 };
    phases[phase] = { count: total.count + 1, ms: total.ms + ms };
  }
  return phases;
}
