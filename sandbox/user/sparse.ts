// Variants of little data, still consistent. sparse-user: user A keeps only the three newest cycles (the
// newest is current, without end), their main sleeps and recoveries (none SCORED: the newest PENDING_SCORE,
// the others UNSCORABLE), no nap, no workout and no body measurement; user B keeps nothing but the profile.
// few-records-user-b: user B keeps its two newest cycles, their main sleeps and recoveries, two workouts.
import type { UserRecords } from './types.ts';

const KEPT_CYCLES = 3;
/** Variant few-records-user-b: the records user B keeps of each collection. */
export const FEW_RECORDS = 2;

/** Keeps the `cycles` newest cycles of `records`, their main sleeps and their recoveries, in place. */
function keepNewestCycles(records: UserRecords, cycles: number): void {
  records.cycles = cycles === 0 ? [] : records.cycles.slice(-cycles);
  const cycleIds = new Set(records.cycles.map((cycle) => cycle.id));
  records.sleeps = records.sleeps.filter((sleep) => !sleep.nap && cycleIds.has(sleep.cycle_id));
  records.recoveries = records.recoveries.filter((recovery) => cycleIds.has(recovery.cycle_id));
}

/** Thins the records of the account at `index` (0 = user A, 1 = user B) in place. */
export function makeSparse(records: UserRecords, index: number): void {
  keepNewestCycles(records, index === 0 ? KEPT_CYCLES : 0);
  records.recoveries.forEach((recovery, position) => {
    const newest = position === records.recoveries.length - 1;
    recovery.score_state = newest ? 'PENDING_SCORE' : 'UNSCORABLE';
    delete recovery.score;
  });
  records.workouts = [];
  delete records.body;
}

/** Variant few-records-user-b: user B's records, FEW_RECORDS of each collection, in place. */
export function keepFewRecords(records: UserRecords): void {
  keepNewestCycles(records, FEW_RECORDS);
  records.workouts = records.workouts.slice(-FEW_RECORDS);
}
