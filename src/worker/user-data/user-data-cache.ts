// What a worker reads of a user's data, once per key, target and token (the worker fixture `_userDataCache`):
// walks of a collection (the reference walk, limit 25 and the plan's newest pages, and start-filtered
// windows), one id per path parameter of the user's records, and single reads. A walk that failed on an
// answer keeps its failure; one left unanswered, or a read that failed, is read again by the next asker.
import type { Operation, OperationId } from '../../contract/operation-model.ts';
import { operationById } from '../../contract/operations.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { type Codec, exchangeCodec, jsonCodec, type RunMemo } from '../session/run-memo.ts';
import { chargeUnansweredTo, failedOnAnswer, rethrowAsAsker, sharedRead } from '../session/unanswered.ts';
import { failedAttempt } from '../verdict/attempt.ts';
import { type CollectionWalk, type Page, readPage, type WalkOptions, walkCollection } from './collections.ts';
import type { CollectionOutcome, LoadedCollection } from './loaded-collection.ts';
import type { DataRecord } from './records.ts';
import { type KnownIds, V1_CUTOFF } from './user-catalogue.ts';

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

/** A walk of a collection: its pages' exchanges travel as data, and are exchanges again on arrival. */
const walkCodec = <T>(): Codec<CollectionWalk<T>> => ({
  encode: (walk) => ({
    ...walk,
    pages: walk.pages.map((page) => ({ ...page, exchange: exchangeCodec.encode(page.exchange) })),
  }),
  decode: (data) => {
    const walk = data as Omit<CollectionWalk<T>, 'pages'> & {
      pages: (Omit<Page<T>, 'exchange'> & { exchange: unknown })[];
    };
    return {
      ...walk,
      pages: walk.pages.map((page) => ({ ...page, exchange: exchangeCodec.decode(page.exchange) })),
    };
  },
});

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

/** Every read of user data in one worker, per token (the worker fixture `_userDataCache`). */
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
            return failedAttempt(error);
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
  singleRead(api: ApiClient, token: string, op: Operation, path: string): Promise<Exchange> {
    const key = JSON.stringify([token, path]);
    // Shared by the checks: a request without an answer is the operation's failure, as a walk's page is.
    const send = () => api.send({ path, token }).catch(chargeUnansweredTo(successRequirement(op)));
    return sharedRead(this.singles, key, () => this.memo.remember(`single read ${key}`, send, exchangeCodec));
  }
}

/** Whether a token's grant lets it read an operation (src/worker/user-data/grant-guard.ts): the ids it cannot are left out. */
type Readable = (op: Operation) => boolean;
