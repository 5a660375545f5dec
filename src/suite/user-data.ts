// The user's data, read through the API and kept by the worker's session with the test's target
// (`userDataCache`): each walk of a collection, each set of ids and each single read is read once per worker,
// target and token. A test reads it through its `dataset` fixture, the view of user A's data (user A's token
// is fetched on first use). Three kinds of read:
//   - walks of a collection with a page size and a query, one per key (walkKey). The complete walk (every
//     page, limit 25, no query) is the one the schema, invariant, ordering, consistency, pagination and
//     filter checks share, read through the worker's client on first use (a smoke test that needs none
//     reads none); the other walks are small start-filtered windows, read through the asking test's client.
//     A walk that failed on an answer keeps its failure, which every later user of it gets; one that got no
//     answer fails the check that sent it, blocks those that waited for it, and is read again by the next
//     asker (src/suite/unanswered.ts);
//   - one id per path parameter (knownIds), from the first records of the collections: the cheap way to
//     build a valid request for any operation;
//   - single reads (a record by id, a cycle's sleep or recovery, the body measurement, the profile, an
//     activity mapping): each sent once, its exchange judged by every check that reads it.
import type { Operation, OperationId } from '../contract/operation-model.ts';
import { operationById } from '../contract/operations.ts';
import { buildPath } from '../contract/request-paths.ts';
import { successRequirement } from '../contract/requirements.ts';
import type { ApiClient } from '../http/api-client.ts';
import type { Exchange } from '../http/exchange.ts';
import { RequestRefused } from '../http/request-refused.ts';
import {
  type CollectionWalk,
  type Page,
  pageOf,
  readPage,
  type WalkOptions,
  walkCollection,
} from './collections.ts';
import { coreTest, internal } from './fixtures.ts';
import { grantMismatchOf } from './grant-guard.ts';
import type { CollectionOutcome, LoadedCollection } from './loaded-collection.ts';
import { type DataRecord, type ExtentOf, iso, ownExtent, recoveryExtents } from './records.ts';
import { exchangeCodec, jsonCodec, type RunMemo, walkCodec } from './run-memo.ts';
import { failedOnAnswer, rethrowAsAsker, sharedRead, UnansweredFailure } from './unanswered.ts';
import {
  collectionById,
  idSourceOf,
  type KnownIds,
  knownValues,
  needsIds,
  type RecordSource,
  spread,
} from './user-catalogue.ts';
import { blockedBy, ConformanceFailure, notVerified } from './verdicts.ts';

/** A walk of a collection with a page size and a query; `requirement` is named if its first page fails. */
export interface WalkRequest {
  limit?: number;
  query?: Record<string, string | undefined>;
  requirement: string;
}

/** The page size of the complete walk: the maximum, so that the walk every check shares takes the fewest pages. */
export const COMPLETE_LIMIT = 25;
/** How a problem names the complete walk. */
export const COMPLETE_WALK = `complete walk, limit=${COMPLETE_LIMIT}`;

/**
 * Start-filtered windows of the newest records, by the position in the complete walk of the record whose
 * start bounds them (about 3 and 13 records): small enough that walks with small page sizes stay cheap,
 * and the same queries for the pagination and filter checks, which so share their walks.
 */
export const WINDOWS = { narrow: 2, wide: 12 } as const;
export type WindowName = keyof typeof WINDOWS;

/** The key of a walk: the token's user, the collection, the page size and the query. */
const walkKey = (token: string, op: Operation, limit: number | undefined, query: object | undefined) =>
  JSON.stringify([token, op.operationId, limit ?? null, query ?? {}]);

/** Every read of user data in one worker, per token (the worker fixture `userDataCache`). */
export class UserDataCache {
  private readonly walks = new Map<string, Promise<CollectionOutcome>>();
  private readonly ids = new Map<string, Promise<KnownIds>>();
  private readonly singles = new Map<string, Promise<Exchange>>();

  constructor(
    private readonly workerApi: ApiClient,
    /** A stateless target (a mock) has no collection to walk to its end: its first page is the sample. */
    private readonly firstPageOnly: boolean,
    /** The run's memo: a read one worker made serves every worker (user tokens are the run's too). */
    private readonly memo: RunMemo,
  ) {}

