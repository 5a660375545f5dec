// Indexes of the generated records, built once at start-up so that requests only slice precomputed arrays:
// per user, each collection sorted newest first with its JSON pre-serialised; across users, maps by id (the
// owner is checked by the route, so another user's id gives 404).
import type { UserRecords } from './types.ts';

export type CollectionName = 'cycle' | 'sleep' | 'workout' | 'recovery';

export interface Stored {
  userId: number;
  record: object;
  /** JSON.stringify(record), computed once. */
  json: string;
}

export interface Entry extends Stored {
  /** Sort and filter key: the start (ms) of the record; for recoveries, the start of their sleep. */
  key: number;
  /** The end (ms) of the record, Infinity while ongoing; for recoveries, the end of their sleep. */
  end: number;
  /** Tie-breaker for equal keys (descending): the id, for recoveries the cycle id. */
  tie: string;
  /** updated_at in ms. */
  updated: number;
}

export interface ActivityMapping extends Stored {
  v1Id: number;
  v2Id: string;
}

export interface UserData {
  userId: number;
  /** Newest first: cycles, sleeps and workouts by start; recoveries by the start of their sleep. */
  collections: Readonly<Record<CollectionName, readonly Entry[]>>;
  /** Absent when the user has no body measurement. */
  body?: Stored;
  profile: Stored;
}

export interface DataStore {
  users: ReadonlyMap<number, UserData>;
  cycles: ReadonlyMap<string, Stored>;
  sleeps: ReadonlyMap<string, Stored>;
  workouts: ReadonlyMap<string, Stored>;
  /** The main sleep (not a nap) of each cycle, by cycle id. */
  sleepByCycle: ReadonlyMap<string, Stored>;
  recoveryByCycle: ReadonlyMap<string, Stored>;
  /** By V1 id: the V2 uuid of the sleep or workout carrying it. */
  activities: ReadonlyMap<string, ActivityMapping>;
}

/** [start, end] in ms of a record (end Infinity while ongoing). */
type Interval = readonly [start: number, end: number];

const stored = (userId: number, record: object): Stored => ({ userId, record, json: JSON.stringify(record) });

const newestFirst = (a: Entry, b: Entry): number =>
  b.key - a.key || (a.tie < b.tie ? 1 : a.tie > b.tie ? -1 : 0);

function entry(
  userId: number,
  record: { updated_at: string; id?: unknown; cycle_id?: unknown },
  [key, end]: Interval,
): Entry {
  return {
    ...stored(userId, record),
    key,
    end,
    tie: String(record.id ?? record.cycle_id),
    updated: Date.parse(record.updated_at),
  };
}

export function buildStore(allRecords: readonly UserRecords[]): DataStore {
  const users = new Map<number, UserData>();
  const cycles = new Map<string, Stored>();
  const sleeps = new Map<string, Stored>();
  const workouts = new Map<string, Stored>();
  const sleepByCycle = new Map<string, Stored>();
  const recoveryByCycle = new Map<string, Stored>();
  const activities = new Map<string, ActivityMapping>();

  for (const records of allRecords) {
    const { userId } = records;
    /** Builds the entry of each record and indexes it under `index(record)` in `byId`. */
    const indexed = <T extends { updated_at: string; id?: unknown; cycle_id?: unknown }>(
      list: readonly T[],
      byId: Map<string, Stored>,
      interval: (record: T) => Interval,
      index: (record: T) => unknown,
    ): Entry[] =>
      list.map((record) => {
        const item = entry(userId, record, interval(record));
        byId.set(String(index(record)), item);
        return item;
      });
    const interval = (record: { start: string; end?: string | null }): Interval => [
      Date.parse(record.start),
      record.end ? Date.parse(record.end) : Number.POSITIVE_INFINITY,
    ];
    const cycleEntries = indexed(records.cycles, cycles, interval, (cycle) => cycle.id);
    const sleepEntries = indexed(records.sleeps, sleeps, interval, (sleep) => sleep.id);
    const workoutEntries = indexed(records.workouts, workouts, interval, (workout) => workout.id);
    const sleepInterval = new Map(records.sleeps.map((sleep) => [String(sleep.id), interval(sleep)]));
    const cycleInterval = new Map(records.cycles.map((cycle) => [cycle.id, interval(cycle)]));
    const recoveryEntries = indexed(
      records.recoveries,
      recoveryByCycle,
      (recovery) =>
        sleepInterval.get(String(recovery.sleep_id)) ?? cycleInterval.get(recovery.cycle_id) ?? [0, 0],
      (recovery) => recovery.cycle_id,
    );
    for (const sleep of records.sleeps) {
      const item = sleeps.get(String(sleep.id));
      if (item && !sleep.nap) sleepByCycle.set(String(sleep.cycle_id), item);
    }
    for (const activity of [...records.sleeps, ...records.workouts]) {
      if (activity.v1_id === undefined) continue;
      const mapping = { v2_activity_id: activity.id };
      activities.set(String(activity.v1_id), {
        ...stored(userId, mapping),
        v1Id: activity.v1_id,
        v2Id: activity.id,
      });
    }

    users.set(userId, {
      userId,
      collections: {
        cycle: cycleEntries.sort(newestFirst),
        sleep: sleepEntries.sort(newestFirst),
        workout: workoutEntries.sort(newestFirst),
        recovery: recoveryEntries.sort(newestFirst),
      },
      ...(records.body ? { body: stored(userId, records.body) } : {}),
      profile: stored(userId, records.profile),
    });
  }
  return { users, cycles, sleeps, workouts, sleepByCycle, recoveryByCycle, activities };
}
