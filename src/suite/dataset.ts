// User A's complete collections, read once per worker: every page of the four collections (limit 25) with
// its exchange, so the schema, invariant, ordering and consistency checks share one read. Each collection is
// read on first use (a smoke test that needs none reads none). A collection that cannot be read keeps its
// failure, which every later user of that collection gets.
import type { Operation, OperationId } from '../contract/operation-model.ts';
import { operations } from '../contract/operations.ts';
import { successRequirementFor } from '../contract/requirements.ts';
import type { ApiClient } from '../http/api-client.ts';
import type { Exchange } from '../http/exchange.ts';
import { type Page, walkCollection } from './collections.ts';
import { test as base } from './fixtures.ts';
import { blockedBy, ConformanceFailure } from './verdicts.ts';

/** A record of a user-data collection, as received (fields are checked, never assumed). */
export interface DataRecord {
  [field: string]: unknown;
  id?: unknown;
  start?: unknown;
  end?: unknown;
  score_state?: unknown;
  score?: unknown;
}

export interface LoadedCollection {
  operation: Operation;
  pages: Page<DataRecord>[];
  /** Every record of every page, in the order served. */
  records: DataRecord[];
}

export type CollectionOutcome = { ok: true; value: LoadedCollection } | { ok: false; error: unknown };

/** The four paginated collections of the user data API (listCycles, listRecoveries, listSleeps, listWorkouts). */
export const userCollections: readonly Operation[] = operations.filter(
  (op) => op.area === 'user-data' && op.isCollection,
);

/** The OP-* requirement that states an operation's success response (requirement catalogue). */
export function successRequirementOf(op: Operation): string {
  const id = successRequirementFor(op.operationId);
  if (!id) throw new Error(`${op.operationId}: expected one OP-* requirement`);
  return id;
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

/** Up to `max` items spread evenly over `items` (first and last included). */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(0, max);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))] as T);
}

const byId = (id: OperationId): Operation => {
  const op = userCollections.find((candidate) => candidate.operationId === id);
  if (!op) throw new Error(`${id} is not a user-data collection`);
  return op;
};

/** Records of each collection by operationId; a source may hold only some pages (another user's first page). */
export type RecordSource = (collection: OperationId) => readonly DataRecord[];

/**
 * Where real values of a path parameter come from: cycleId from the cycles (for the cycle sub-resources,
 * the cycles that recoveries point to, which therefore have a sleep and a recovery), sleepId and workoutId
 * from their collections, activityV1Id from the v1_id of sleeps and workouts, oldest first (V1 ids belong
 * to older-generation activities).
 */
function sourceOf(
  op: Operation,
  param: string,
): { collections: OperationId[]; field: string; oldestFirst?: boolean } {
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
      return { collections: ['listSleeps', 'listWorkouts'], field: 'v1_id', oldestFirst: true };
    default:
      throw new Error(`${op.operationId}: no source of real values for path parameter ${param}`);
  }
}

