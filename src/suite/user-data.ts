// The user's data, read through the API and kept by the worker's session with the test's target
// (`userDataCache`), each read once per worker, target and token; a test reads it through its `dataset`
// fixture, user A's view. How deep the reads go is the run's depth plan (src/suite/depth.ts). Three kinds:
//   - walks of a collection, one per key (walkKey): the reference walk (limit 25, no query, the plan's newest
//     pages, never the whole history) that the data checks share, and start-filtered windows. A walk that
//     failed on an answer keeps its failure; one left unanswered is read again (src/suite/unanswered.ts);
//   - one id per path parameter (knownIds), from the first records of the collections;
//   - single reads (a record by id, a cycle's sleep or recovery, the body measurement, the profile, an
//     activity mapping): each sent once, its exchange judged by every check that reads it.

import { collectionClasses, type DepthPlan } from '../config/depth-plan.ts';
import type { CollectionClasses } from '../config/input-classes.ts';
import type { Operation, OperationId } from '../contract/operation-model.ts';
import { operationById } from '../contract/operations.ts';
import { buildPath } from '../contract/request-paths.ts';
import { successRequirement } from '../contract/requirements.ts';
import type { ApiClient } from '../http/api-client.ts';
import type { Exchange } from '../http/exchange.ts';
import { RequestRefused } from '../http/request-refused.ts';
import { type Page, pageOf, readPage, type WalkOptions, walkCollection } from './collections.ts';
import { planOf } from './depth.ts';
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
  userCollections,
  V1_CUTOFF,
} from './user-catalogue.ts';
import { blockedBy, ConformanceFailure, notVerified } from './verdicts.ts';

/** A walk of a collection with a page size and a query; `requirement` is named if its first page fails. */
export interface WalkRequest {
  limit?: number;
  query?: Record<string, string | undefined>;
  requirement: string;
  /** Read only this many pages (a sample); the walk is otherwise followed to its end. */
  pages?: number;
  /** The most records the query can select (Dataset `walk`): the walk stops past it (collections.ts). */
  maxRecords?: number;
}

/** The page size of the reference walk: the maximum, so that the walk every check shares takes the fewest pages. */
export const COMPLETE_LIMIT = 25;
/** How a problem names the reference walk. */
export const COMPLETE_WALK = `reference walk, limit=${COMPLETE_LIMIT}`;

/** The collections whose reference walks give a collection's extents (records.ts): a recovery's sleep and cycle. */
const extentSources = (collection: OperationId): OperationId[] =>
  collection === 'listRecoveries' ? ['listSleeps', 'listCycles'] : [];

/** The bounds found for each start, by the reference walk they were found in (the worker's, kept as long as it). */
const startBounds = new WeakMap<readonly DataRecord[], Map<number, number>>();

