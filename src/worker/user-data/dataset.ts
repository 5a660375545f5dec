// A test's view of user A's data (its `dataset` fixture): the reads the worker keeps for the test's target
// (./user-data-cache.ts), as deep as the run's depth plan says (./depth.ts), through the test's own client;
// a read a check cannot do without stops the check (blocked, not verified), naming why.

import { collectionClasses, type DepthPlan } from '../../config/depth-plan.ts';
import type { CollectionClasses } from '../../config/input-classes.ts';
import type { Operation, OperationId } from '../../contract/operation-model.ts';
import { operationById } from '../../contract/operations.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { messageOf } from '../../text/error-message.ts';
import { rethrowAsAsker, UnansweredFailure } from '../session/unanswered.ts';
import { blockedBy, notVerified } from '../verdict/stops.ts';
import { type Page, pageOf } from './collections.ts';
import type { CollectionOutcome, LoadedCollection } from './loaded-collection.ts';
import { type DataRecord, type ExtentOf, iso, ownExtent, recoveryExtents } from './records.ts';
import {
  collectionById,
  idSourceOf,
  type KnownIds,
  knownValues,
  needsIds,
  type RecordSource,
  spread,
  userCollections,
} from './user-catalogue.ts';
import { COMPLETE_LIMIT, type UserDataCache, type WalkRequest } from './user-data-cache.ts';

/** The collections whose reference walks give a collection's extents (records.ts): a recovery's sleep and cycle. */
const extentSources = (collection: OperationId): OperationId[] =>
  collection === 'listRecoveries' ? ['listSleeps', 'listCycles'] : [];

/** The bounds found for each start, by the reference walk they were found in (the worker's, kept as long as it). */
const startBounds = new WeakMap<readonly DataRecord[], Map<number, number>>();

/** A window's walk at one page size: its query, and how a problem names it. */
export interface WindowWalk {
  what: string;
  query: Record<string, string>;
  walk: LoadedCollection;
}

/** A window of the run's plan walked at a small page size, and the same window at the maximum. */
export interface WindowWalks {
  limit: number;
  small: WindowWalk;
  whole: WindowWalk;
}

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
    /** Why a token's grant cannot read an operation, if it cannot (src/worker/user-data/grant-guard.ts). */
    private readonly mismatch: (token: string, op: Operation) => string | undefined,
    /** The run's depth plan for this target (src/worker/user-data/depth.ts). */
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
      const reason = messageOf(error).split('\n')[0];
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
    // Each walk read back past `start` (or to its end): its own records' times, a recovery's by its sleep and cycle.
    const reachedBack = (walk: LoadedCollection | undefined, extent: ExtentOf) =>
      walk !== undefined &&
      (walk.complete || walk.records.some((record) => (extent(record)?.earliest ?? at) < at));
    if (
      !reachedBack(own, extentOf) ||
      ![sleeps, cycles].every((walk) => !walk || reachedBack(walk, ownExtent))
    )
      return undefined;
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
    const bounded = await Promise.all(
      extentSources(op.operationId).map(
        async (id) => !(await this.referenceWalk(operationById(id))).complete,
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
  async windowWalk(op: Operation, records: number, limit: number, requirement: string): Promise<WindowWalk> {
    const query = await this.windowQuery(op, records);
    const walk = await this.walk(op, { limit, query, requirement });
    return { what: `start=${query.start}, limit=${limit}`, query, walk };
  }

  /** The windows of the run's plan for `op`, each walked at its small page size and at the maximum. */
  async windowWalks(op: Operation, requirement: string): Promise<WindowWalks[]> {
    const walks: WindowWalks[] = [];
    for (const { limit, records } of (await this.classes(op)).windows) {
      const small = await this.windowWalk(op, records, limit, requirement);
      const whole = await this.windowWalk(op, records, COMPLETE_LIMIT, requirement);
      walks.push({ limit, small, whole });
    }
    return walks;
  }

  /** User A's answer to `op` (a GET) with the path parameters, sent once per worker and target. */
  async read(op: Operation, params: Record<string, string | number> = {}): Promise<Exchange> {
    if (op.method !== 'GET') throw new Error(`${op.operationId}: only a GET is read once for every check`);
    return this.cache.singleRead(this.api, await this.tokenFor(op), op, buildPath(op, params));
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
export async function limitRead(dataset: Dataset): Promise<Exchange | undefined> {
  const profile = operationById('getBasicProfile');
  if (!(await dataset.withheld(profile))) return dataset.read(profile);
  for (const op of userCollections) if (!(await dataset.withheld(op))) return dataset.read(op);
  return undefined;
}
