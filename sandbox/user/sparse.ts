// Variant sparse-user: little or no data, still consistent. User A keeps only the three newest cycles (the
// newest is current, without end), their main sleeps and recoveries (none SCORED: the newest PENDING_SCORE,
// the others UNSCORABLE), no nap, no workout and no body measurement; user B keeps nothing but the profile.
import type { UserRecords } from './types.ts';

const KEPT_CYCLES = 3;

/** Thins the records of the account at `index` (0 = user A, 1 = user B) in place. */
export function makeSparse(records: UserRecords, index: number): void {
  const keep = index === 0 ? KEPT_CYCLES : 0;
  records.cycles = keep === 0 ? [] : records.cycles.slice(-keep);
  const cycleIds = new Set(records.cycles.map((cycle) => cycle.id));
  records.sleeps = records.sleeps.filter((sleep) => !sleep.nap && cycleIds.has(sleep.cycle_id));
  records.recoveries = records.recoveries.filter((recovery) => cycleIds.has(recovery.cycle_id));
  records.recoveries.forEach((recovery, position) => {
    const newest = position === records.recoveries.length - 1;
    recovery.score_state = newest ? 'PENDING_SCORE' : 'UNSCORABLE';
    delete recovery.score;
  });
  records.workouts = [];
  delete records.body;
}
