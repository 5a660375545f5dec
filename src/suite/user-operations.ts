// Helpers for the user-data conformance tests: the user-data operations of the catalogue, valid requests
// for any of them (ids taken from the first records of the user's own collections), memoised collection
// walks, and the time extent of collection records that the start/end filters and the ordering talk about.
import type { Operation } from '../contract/operation-model.ts';
import { operationById, operations } from '../contract/operations.ts';
import { buildPath } from '../contract/request-paths.ts';
import type { ApiClient, ApiRequest } from '../http/api-client.ts';
import { type CollectionWalk, readPage, walkCollection } from './collections.ts';
import { ConformanceFailure, notVerified } from './verdicts.ts';

export type JsonRecord = Record<string, unknown>;

/** The user-data operations of the catalogue (the 12 of the seed's table). */
export const userDataOperations: readonly Operation[] = operations.filter((op) => op.area === 'user-data');

/** The paginated collections (GET /v2/cycle, /v2/recovery, /v2/activity/sleep, /v2/activity/workout). */
export const collectionOperations: readonly Operation[] = userDataOperations.filter((op) => op.isCollection);

/** `GET /v2/cycle/{cycleId} (getCycleById)`: how a test names an operation. */
export function describeOperation(op: Operation): string {
  return `${op.method} ${op.path} (${op.operationId})`;
}

/** A value of every path parameter the user-data and utility operations take, for one user. */
export type KnownIds = Record<string, string>;

const idCache = new Map<string, Promise<KnownIds>>();

async function firstRecord(
  api: ApiClient,
  op: Operation,
  token: string,
  requirement: string,
  query: Record<string, string | number> = {},
): Promise<JsonRecord | undefined> {
  const page = await readPage<JsonRecord>(api, buildPath(op), { token, query, limit: 1, requirement });
  return page.records[0];
}

/**
 * Ids of the user's own records (cached per token and worker): cycleId is the cycle of the newest recovery
 * (so it has a sleep and a recovery), sleepId that recovery's sleep, workoutId the newest workout, and
 * activityV1Id the v1_id of the newest sleep that started before the V1 cut-off (2025-09-01).
 * Needs a token holding read:recovery, read:workout and read:sleep.
 */
export function knownIds(api: ApiClient, token: string): Promise<KnownIds> {
  let ids = idCache.get(token);
  if (!ids) {
    ids = (async () => {
      const recovery = await firstRecord(api, operationById('listRecoveries'), token, 'OP-LIST-RECOVERIES');
      const workout = await firstRecord(api, operationById('listWorkouts'), token, 'OP-LIST-WORKOUTS');
      // An id the user's data cannot supply stays absent: a check that needs it is then not verified.
      const known: KnownIds = Object.fromEntries(
        Object.entries({ cycleId: recovery?.cycle_id, sleepId: recovery?.sleep_id, workoutId: workout?.id })
          .filter(([, value]) => value !== undefined)
          .map(([name, value]) => [name, String(value)]),
      );
      const oldSleep = await firstRecord(api, operationById('listSleeps'), token, 'OP-LIST-SLEEPS', {
        end: '2025-09-01T00:00:00.000Z',
      }).catch(() => undefined);
      if (oldSleep?.v1_id !== undefined) known.activityV1Id = String(oldSleep.v1_id);
      return known;
    })();
    ids.catch(() => idCache.delete(token));
    idCache.set(token, ids);
  }
  return ids;
}

/**
 * The statuses that show a request was authorized and served as the seed allows: the success statuses,
 * and the "404 no resource found" of an operation without parameters (a user without a body measurement).
 */
export function servedStatuses(op: Operation): readonly number[] {
  return op.pathParams.length === 0 && op.statuses.includes(404)
    ? [...op.successStatuses, 404]
    : op.successStatuses;
}

/** Whether building a request for `op` needs record ids. */
export function needsIds(op: Operation): boolean {
  return op.pathParams.length > 0;
}

/** The path parameters of a valid request for `op`. */
export function pathParamsFor(op: Operation, ids: KnownIds = {}): Record<string, string> {
  return Object.fromEntries(
    op.pathParams.map((param) => {
      const value = ids[param.name];
      if (value === undefined)
        notVerified(`user A's data supplies no value for ${op.path}'s path parameter ${param.name}`);
      return [param.name, value];
    }),
  );
}

/** A valid request for `op` (method and path); the caller adds the token or headers. */
export function requestFor(op: Operation, ids?: KnownIds): Pick<ApiRequest, 'method' | 'path'> {
  return { method: op.method, path: buildPath(op, pathParamsFor(op, ids)) };
}

