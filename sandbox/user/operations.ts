// The user-data and utility read operations, declared as data for the two generic handlers
// (collection.ts, single.ts); their method, path and scope are in the route table (../route-table.ts).
// Faults that change what one operation finds live in its `find`.
import { createPrng, deriveSeed } from '../prng.ts';
import type { CollectionOperation } from './collection.ts';
import type { SingleOperation } from './single.ts';
import type { DataStore, Entry, Stored } from './store.ts';

const ascending = (window: Entry[]): Entry[] => window.reverse();
const byUpdated = (window: Entry[]): Entry[] => window.sort((a, b) => b.updated - a.updated);

export const collectionOperations: readonly CollectionOperation[] = [
  {
    operationId: 'listCycles',
    collection: 'cycle',
    scopeFault: 'scope-unchecked-list-cycles',
    reorderFaults: { 'cycle-order-ascending': ascending },
  },
  {
    operationId: 'listRecoveries',
    collection: 'recovery',
    scopeFault: 'scope-unchecked-list-recoveries',
    reorderFaults: { 'recovery-order-ascending': ascending, 'recovery-order-by-updated': byUpdated },
  },
  {
    operationId: 'listSleeps',
    collection: 'sleep',
    scopeFault: 'scope-unchecked-list-sleeps',
    reorderFaults: { 'sleep-order-ascending': ascending },
  },
  {
    operationId: 'listWorkouts',
    collection: 'workout',
    scopeFault: 'scope-unchecked-list-workouts',
    reorderFaults: { 'workout-order-ascending': ascending },
  },
];

const newest = (store: DataStore, userId: number, collection: 'cycle' | 'recovery'): Stored | undefined =>
  store.users.get(userId)?.collections[collection][0];

/** The key of the cycle before `cycleId` (cycle ids of a user are consecutive). */
const previousCycle = (cycleId: string): string => (BigInt(cycleId) - 1n).toString();

export const singleOperations: readonly SingleOperation[] = [
  {
    operationId: 'getCycleById',
    scopeFault: 'scope-unchecked-get-cycle',
    idKind: 'int64',
    find: ({ store, ctx }, id, userId) =>
      store.cycles.get(id) ??
      (ctx.fault('unknown-cycle-returns-newest') ? newest(store, userId, 'cycle') : undefined),
  },
  {
    operationId: 'getSleepForCycle',
    idKind: 'int64',
    find: ({ store, ctx }, id) =>
      store.sleepByCycle.get(ctx.fault('cycle-sleep-wrong-cycle') ? previousCycle(id) : id),
  },
  {
    operationId: 'getRecoveryForCycle',
    scopeFault: 'scope-unchecked-get-cycle-recovery',
    idKind: 'int64',
    find: ({ store, ctx }, id, userId) =>
      store.recoveryByCycle.get(ctx.fault('cycle-recovery-wrong-cycle') ? previousCycle(id) : id) ??
      (ctx.fault('cycle-subresource-unknown-200') ? newest(store, userId, 'recovery') : undefined),
  },
  {
    operationId: 'getSleepById',
    scopeFault: 'scope-unchecked-get-sleep',
    scopeNotFoundFault: 'scope-missing-404-get-sleep',
    idKind: 'uuid',
    find: ({ store }, id) => store.sleeps.get(id),
  },
  {
    operationId: 'getWorkoutById',
    scopeFault: 'scope-unchecked-get-workout',
    idKind: 'uuid',
    find: ({ store }, id) => store.workouts.get(id),
  },
  {
    operationId: 'getBodyMeasurement',
    scopeFault: 'scope-unchecked-body-measurement',
    find: ({ store }, _id, userId) => store.users.get(userId)?.body,
  },
  {
    operationId: 'getBasicProfile',
    scopeFault: 'scope-unchecked-profile',
    find: ({ store }, _id, userId) => store.users.get(userId)?.profile,
  },
  {
    // Security not shown by the seed: any valid user token; only the user's own activities are mapped.
    operationId: 'getActivityMapping',
    pathFaults: { 'activity-mapping-under-v2': '/v2/activity-mapping/{activityV1Id}' },
    idKind: 'int64',
    find: ({ store, ctx }, id, userId) => {
      const mapping = store.activities.get(id);
      if (!mapping) {
        if (!ctx.fault('activity-mapping-unknown-200')) return undefined;
        const record = { v2_activity_id: createPrng(deriveSeed(ctx.options.seed, `unknown:${id}`)).uuid() };
        return { userId, record, json: JSON.stringify(record) };
      }
      if (ctx.fault('activity-mapping-wrong-id')) {
        return (
          store.activities.get(String(mapping.v1Id + 1)) ?? store.activities.get(String(mapping.v1Id - 1))
        );
      }
      return mapping;
    },
  },
];