/** The key of a walk: the token's user, the collection, the page size, the query and the bounds of its read. */
const walkKey = (token: string, op: Operation, options: Omit<WalkOptions, 'token'>) =>
  JSON.stringify([
    token,
    op.operationId,
    options.limit ?? null,
    options.query ?? {},
    options.samplePages ?? null,
    options.maxRecords ?? null,
  ]);

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

  /**
   * The newest records of the token's user, at most `pages` pages of the maximum (the plan's bound), or the
   * error that stopped the walk; never rejects.
   */
  completeWalk(token: string, op: Operation, pages: number): Promise<CollectionOutcome> {
    return this.read(this.workerApi, token, op, {
      limit: COMPLETE_LIMIT,
      requirement: successRequirement(op),
      samplePages: this.firstPageOnly ? 1 : pages,
    });
  }

  /** A walk of the collection with the request's page size and query, read through `api` on first use. */
  async walk(api: ApiClient, token: string, op: Operation, request: WalkRequest): Promise<LoadedCollection> {
    const { pages, ...walk } = request;
    const outcome = await this.read(api, token, op, { ...walk, maxPages: 200, samplePages: pages });
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
    const key = walkKey(token, op, options);
    let outcome = this.walks.get(key);
    if (!outcome) {
      const walk = () => walkCollection<DataRecord>(api, buildPath(op), { token, ...options });
      const reading: Promise<CollectionOutcome> = this.memo
        .remember(`walk ${key}`, walk, walkCodec<DataRecord>())
        .then(
          (walk): CollectionOutcome => ({
            ok: true,
            value: { operation: op, ...walk, complete: walk.pages.at(-1)?.nextToken === undefined },
          }),
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
    const oldSleep = await first('listSleeps', { end: V1_CUTOFF }).catch((error: unknown) => {
      if (error instanceof RequestRefused) throw error;
      return undefined;
    });
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
    /** The run's depth plan for this target (src/suite/depth.ts). */
    readonly plan: () => Promise<DepthPlan>,
  ) {}

  /** The token, for a read of `op`: the check is not verified when its grant cannot read it. */
  private async tokenFor(op: Operation): Promise<string> {
    const token = await this.token();
    const mismatch = this.mismatch(token, op);
    if (mismatch) notVerified(mismatch);
    return token;
  }

  /**
   * The reference walk (the plan's newest pages), or the error that stopped it; rejects when there is no
   * token, and with a request the run refused (no outcome of the collection's: it stops the check that asked).
   */
  async outcome(collection: Operation | OperationId): Promise<CollectionOutcome> {
    const op = typeof collection === 'string' ? collectionById(collection) : collection;
    const token = await this.tokenFor(op);
    const outcome = await this.cache.completeWalk(token, op, (await this.plan()).referencePages);
    if (!outcome.ok && outcome.error instanceof RequestRefused) throw outcome.error;
    return outcome;
  }

  /**
   * The reference walk. When it cannot be read the calling test is skipped as blocked, naming the failure:
   * the collection's own test in operations.spec.ts fails on it, so a check that merely depends on the data
   * is not blamed for it. A request left unanswered fails the check that sent it.
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
        `${op.method} ${op.path} could not be read (${reason})`,
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
   * The records that supply `op`'s path parameter `name`, by source collection, from those the grant reads
   * (none: the check is not verified, naming the grant): their reference walks, or the first page of a walk
   * that ends at the date before which the field exists (V1 ids).
   */
  async sourceRecords(op: Operation, name: string): Promise<RecordSource> {
    const sources = await this.sources(op, name);
    const {
      collections: [first],
      before,
    } = idSourceOf(op, name);
    if (sources.length === 0 && first) await this.tokenFor(operationById(first));
    const loaded = new Map<OperationId, DataRecord[]>();
    for (const id of sources) {
      const source = collectionById(id);
      const requirement = successRequirement(source);
      const query = { end: before };
      loaded.set(
        id,
        before
          ? (await this.walk(source, { limit: COMPLETE_LIMIT, query, requirement, pages: 1 })).records
          : await this.records(id),
      );
    }
    return (id) => loaded.get(id) ?? [];
  }

  /** Up to `max` path-parameter sets of real records for `op`, spread over its source records ([{}] without params). */
  async paramSets(op: Operation, max: number): Promise<Record<string, string | number>[]> {
    if (op.pathParams.length === 0) return [{}];
    const [param, ...more] = op.pathParams;
    if (!param || more.length > 0) throw new Error(`${op.operationId}: one path parameter expected`);
    const source = await this.sourceRecords(op, param.name);
    return spread(knownValues(op, param.name, source), max).map((value) => ({ [param.name]: value }));
  }

  /**
   * A walk with the request's page size and query (read once per worker and target), bounded by what its
   * start can select (`startBound`).
   */
  async walk(op: Operation, request: WalkRequest): Promise<LoadedCollection> {
    const token = await this.tokenFor(op);
    const maxRecords = await this.startBound(op, request.query?.start);
    return this.cache.walk(this.api, token, op, { ...request, maxRecords });
  }

  /**
   * The most records a walk with `start` can hold: those of the reference walk that may lie at or after it
   * under any reading (every one whose extent is unknown). A server that ignores start serves more; its walk
   * stops one record past the bound, where FLT-START-EXCLUDES-EARLIER sees the leak, instead of walking the
   * whole history (hundreds of pages at limit 1). No bound when the reference walk cannot tell: a bounded one
   * that did not reach back to `start`.
   */
  private async startBound(op: Operation, start: string | undefined): Promise<number | undefined> {
    const at = start === undefined ? Number.NaN : Date.parse(start);
    if (Number.isNaN(at)) return undefined;
    // Only from walks already read without fault, and without stopping the check: never a throw here.
    const walks = [];
    for (const id of [op.operationId, ...extentSources(op.operationId)]) {
      const outcome = (await this.withheld(id)) ? undefined : await this.outcome(id);
      if (!outcome?.ok) return undefined;
      walks.push(outcome.value);
    }
    const [own, sleeps, cycles] = walks;
    const records = own?.records ?? [];
    const extentOf = sleeps && cycles ? recoveryExtents(sleeps.records, cycles.records) : ownExtent;
    const reachedBack = (walk: LoadedCollection) =>
      walk.complete || walk.records.some((record) => (extentOf(record)?.earliest ?? at) < at);
    if (!walks.every((walk) => walk && reachedBack(walk))) return undefined;
    const known = startBounds.get(records) ?? new Map<number, number>();
    startBounds.set(records, known);
    if (!known.has(at))
      known.set(at, records.filter((record) => (extentOf(record)?.finish ?? at) >= at).length);
    return known.get(at);
  }

  /**
   * The reference walk, newest first, as following next_token from the first page finds it; rejects with the
   * failure that stopped it (the pagination and filter checks fail on it, where `collection` is blocked).
   */
  async referenceWalk(op: Operation): Promise<LoadedCollection> {
    const outcome = await this.outcome(op);
    if (!outcome.ok) rethrowAsAsker(outcome.error);
    return outcome.value;
  }

  /** The extent function of a collection; a recovery's reads the reference walks of sleeps and cycles. */
  async extents(op: Operation): Promise<ExtentOf> {
    const [sleeps, cycles] = await Promise.all(
      extentSources(op.operationId).map((id) => this.referenceWalk(operationById(id))),
    );
    return sleeps && cycles ? recoveryExtents(sleeps.records, cycles.records) : ownExtent;
  }

  /**
   * The records of the reference walk whose time can be told, with their extent function. A recovery's time
   * is its sleep's and cycle's: where those walks stopped at the plan's bound, the recoveries past the first
   * one whose sleep or cycle they do not reach are left out (their time is beyond what was read, not wrong);
   * with complete walks, every record is kept, and one whose time cannot be told fails its check.
   */
  async timed(op: Operation): Promise<{ walk: LoadedCollection; records: DataRecord[]; extentOf: ExtentOf }> {
    const walk = await this.referenceWalk(op);
    const extentOf = await this.extents(op);
    if (op.operationId !== 'listRecoveries') return { walk, records: walk.records, extentOf };
    const bounded = await Promise.all(
      ['listSleeps', 'listCycles'].map(
        async (id) => !(await this.referenceWalk(operationById(id as OperationId))).complete,
      ),
    );
    if (!bounded.some(Boolean)) return { walk, records: walk.records, extentOf };
    const reach = walk.records.findIndex((record) => extentOf(record) === undefined);
    return { walk, records: reach < 0 ? walk.records : walk.records.slice(0, reach), extentOf };
  }

  /** The classes of the finite domains this collection gets in this run (src/config/input-classes.ts). */
  async classes(op: Operation): Promise<CollectionClasses> {
    return collectionClasses(await this.plan(), userCollections.indexOf(op));
  }

  /**
   * The query of the window that holds the newest `records` records: start = the earliest time of the
   * record at that position (a recovery: of its sleep or cycle), as the filter checks write it; when that
   * cannot be told, its created_at (only walks of the same query are compared, so the exact window does not
   * matter).
   */
  async windowQuery(op: Operation, records: number): Promise<Record<string, string>> {
    const all = (await this.referenceWalk(op)).records;
    const record = all[Math.min(records - 1, all.length - 1)];
    if (!record) return {};
    const extent = (await this.extents(op))(record);
    if (extent) return { start: iso(extent.earliest) };
    return typeof record.created_at === 'string' ? { start: record.created_at } : {};
  }

  /** The walk of the window of the newest `records` records with a page size, and how a problem names it. */
  async windowWalk(
    op: Operation,
    records: number,
    limit: number,
    requirement: string,
  ): Promise<{ what: string; query: Record<string, string>; walk: LoadedCollection }> {
    const query = await this.windowQuery(op, records);
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

/** The read whose answer tells the plan the target's limit: user A's profile, or else a collection's first page. */
async function limitRead(dataset: Dataset): Promise<Exchange | undefined> {
  const profile = operationById('getBasicProfile');
  if (!(await dataset.withheld(profile))) return dataset.read(profile);
  for (const op of userCollections) if (!(await dataset.withheld(op))) return dataset.read(op);
  return undefined;
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
    async ({ userDataCache, api, userToken, tokenPool, session }, use) => {
      const dataset: Dataset = new Dataset(
        userDataCache,
        api,
        () => userToken(),
        grantMismatchOf(tokenPool),
        () => planOf(session, () => limitRead(dataset)),
      );
      await use(dataset);
    },
    internal,
  ],
});
