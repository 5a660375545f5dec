// The start/end filters judged on what a filtered read served, as data. A record is its identity and the
// time compared with the bound (its start, or its finish against start): one beyond the bound is a problem,
// one exactly at it a warning (the suite's reading of a loose boundary); a record at or after start that the
// start-filtered walk lacks is missing.
import { iso } from '../text/iso-time.ts';

/** A record as the filter judgements see it: its identity and the time compared with the bound. */
export interface TimedRecord {
  id: string;
  time: number;
}

/** A bound of a filter: its parameter and time, which times lie beyond it, and what to say of each record. */
export interface FilterBound {
  param: 'start' | 'end';
  at: number;
  beyond: (time: number, bound: number) => boolean;
  /** What a record beyond the bound did (its time given), and what one exactly at it did. */
  leaked: (time: string) => string;
  atBound: string;
}

/** The records of one filtered read beyond its bound (problems), and those exactly at it (warnings). */
export function boundCrossings(served: readonly TimedRecord[], bound: FilterBound) {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const { id, time } of served) {
    const which = `${bound.param}=${iso(bound.at)}: record ${id}`;
    if (bound.beyond(time, bound.at)) problems.push(`${which} ${bound.leaked(iso(time))}`);
    else if (time === bound.at) warnings.push(`${which} ${bound.atBound}`);
  }
  return { problems, warnings };
}

/**
 * Every record (by its earliest time) that starts at or after `start` must be in `found`: those missing, and
 * how many were checked. The record at `anchor` (its position) is the one whose start the bound is.
 */
export function missingFromStart(
  records: readonly TimedRecord[],
  found: ReadonlySet<string>,
  start: number,
  anchor: number,
) {
  let checked = 0;
  const problems = records.flatMap(({ id, time }, index) => {
    if (time < start) return [];
    checked++;
    if (found.has(id)) return [];
    const exact = index === anchor ? ' (it starts exactly at start)' : '';
    return [`start=${iso(start)}: record ${id} starting ${iso(time)} is missing${exact}`];
  });
  return { problems, checked };
}