  /** The complete collection of the token's user, or the error that stopped it; never rejects. */
  completeWalk(token: string, op: Operation): Promise<CollectionOutcome> {
    return this.read(this.workerApi, token, op, {
      limit: COMPLETE_LIMIT,
      requirement: successRequirement(op),
      samplePages: this.firstPageOnly ? 1 : undefined,
    });
  }

  /** A walk of the collection with the request's page size and query, read through `api` on first use. */
  async walk(
    api: ApiClient,
    token: string,
    op: Operation,
    request: WalkRequest,
  ): Promise<CollectionWalk<DataRecord>> {
    const outcome = await this.read(api, token, op, { ...request, maxPages: 200 });
    if (!outcome.ok) rethrowAsAsker(outcome.error);
    return outcome.value;
  }

  /** The outcome of the walk of its key, read on first use. */
  private read(
    api: ApiClient,
    token: string,
    op: Operation,
    options: Omit<WalkOptions, 'token'>,
  ): Promise<CollectionOutcome> {
    const key = walkKey(token, op, options.limit, options.query);
    let outcome = this.walks.get(key);
    if (!outcome) {
      const walk = () => walkCollection<DataRecord>(api, buildPath(op), { token, ...options });
      const reading: Promise<CollectionOutcome> = this.memo
        .remember(`walk ${key}`, walk, walkCodec<DataRecord>())
        .then(
          (walk): CollectionOutcome => ({ ok: true, value: { operation: op, ...walk } }),
          (error: unknown): CollectionOutcome => {
            if (!failedOnAnswer(error) && this.walks.get(key) === reading) this.walks.delete(key);
            return { ok: false, error };
          },
        );
      this.walks.set(key, reading);
      outcome = reading;
    }
    return outcome;
  }

  /**
   * Ids of the token's user's own records: cycleId is the cycle of the newest recovery (so it has a sleep
   * and a recovery), sleepId that recovery's sleep, workoutId the newest workout, and activityV1Id the v1_id
   * of the newest sleep that started before the V1 cut-off (2025-09-01). Needs a token holding
   * read:recovery, read:workout and read:sleep.
   */
  knownIds(api: ApiClient, token: string, readable: Readable): Promise<KnownIds> {
    return sharedRead(this.ids, token, () =>
      this.memo.remember(`known ids ${token}`, () => this.readIds(api, token, readable), jsonCodec()),
    );
  }

  private async readIds(api: ApiClient, token: string, readable: Readable): Promise<KnownIds> {
    const first = async (id: OperationId, query: Record<string, string> = {}) =>
      readable(operationById(id))
        ? readPage<DataRecord>(api, buildPath(operationById(id)), {
            token,
            query,
            limit: 1,
            requirement: successRequirement(operationById(id)),
          }).then((page) => page.records[0])
        : undefined;
    const recovery = await first('listRecoveries');
    const workout = await first('listWorkouts');
    // An id the user's data cannot supply stays absent: a check that needs it is then not verified.
    const known: KnownIds = Object.fromEntries(
      Object.entries({ cycleId: recovery?.cycle_id, sleepId: recovery?.sleep_id, workoutId: workout?.id })
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => [name, String(value)]),
    );
    const oldSleep = await first('listSleeps', { end: '2025-09-01T00:00:00.000Z' }).catch(
      (error: unknown) => {
        if (error instanceof RequestRefused) throw error;
        return undefined;
      },
    );
    if (oldSleep?.v1_id !== undefined) known.activityV1Id = String(oldSleep.v1_id);
    return known;
  }

  /** The answer to a GET of `path` with the token, sent through `api` on first use. */
  singleRead(api: ApiClient, token: string, path: string): Promise<Exchange> {
    const key = JSON.stringify([token, path]);
    return sharedRead(this.singles, key, () =>
      this.memo.remember(`single read ${key}`, () => api.send({ path, token }), exchangeCodec),
    );
  }
}

/** Whether a token's grant lets it read an operation (src/suite/grant-guard.ts): the ids it cannot are left out. */
type Readable = (op: Operation) => boolean;