/** The distinct real values of an operation's path parameter found in `source` (collection order, or oldest first). */
export function knownValues(op: Operation, param: string, source: RecordSource): (string | number)[] {
  const { collections, field, oldestFirst } = sourceOf(op, param);
  let records = collections.flatMap((id) => source(id));
  if (oldestFirst)
    records = [...records].sort((a, b) => Date.parse(String(a.start)) - Date.parse(String(b.start)));
  const values = records.map((record) => record[field]);
  return [
    ...new Set(values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')),
  ];
}

export class Dataset {
  constructor(
    private readonly cache: Map<OperationId, Promise<CollectionOutcome>>,
    private readonly api: ApiClient,
    private readonly token: string,
    /** A stateless target (a mock) has no collection to walk to its end: its first page is the sample. */
    private readonly firstPageOnly: boolean,
  ) {}

  /** The collection's walk, or the error that stopped it; never throws. */
  outcome(collection: Operation | OperationId): Promise<CollectionOutcome> {
    const op = typeof collection === 'string' ? byId(collection) : collection;
    let outcome = this.cache.get(op.operationId);
    if (!outcome) {
      outcome = walkCollection<DataRecord>(this.api, op.path, {
        token: this.token,
        limit: 25,
        requirement: successRequirementOf(op),
        samplePages: this.firstPageOnly ? 1 : undefined,
      }).then(
        (walk): CollectionOutcome => ({ ok: true, value: { operation: op, ...walk } }),
        (error: unknown): CollectionOutcome => ({ ok: false, error }),
      );
      this.cache.set(op.operationId, outcome);
    }
    return outcome;
  }

  /**
   * The complete collection. When it cannot be read to its end the calling test is skipped as blocked,
   * naming the failure: the collection's own test in operations.spec.ts fails on it, so a check that merely
   * depends on the data is not blamed for it.
   */
  async collection(collection: Operation | OperationId): Promise<LoadedCollection> {
    const outcome = await this.outcome(collection);
    if (!outcome.ok) {
      const op = typeof collection === 'string' ? byId(collection) : collection;
      const { error } = outcome;
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      blockedBy(
        error instanceof ConformanceFailure ? error.requirement : successRequirementOf(op),
        `${op.method} ${op.path} could not be read to its end (${reason})`,
      );
    }
    return (outcome as { ok: true; value: LoadedCollection }).value;
  }

  async records(collection: Operation | OperationId): Promise<DataRecord[]> {
    return (await this.collection(collection)).records;
  }

  /** Whether the collections that supply `op`'s path parameter could be read (paramSets is not blocked). */
  async canSupply(op: Operation): Promise<boolean> {
    for (const { name } of op.pathParams) {
      for (const id of sourceOf(op, name).collections) if (!(await this.outcome(id)).ok) return false;
    }
    return true;
  }

  /** Up to `max` path-parameter sets of real records for `op`, spread over the history ([{}] without params). */
  async paramSets(op: Operation, max: number): Promise<Record<string, string | number>[]> {
    if (op.pathParams.length === 0) return [{}];
    const [param, ...more] = op.pathParams;
    if (!param || more.length > 0) throw new Error(`${op.operationId}: one path parameter expected`);
    const loaded = new Map<OperationId, DataRecord[]>();
    for (const id of sourceOf(op, param.name).collections) loaded.set(id, await this.records(id));
    const source: RecordSource = (id) => loaded.get(id) ?? [];
    return spread(knownValues(op, param.name, source), max).map((value) => ({ [param.name]: value }));
  }
}

/** Where a record of a walk was served: page (0-based), index on that page, and that page's exchange. */
export function locate(
  collection: LoadedCollection,
  index: number,
): { page: number; onPage: number; exchange: Exchange } {
  let offset = 0;
  for (const [page, served] of collection.pages.entries()) {
    if (index < offset + served.records.length)
      return { page, onPage: index - offset, exchange: served.exchange };
    offset += served.records.length;
  }
  const last = collection.pages.at(-1) as Page<DataRecord>;
  return { page: collection.pages.length - 1, onPage: last.records.length, exchange: last.exchange };
}

/**
 * Adds the page to the problem lines of src/checks/invariants.ts ("record 57 (id …): …" → "record 57
 * (page 2, #7) (id …): …") and returns the exchange of the first offending page, for the failure message.
 */
export function onPages(
  collection: LoadedCollection,
  problems: readonly string[],
): { problems: string[]; exchange?: Exchange } {
  let exchange: Exchange | undefined;
  const located = problems.map((problem) => {
    const match = /^record (\d+)/.exec(problem);
    if (!match) return problem;
    const where = locate(collection, Number(match[1]));
    exchange ??= where.exchange;
    return problem.replace(/^record \d+/, `${match[0]} (page ${where.page}, #${where.onPage})`);
  });
  return { problems: located, exchange: exchange ?? collection.pages[0]?.exchange };
}

export const test = base.extend<
  { dataset: Dataset },
  { datasetCache: Map<string, Map<OperationId, Promise<CollectionOutcome>>> }
>({
  datasetCache: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => use(new Map()),
    { scope: 'worker' },
  ],
  dataset: async ({ datasetCache, workerApi, userToken, config }, use) => {
    // user A's token for all read scopes: cached per worker by the token pool, so one cache entry per grant
    const token = await userToken();
    let perToken = datasetCache.get(token);
    if (!perToken) {
      perToken = new Map();
      datasetCache.set(token, perToken);
    }
    await use(new Dataset(perToken, workerApi, token, !config.capabilities.has('stateful')));
  },
});

export { expect } from './fixtures.ts';