// ---------------------------------------------------------------------------------------------
// Memoised walks

const walkCache = new Map<string, Promise<CollectionWalk<JsonRecord>>>();

/**
 * `walkCollection`, memoised per worker for the same token, collection, limit and query (the reference
 * walks several tests compare against). The exchanges are recorded by the test that first asked.
 */
export function memoWalk(
  api: ApiClient,
  op: Operation,
  token: string,
  options: { limit?: number; query?: Record<string, string | undefined>; requirement: string },
): Promise<CollectionWalk<JsonRecord>> {
  const key = JSON.stringify([token, op.operationId, options.limit ?? null, options.query ?? {}]);
  let walk = walkCache.get(key);
  if (!walk) {
    walk = walkCollection<JsonRecord>(api, buildPath(op), {
      token,
      limit: options.limit,
      query: options.query,
      requirement: options.requirement,
      maxPages: 200,
    });
    walk.catch(() => walkCache.delete(key));
    walkCache.set(key, walk);
  }
  return walk;
}

/** The page size of the reference walks: valid on any conforming target and not the maximum (25). */
export const REFERENCE_LIMIT = 20;

/** The complete collection, newest first, as following next_token from the first page finds it. */
export function referenceWalk(
  api: ApiClient,
  op: Operation,
  token: string,
): Promise<CollectionWalk<JsonRecord>> {
  return memoWalk(api, op, token, { limit: REFERENCE_LIMIT, requirement: 'PAG-NEXT-TOKEN' });
}

// ---------------------------------------------------------------------------------------------
// Record identity and time extent

/** A record's identity: its id; a recovery (which has none) is its cycle and sleep. */
export function identityOf(record: JsonRecord): string {
  if (record.id !== undefined) return String(record.id);
  return `cycle ${String(record.cycle_id)} / sleep ${String(record.sleep_id)}`;
}

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
  /** When it ended (Infinity while it lasts). */
  finish: number;
}

const ms = (value: unknown): number => (typeof value === 'string' ? Date.parse(value) : Number.NaN);

function ownExtent(record: JsonRecord): Extent | undefined {
  const start = ms(record.start);
  if (Number.isNaN(start)) return undefined;
  const end = record.end === undefined || record.end === null ? Number.POSITIVE_INFINITY : ms(record.end);
  if (Number.isNaN(end)) return undefined;
  return { key: start, earliest: start, latest: start, finish: end };
}

/** Whether the collection's records carry no time of their own (recoveries: their sleep's time counts). */
export function isRecoveryCollection(op: Operation): boolean {
  return op.operationId === 'listRecoveries';
}

export type ExtentOf = (record: JsonRecord) => Extent | undefined;

/**
 * The extent function of a collection. For recoveries it reads the complete sleep and cycle collections
 * (reference walks, memoised) to find each recovery's sleep and cycle.
 */
export async function extentsFor(api: ApiClient, op: Operation, token: string): Promise<ExtentOf> {
  if (!isRecoveryCollection(op)) return ownExtent;
  const [sleeps, cycles] = await Promise.all([
    referenceWalk(api, operationById('listSleeps'), token),
    referenceWalk(api, operationById('listCycles'), token),
  ]);
  const sleepById = new Map(sleeps.records.map((sleep) => [String(sleep.id), ownExtent(sleep)]));
  const cycleById = new Map(cycles.records.map((cycle) => [String(cycle.id), ownExtent(cycle)]));
  return (recovery) => {
    const sleep = sleepById.get(String(recovery.sleep_id));
    const cycle = cycleById.get(String(recovery.cycle_id));
    if (!sleep || !cycle) return undefined;
    return {
      key: sleep.key,
      earliest: Math.min(sleep.earliest, cycle.earliest),
      latest: Math.max(sleep.latest, cycle.latest),
      finish: Math.max(sleep.finish, cycle.finish),
    };
  };
}

/** `extentOf(record)`, failing (naming the requirement) when the record's time cannot be told. */
export function extentOrFail(extentOf: ExtentOf, record: JsonRecord, requirement: string): Extent {
  const extent = extentOf(record);
  if (!extent) {
    throw new ConformanceFailure(
      requirement,
      `cannot tell when record ${identityOf(record)} happened (no valid start/end, or a recovery whose sleep or cycle is not in its collection)`,
    );
  }
  return extent;
}

export const iso = (time: number): string => new Date(time).toISOString();

/** The records of a page or walk as identities, in order. */
export const identities = (records: readonly JsonRecord[]): string[] => records.map(identityOf);
