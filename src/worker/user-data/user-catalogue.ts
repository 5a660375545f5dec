// The user-data operations of the catalogue (src/contract/operations.ts) in the views the user-data checks
// take, one name per view: the operations, the paginated collections, the reads addressed by a record id
// (which collection supplies the id, the values its records hold), and a valid request for an operation once
// its ids are known.
import type { Operation, OperationId } from '../../contract/operation-model.ts';
import { operations } from '../../contract/operations.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { requirementById } from '../../contract/requirements.ts';
import type { ApiRequest } from '../../http/api-client.ts';
import { notVerified } from '../verdict/stops.ts';
import type { DataRecord } from './records.ts';

/** The user-data operations of the catalogue (the 12 of the seed's table). */
export const userDataOperations: readonly Operation[] = operations.filter((op) => op.area === 'user-data');

/** The four paginated collections (listCycles, listRecoveries, listSleeps, listWorkouts). */
export const userCollections: readonly Operation[] = userDataOperations.filter((op) => op.isCollection);

/** The user-data collection of an operationId. */
export function collectionById(id: OperationId): Operation {
  const op = userCollections.find((candidate) => candidate.operationId === id);
  if (!op) throw new Error(`${id} is not a user-data collection`);
  return op;
}

/** `GET /v2/cycle/{cycleId} (getCycleById)`: how a test names an operation. */
export function describeOperation(op: Operation): string {
  return `${op.method} ${op.path} (${op.operationId})`;
}

/** The operations a requirement of the catalogue lists. */
export function operationsOf(requirement: string): Operation[] {
  const ids = requirementById(requirement).operations;
  const found = operations.filter((op) => ids.includes(op.operationId));
  if (found.length === 0) throw new Error(`${requirement}: no operation in the catalogue`);
  return found;
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

// ---------------------------------------------------------------------------------------------
// Operations addressed by a record id

/** Whether a request for `op` names a record (needs ids of the user's data). */
export function needsIds(op: Operation): boolean {
  return op.pathParams.length > 0;
}

/** The single read of a collection's records (`/v2/cycle` → `/v2/cycle/{cycleId}`), if it has one. */
export function singleReadOf(collection: Operation): Operation | undefined {
  return operations.find(
    (op) =>
      op.method === 'GET' &&
      op.path.startsWith(collection.path) &&
      /^\/\{[^}]+\}$/.test(op.path.slice(collection.path.length)),
  );
}

/** "Sleep.v1_id does not exist past 2025-09-01": a walk that ends there finds records that carry one. */
export const V1_CUTOFF = '2025-09-01T00:00:00.000Z';

/** Where the values of a path parameter are found: a field of the records of some collections. */
export interface IdSource {
  collections: OperationId[];
  field: string;
  /** The oldest records first (V1 ids belong to older-generation activities). */
  oldestFirst?: boolean;
  /** Only records that started before this date-time carry the field: they are read with end= it. */
  before?: string;
}

/**
 * Where real values of a path parameter come from: cycleId from the cycles (for the cycle sub-resources,
 * the cycles that recoveries point to, which therefore have a sleep and a recovery), sleepId and workoutId
 * from their collections, activityV1Id from the v1_id of sleeps and workouts before the V1 cut-off, oldest first.
 */
export function idSourceOf(op: Operation, param: string): IdSource {
  switch (param) {
    case 'cycleId':
      return /\/\{cycleId\}\/[a-z]+$/.test(op.path)
        ? { collections: ['listRecoveries'], field: 'cycle_id' }
        : { collections: ['listCycles'], field: 'id' };
    case 'sleepId':
      return { collections: ['listSleeps'], field: 'id' };
    case 'workoutId':
      return { collections: ['listWorkouts'], field: 'id' };
    case 'activityV1Id':
      return {
        collections: ['listSleeps', 'listWorkouts'],
        field: 'v1_id',
        oldestFirst: true,
        before: V1_CUTOFF,
      };
    default:
      throw new Error(`${op.operationId}: no source of real values for path parameter ${param}`);
  }
}

/** A value of every path parameter the user-data and utility operations take, for one user. */
export type KnownIds = Record<string, string>;

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

/** Records of each collection by operationId; a source may hold only some pages (another user's first page). */
export type RecordSource = (collection: OperationId) => readonly DataRecord[];

/** The distinct real values of an operation's path parameter found in `source` (collection order, or oldest first). */
export function knownValues(op: Operation, param: string, source: RecordSource): (string | number)[] {
  const { collections, field, oldestFirst } = idSourceOf(op, param);
  let records = collections.flatMap((id) => source(id));
  if (oldestFirst)
    records = [...records].sort((a, b) => Date.parse(String(a.start)) - Date.parse(String(b.start)));
  const values = records.map((record) => record[field]);
  return [
    ...new Set(values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')),
  ];
}

/** Up to `max` items spread evenly over `items` (first and last included). */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(0, max);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))] as T);
}
