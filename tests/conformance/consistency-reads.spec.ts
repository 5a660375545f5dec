// Reads by id agree with the collections: a single read returns the record the collection holds, the cycle
// sub-resources return the sleep and the recovery of that cycle, and the V1 → V2 activity mapping of a
// record's v1_id is that record.
import {
  type ApiClient,
  buildPath,
  cycleSleepProblem,
  type DataRecord,
  type Dataset,
  type Exchange,
  idSet,
  iso,
  mappingProblem,
  type Operation,
  operationById,
  operationsOf,
  readPage,
  sameId,
  servedAt,
  singleReadOf,
  singleReadProblem,
  spread,
  succeeded,
  test,
  userCollections,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

// Samples spread over the reference walks (newest, middle, oldest), the same ones the schema checks read, as
// many as the run's depth plan says (records read by id per collection, cycles whose sleep and recovery are
// read, v1_ids whose mapping is read): each read is sent once per worker (Dataset.read) and judged by both.
const sample = async (dataset: Dataset): Promise<number> => (await dataset.plan()).singleReadSamples;

/**
 * The record as its collection lists it now: the page of records from its start to the middle of its extent
 * (it starts at start and intersects the end: included by the stated filter rules), or undefined.
 */
async function listedNow(
  api: ApiClient,
  token: string,
  collection: Operation,
  record: DataRecord,
  requirement: string,
): Promise<DataRecord | undefined> {
  const start = Date.parse(String(record.start));
  // An ongoing cycle has no end (absent, or null as many servers send it): it extends to now.
  const end = typeof record.end === 'string' ? Date.parse(record.end) : Date.now();
  const page = await readPage<DataRecord>(api, buildPath(collection), {
    token,
    limit: 25,
    query: { start: iso(start), end: iso(start + Math.max(1, Math.floor((end - start) / 2))) },
    requirement,
  });
  return page.records.find((listed) => sameId(listed.id, record.id));
}

type Params = Record<string, string | number>;

/**
 * Reads `op` with each parameter set (each a success) and judges each answer's body: `problemOf` says what
 * is wrong with one, and the problems fail the check, shown with the first exchange that had one.
 */
async function judgeEachRead<Body>(
  dataset: Dataset,
  verdict: Verdict,
  op: Operation,
  paramSets: readonly Params[],
  problemOf: (body: Body, params: Params) => string | undefined | Promise<string | undefined>,
): Promise<void> {
  const problems: string[] = [];
  let first: Exchange | undefined;
  for (const params of paramSets) {
    const exchange = await dataset.read(op, params);
    verdict.expectSuccess(exchange);
    const problem = await problemOf(verdict.json<Body>(exchange), params);
    if (problem === undefined) continue;
    first ??= exchange;
    problems.push(problem);
  }
  verdict.expectNone(problems, first);
}

// These checks relate records to each other (and to time): each needs a target that keeps real data.
// ---------------------------------------------------------------- single reads against the collections

for (const collection of userCollections) {
  const single = singleReadOf(collection);
  if (!single) continue; // recoveries have no read by id
  test(
    ...verifies(
      'CONS-SINGLE-MATCHES-COLLECTION',
      `${single.path} returns the same record as ${collection.path}`,
      { needs: ['stateful'] },
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const loaded = await dataset.collection(collection);
      const [param] = single.pathParams;
      if (!param) throw new Error(`${single.operationId} has no path parameter`);
      const indexes = spread(
        loaded.records.map((_, index) => index),
        await sample(dataset),
      );
      if (indexes.length === 0) verdict.notVerified(`${collection.path} holds no record`);
      const problems: string[] = [];
      const updated: string[] = [];
      let first: Exchange | undefined;
      for (const index of indexes) {
        const record = loaded.records[index] as DataRecord;
        const exchange = await dataset.read(single, { [param.name]: String(record.id) });
        // The record was served: any 2xx (the exact success status is the operation test's business).
        verdict.expectSuccess(exchange);
        const byId = verdict.json<DataRecord>(exchange);
        // A record updated since the collection was read (a score that arrived) is compared with the
        // collection as it is now.
        const listed =
          byId.updated_at === record.updated_at
            ? record
            : await listedNow(api, await userToken(), collection, record, verdict.requirement);
        if (!listed) {
          updated.push(String(record.id));
          continue;
        }
        const where = servedAt(loaded, index);
        const problem = singleReadProblem(listed, byId, record.id, `page ${where.page}, #${where.onPage}`);
        if (problem === undefined) continue;
        first ??= exchange;
        problems.push(problem);
      }
      verdict.expectNone(problems, first);
      if (updated.length === indexes.length)
        verdict.notVerified(
          `every record read was updated since the collection was read: ${updated.join(', ')}`,
        );
      verdict.evidence(
        `${indexes.length - updated.length} of ${indexes.length} records compared${updated.length > 0 ? ` (${updated.join(', ')} updated and no longer listed where they were)` : ''}`,
      );
    },
  );
}

// ---------------------------------------------------------------- cycle sub-resources

test(
  ...verifies('CONS-CYCLE-SLEEP', '/v2/cycle/{cycleId}/sleep returns a sleep whose cycle_id is cycleId', {
    needs: ['stateful'],
  }),
  async ({ dataset, verdict }) => {
    const [op] = operationsOf(verdict.requirement) as [Operation];
    const paramSets = await dataset.paramSets(op, await sample(dataset));
    if (paramSets.length === 0)
      verdict.notVerified('no cycle of user A has a recovery (hence a sleep) to read');
    await judgeEachRead<DataRecord>(dataset, verdict, op, paramSets, (sleep, params) =>
      cycleSleepProblem(sleep, params.cycleId),
    );
    verdict.evidence(`the sleeps of ${paramSets.length} cycles name their cycle`);
  },
);

test(
  ...verifies(
    'CONS-CYCLE-RECOVERY',
    '/v2/cycle/{cycleId}/recovery returns the recovery of that cycle, whose sleep_id resolves',
    { needs: ['stateful'] },
  ),
  async ({ dataset, verdict }) => {
    const [op] = operationsOf(verdict.requirement) as [Operation];
    const paramSets = await dataset.paramSets(op, await sample(dataset));
    if (paramSets.length === 0) verdict.notVerified('no cycle of user A has a recovery');
    const sleeps = idSet(await dataset.records('listSleeps'));
    const getSleep = operationById('getSleepById');
    await judgeEachRead<DataRecord>(dataset, verdict, op, paramSets, async (recovery, params) => {
      if (!sameId(recovery.cycle_id, params.cycleId))
        return `cycle ${params.cycleId}: the recovery has cycle_id ${String(recovery.cycle_id)}`;
      if (sleeps.has(String(recovery.sleep_id).toLowerCase())) return undefined;
      const sleep = await dataset.read(getSleep, { sleepId: String(recovery.sleep_id) });
      verdict.expectNo5xx(sleep);
      if (succeeded(sleep)) return undefined;
      return `cycle ${params.cycleId}: the recovery's sleep_id ${String(recovery.sleep_id)} is no sleep of the collection and answers ${sleep.status} by id`;
    });
    verdict.evidence(`the recoveries of ${paramSets.length} cycles name their cycle and a sleep`);
  },
);

// ---------------------------------------------------------------- activity mapping

test(
  ...verifies('MAP-V1-TO-V2', "the activity mapping of a record's v1_id is that record's uuid", {
    needs: ['stateful'],
  }),
  async ({ dataset, verdict }) => {
    const op = operationById('getActivityMapping');
    const source = await dataset.sourceRecords(op, 'activityV1Id');
    const byV1 = new Map(
      [...source('listSleeps'), ...source('listWorkouts')]
        .filter((record) => typeof record.v1_id === 'number')
        .map((record) => [record.v1_id, record]),
    );
    if (byV1.size === 0) verdict.notVerified('no sleep or workout of user A carries a v1_id');
    // The v1_ids the schema checks sample too (oldest first, spread).
    const paramSets = await dataset.paramSets(op, await sample(dataset));
    await judgeEachRead<{ v2_activity_id?: unknown }>(dataset, verdict, op, paramSets, (mapping, params) => {
      const record = byV1.get(params.activityV1Id) as DataRecord;
      return mappingProblem(mapping.v2_activity_id, record);
    });
    verdict.evidence(`${paramSets.length} v1_ids mapped to their records' uuids`, {
      count: paramSets.length,
    });
  },
);
