// A record of a user-data collection as the checks see it: its identity, and the time extent that the
// start/end filters and the ordering talk about.
import { ConformanceFailure } from '../../protocol/failure.ts';

/** A record of a user-data collection, as received (fields are checked, never assumed). */
export interface DataRecord {
  [field: string]: unknown;
  id?: unknown;
  start?: unknown;
  end?: unknown;
  score_state?: unknown;
  score?: unknown;
}

/** A record's identity: its id; a recovery (which has none) is its cycle and sleep. */
export function identityOf(record: DataRecord): string {
  if (record.id !== undefined) return String(record.id);
  return `cycle ${String(record.cycle_id)} / sleep ${String(record.sleep_id)}`;
}

/** The ids of records, lower-cased (a uuid may be served in either case). */
export const idSet = (records: readonly DataRecord[]): Set<string> =>
  new Set(records.map((record) => String(record.id).toLowerCase()));

/** The records of a page or walk as identities, in order. */
export const identities = (records: readonly DataRecord[]): string[] => records.map(identityOf);

/** `first difference at position 3: a vs b` between two sequences of identities, or undefined when equal. */
export function sequenceDifference(a: readonly string[], b: readonly string[]): string | undefined {
  for (let index = 0; index < Math.max(a.length, b.length); index++)
    if (a[index] !== b[index])
      return `first difference at position ${index}: ${a[index] ?? '(end)'} vs ${b[index] ?? '(end)'} (${a.length} vs ${b.length} records)`;
  return undefined;
}

/** The first difference between two sequences of records, by identity, or undefined when they are the same. */
export const recordDifference = (a: readonly DataRecord[], b: readonly DataRecord[]): string | undefined =>
  sequenceDifference(identities(a), identities(b));

/** Whether `records` hold `record` (by identity). */
export const holds = (records: readonly DataRecord[], record: DataRecord): boolean =>
  records.some((one) => identityOf(one) === identityOf(record));

/**
 * When a record happened, as far as the seed lets a client tell. Records are taken to occupy [start, end)
 * (end absent: still going). The seed orders recoveries "by the start time of the related sleep" but does
 * not say which time the start/end filters apply to for a recovery, so a recovery's extent is the union
 * of its sleep's and its cycle's: a filter assertion on a recovery holds under either reading.
 */
export interface Extent {
  /** Sort key of the seed's ordering: start; for a recovery, the start of its sleep. */
  key: number;
  /** Earliest and latest of the times a filter could be applied to (equal unless a recovery). */
  earliest: number;
  latest: number;
  /** When it ended (Infinity while it lasts): the latest of the times it could be taken to end. */
  finish: number;
  /** The earliest of those times (equal to finish unless a recovery). */
  earliestFinish: number;
}

export type ExtentOf = (record: DataRecord) => Extent | undefined;

const ms = (value: unknown): number => (typeof value === 'string' ? Date.parse(value) : Number.NaN);

/** The extent of a record that carries its own start and end (cycles, sleeps, workouts). */
export function ownExtent(record: DataRecord): Extent | undefined {
  const start = ms(record.start);
  if (Number.isNaN(start)) return undefined;
  const end = record.end === undefined || record.end === null ? Number.POSITIVE_INFINITY : ms(record.end);
  if (Number.isNaN(end)) return undefined;
  return { key: start, earliest: start, latest: start, finish: end, earliestFinish: end };
}

/** The extent of a recovery: the union of its sleep's and its cycle's, found in those complete collections. */
export function recoveryExtents(sleeps: readonly DataRecord[], cycles: readonly DataRecord[]): ExtentOf {
  const sleepById = new Map(sleeps.map((sleep) => [String(sleep.id), ownExtent(sleep)]));
  const cycleById = new Map(cycles.map((cycle) => [String(cycle.id), ownExtent(cycle)]));
  return (recovery) => {
    const sleep = sleepById.get(String(recovery.sleep_id));
    const cycle = cycleById.get(String(recovery.cycle_id));
    if (!sleep || !cycle) return undefined;
    return {
      key: sleep.key,
      earliest: Math.min(sleep.earliest, cycle.earliest),
      latest: Math.max(sleep.latest, cycle.latest),
      finish: Math.max(sleep.finish, cycle.finish),
      earliestFinish: Math.min(sleep.earliestFinish, cycle.earliestFinish),
    };
  };
}

/** `extentOf(record)`, failing (naming the requirement) when the record's time cannot be told. */
export function extentOrFail(extentOf: ExtentOf, record: DataRecord, requirement: string): Extent {
  const extent = extentOf(record);
  if (!extent) {
    throw new ConformanceFailure(
      requirement,
      `cannot tell when record ${identityOf(record)} happened (no valid start/end, or a recovery whose sleep or cycle is not in its collection)`,
    );
  }
  return extent;
}

export { iso } from '../../text/iso-time.ts';