/**
 * A test's view of user A's data (all read scopes): the worker's cache, read through the test's client. A
 * read its token's grant cannot make (the grant lacks the operation's scope) ends the check not verified,
 * naming the grant, before anything is read or cached.
 */
export class Dataset {
  constructor(
    private readonly cache: UserDataCache,
    private readonly api: ApiClient,
    private readonly token: () => Promise<string>,
    /** Why a token's grant cannot read an operation, if it cannot (src/suite/grant-guard.ts). */
    private readonly mismatch: (token: string, op: Operation) => string | undefined,
  ) {}

  /** The token, for a read of `op`: the check is not verified when its grant cannot read it. */
  private async tokenFor(op: Operation): Promise<string> {
    const token = await this.token();
    const mismatch = this.mismatch(token, op);
    if (mismatch) notVerified(mismatch);
    return token;
  }

  /**
   * The complete collection's walk, or the error that stopped it; rejects when there is no token, and with a
   * request the run refused (no outcome of the collection's: it stops the check that asked).
   */
  async outcome(collection: Operation | OperationId): Promise<CollectionOutcome> {
    const op = typeof collection === 'string' ? collectionById(collection) : collection;
    const outcome = await this.cache.completeWalk(await this.tokenFor(op), op);
    if (!outcome.ok && outcome.error instanceof RequestRefused) throw outcome.error;
    return outcome;
  }

  /**
   * The complete collection. When it cannot be read to its end the calling test is skipped as blocked,
   * naming the failure: the collection's own test in operations.spec.ts fails on it, so a check that merely
   * depends on the data is not blamed for it. A request left unanswered fails the check that sent it.
   */
  async collection(collection: Operation | OperationId): Promise<LoadedCollection> {
    const outcome = await this.outcome(collection);
    if (!outcome.ok) {
      const op = typeof collection === 'string' ? collectionById(collection) : collection;
      const { error } = outcome;
      if (error instanceof UnansweredFailure) rethrowAsAsker(error);
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      blockedBy(
        error instanceof ConformanceFailure ? error.requirement : successRequirement(op),
        `${op.method} ${op.path} could not be read to its end (${reason})`,
      );
    }
    return outcome.value;
  }

  async records(collection: Operation | OperationId): Promise<DataRecord[]> {
    return (await this.collection(collection)).records;
  }

  /** Why the dataset's token cannot read `collection` (its grant lacks the scope), or undefined when it can. */
  async withheld(collection: Operation | OperationId): Promise<string | undefined> {
    const op = typeof collection === 'string' ? operationById(collection) : collection;
    return this.mismatch(await this.token(), op);
  }

  /** The collections that supply `op`'s path parameter `name` and the token's grant reads (none: empty). */
  private async sources(op: Operation, name: string): Promise<OperationId[]> {
    const readable: OperationId[] = [];
    for (const id of idSourceOf(op, name).collections) if (!(await this.withheld(id))) readable.push(id);
    return readable;
  }

  /**
   * Whether the collections that supply `op`'s path parameter could be read (paramSets is not blocked): those
   * the grant reads, at least one of them.
   */
  async canSupply(op: Operation): Promise<boolean> {
    for (const { name } of op.pathParams) {
      const sources = await this.sources(op, name);
      if (sources.length === 0) return false;
      for (const id of sources) if (!(await this.outcome(id)).ok) return false;
    }
    return true;
  }

  /**
   * Up to `max` path-parameter sets of real records for `op`, spread over the history ([{}] without params),
   * from the source collections the grant reads (none: the check is not verified, naming the grant).
   */
  async paramSets(op: Operation, max: number): Promise<Record<string, string | number>[]> {
    if (op.pathParams.length === 0) return [{}];
    const [param, ...more] = op.pathParams;
    if (!param || more.length > 0) throw new Error(`${op.operationId}: one path parameter expected`);
    const sources = await this.sources(op, param.name);
    const [first] = idSourceOf(op, param.name).collections;
    if (sources.length === 0 && first) await this.tokenFor(operationById(first));
    const loaded = new Map<OperationId, DataRecord[]>();
    for (const id of sources) loaded.set(id, await this.records(id));
    const source: RecordSource = (id) => loaded.get(id) ?? [];
    return spread(knownValues(op, param.name, source), max).map((value) => ({ [param.name]: value }));
  }

  /** A walk with the request's page size and query (read once per worker and target). */
  async walk(op: Operation, request: WalkRequest): Promise<CollectionWalk<DataRecord>> {
    return this.cache.walk(this.api, await this.tokenFor(op), op, request);
  }

  /**
   * The complete collection, newest first, as following next_token from the first page finds it; rejects
   * with the failure that stopped it (the pagination and filter checks fail on it, where `collection` is
   * blocked).
   */
  async referenceWalk(op: Operation): Promise<CollectionWalk<DataRecord>> {
    const outcome = await this.outcome(op);
    if (!outcome.ok) rethrowAsAsker(outcome.error);
    return outcome.value;
  }

  /** The extent function of a collection; a recovery's reads the complete walks of sleeps and cycles. */
  async extents(op: Operation): Promise<ExtentOf> {
    if (op.operationId !== 'listRecoveries') return ownExtent;
    const [sleeps, cycles] = await Promise.all([
      this.referenceWalk(operationById('listSleeps')),
      this.referenceWalk(operationById('listCycles')),
    ]);
    return recoveryExtents(sleeps.records, cycles.records);
  }

  /**
   * A window's query: start = the earliest time of its bounding record (a recovery: of its sleep or
   * cycle), as the filter checks write it; when that cannot be told, its created_at (only walks of the
   * same query are compared, so the exact window does not matter).
   */
  async windowQuery(op: Operation, window: WindowName): Promise<Record<string, string>> {
    const all = (await this.referenceWalk(op)).records;
    const record = all[Math.min(WINDOWS[window], all.length - 1)];
    if (!record) return {};
    const extent = (await this.extents(op))(record);
    if (extent) return { start: iso(extent.earliest) };
    return typeof record.created_at === 'string' ? { start: record.created_at } : {};
  }

  /** The walk of a window with a page size, and how a problem names it ("start=…, limit=7"). */
  async windowWalk(
    op: Operation,
    window: WindowName,
    limit: number,
    requirement: string,
  ): Promise<{ what: string; query: Record<string, string>; walk: CollectionWalk<DataRecord> }> {
    const query = await this.windowQuery(op, window);
    const walk = await this.walk(op, { limit, query, requirement });
    return { what: `start=${query.start}, limit=${limit}`, query, walk };
  }

  /** User A's answer to `op` (a GET) with the path parameters, sent once per worker and target. */
  async read(op: Operation, params: Record<string, string | number> = {}): Promise<Exchange> {
    if (op.method !== 'GET') throw new Error(`${op.operationId}: only a GET is read once for every check`);
    return this.cache.singleRead(this.api, await this.tokenFor(op), buildPath(op, params));
  }

  /** A collection's first page without query (the default page size): the same read as `read(op)`. */
  async firstPage(op: Operation): Promise<Page<DataRecord>> {
    return pageOf<DataRecord>(await this.read(op), successRequirement(op));
  }

  /** One id per path parameter of the token's user (default: user A's), of the collections its grant reads. */
  async knownIds(token?: string): Promise<KnownIds> {
    const reader = token ?? (await this.token());
    return this.cache.knownIds(this.api, reader, (op) => this.mismatch(reader, op) === undefined);
  }

  /** User A's ids when a request for `op` names a record, else none (no read). */
  async idsFor(op: Operation): Promise<KnownIds | undefined> {
    if (!needsIds(op)) return undefined;
    await this.tokenFor(op);
    return this.knownIds();
  }
}

/** The user-data fixtures: the cache of the user's data of the test's target session, and the test's view of it. */
export const userDataTest = coreTest.extend<{ userDataCache: UserDataCache; dataset: Dataset }>({
  userDataCache: [
    async ({ session }, use) =>
      use(
        session.shared(
          'user data',
          () => new UserDataCache(session.api, !session.config.capabilities.has('stateful'), session.memo),
        ),
      ),
    internal,
  ],
  dataset: [
    async ({ userDataCache, api, userToken, tokenPool }, use) =>
      use(new Dataset(userDataCache, api, () => userToken(), grantMismatchOf(tokenPool))),
    internal,
  ],
});
