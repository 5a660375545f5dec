// Consistency between operations: single reads against the collections, the cycle sub-resources, the
// references between records, the V1 → V2 activity mapping, 404 for unknown ids and for another user's ids,
// and what the operations whose security the contract does not show do without a token.
import type { Operation } from '../../src/contract/operation-model.ts';
import { operationById, operations } from '../../src/contract/operations.ts';
import { buildPath } from '../../src/contract/request-paths.ts';
import { requirementById } from '../../src/contract/requirements.ts';
import { preview } from '../../src/contract/validators.ts';
import type { ApiClient } from '../../src/http/api-client.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { readPage } from '../../src/suite/collections.ts';
import { ALL_READ_SCOPES } from '../../src/suite/fixtures.ts';
import type { DataRecord } from '../../src/suite/records.ts';
import { test } from '../../src/suite/test.ts';
import { singleReadOf, successRequirementOf, userCollections } from '../../src/suite/user-catalogue.ts';
import {
  type Dataset,
  knownValues,
  type LoadedCollection,
  locate,
  spread,
} from '../../src/suite/user-data.ts';
import {
  blockedBy,
  ConformanceFailure,
  expectNo5xx,
  notVerified,
  type Verdict,
} from '../../src/suite/verdicts.ts';
import { verifies } from '../../src/suite/verifies.ts';

/** Records read by id per collection, spread over the history. */
const SINGLE_SAMPLE = 15;
/** Cycles whose sleep and recovery sub-resources are read. */
const SUBRESOURCE_SAMPLE = 8;
/** v1_ids whose mapping is read. */
const MAPPING_SAMPLE = 20;
/** References missing from the collections that are looked up by id, per test. */
const MAX_LOOKUPS = 20;
/** Records of user B whose ids are tried with user A's token, per operation. */
const FOREIGN_SAMPLE = 2;

const operationsOf = (requirement: string): Operation[] => {
  const ids = requirementById(requirement)?.operations ?? [];
  const found = operations.filter((op) => ids.includes(op.operationId));
  if (found.length === 0) throw new Error(`${requirement}: no operation in the catalogue`);
  return found;
};

/** JSON pointers at which two values differ (key order ignored). */
function differences(inCollection: unknown, byId: unknown, at = ''): string[] {
  if (Object.is(inCollection, byId)) return [];
  if (
    inCollection !== null &&
    byId !== null &&
    typeof inCollection === 'object' &&
    typeof byId === 'object' &&
    Array.isArray(inCollection) === Array.isArray(byId)
  ) {
    const a = inCollection as Record<string, unknown>;
    const b = byId as Record<string, unknown>;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) =>
      differences(a[key], b[key], `${at}/${key}`),
    );
  }
  return [`${at || '(root)'}: ${preview(inCollection)} in the collection, ${preview(byId)} by id`];
}

/** The record was served: any 2xx (the exact success status is the operation test's business). */
function expectServed(verdict: Verdict, exchange: Exchange): void {
  verdict.expectThat(
    exchange.status >= 200 && exchange.status < 300,
    `expected the record, got status ${exchange.status}`,
    exchange,
  );
}

const served = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status < 300;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is well-formed for a path parameter (an id of another shape would rightly get 400). */
const wellFormed = (param: Operation['pathParams'][number], value: unknown): boolean =>
  param.schema.format === 'uuid'
    ? typeof value === 'string' && UUID.test(value)
    : param.schema.type === 'integer'
      ? typeof value === 'number' && Number.isSafeInteger(value)
      : true;

const sameId = (a: unknown, b: unknown): boolean =>
  (typeof a === 'string' || typeof a === 'number') && String(a).toLowerCase() === String(b).toLowerCase();

/** A value of a path parameter that names no record of `known` (well-formed for its schema). */
function unknownValue(op: Operation, known: readonly unknown[]): string {
  const [param] = op.pathParams;
  if (!param) throw new Error(`${op.operationId} has no path parameter`);
  const taken = new Set(known.map((value) => String(value).toLowerCase()));
  if (param.schema.format === 'uuid') {
    for (let n = 0; ; n++) {
      const candidate = `f0e1d2c3-b4a5-4968-8776-${(0x655443322110 + n).toString(16).padStart(12, '0')}`;
      if (!taken.has(candidate)) return candidate;
    }
  }
  if (param.schema.type === 'integer') {
    const integers = known.filter(
      (value): value is number => typeof value === 'number' && Number.isInteger(value),
    );
    // Far above the user's ids, yet within 2^53 so that no client or server loses precision.
    let candidate = BigInt(Math.max(0, ...integers)) + 987_654_321n;
    while (taken.has(candidate.toString())) candidate += 1n;
    return candidate.toString();
  }
  throw new Error(`${op.operationId}: no unknown value for a ${param.schema.type} parameter`);
}

/**
 * References (`field` of each record) that are neither ids of `known` records nor resolve with a GET of
 * `read` (at most MAX_LOOKUPS looked up); also returns how many were not looked up.
 */
async function unresolved(
  api: ApiClient,
  token: string,
  from: LoadedCollection,
  field: string,
  known: ReadonlySet<string>,
  read: Operation,
): Promise<{ problems: string[]; notLookedUp: number; exchange?: Exchange }> {
  const missing = new Map<string, number>(); // reference → index of the first record naming it
  from.records.forEach((record, index) => {
    // A missing reference is a schema violation (the schema tests report it), not a dangling one.
    if (record[field] === undefined || record[field] === null) return;
    const value = String(record[field]);
    if (!known.has(value.toLowerCase()) && !missing.has(value)) missing.set(value, index);
  });
  const [param] = read.pathParams;
  if (!param) throw new Error(`${read.operationId} has no path parameter`);
  const problems: string[] = [];
  let exchange: Exchange | undefined;
  let lookedUp = 0;
  for (const [value, index] of missing) {
    if (lookedUp >= MAX_LOOKUPS) break;
    lookedUp++;
    const answer = await api.send({ path: buildPath(read, { [param.name]: value }), token });
    expectNo5xx(successRequirementOf(read), answer);
    if (served(answer)) continue;
    const where = locate(from, index);
    exchange ??= where.exchange;
    problems.push(
      `record ${index} (page ${where.page}, #${where.onPage}) of ${from.operation.path}: ${field} ${value} is in no record of the collection and ${read.path.replace(`{${param.name}}`, value)} answers ${answer.status}`,
    );
  }
  return { problems, notLookedUp: missing.size - lookedUp, exchange };
}

const idSet = (records: readonly DataRecord[]): Set<string> =>
  new Set(records.map((record) => String(record.id).toLowerCase()));

// ---------------------------------------------------------------- single reads against the collections

// These checks relate records to each other (and to time): only a target that keeps real data can be held to them.
test.beforeEach(({ requires }) => requires('stateful'));

for (const collection of userCollections) {
  const single = singleReadOf(collection);
  if (!single) continue; // recoveries have no read by id
  test(
    ...verifies(
      'CONS-SINGLE-MATCHES-COLLECTION',
      `${single.path} returns the same record as ${collection.path}`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const loaded = await dataset.collection(collection);
      const [param] = single.pathParams;
      if (!param) throw new Error(`${single.operationId} has no path parameter`);
      const indexes = spread(
        loaded.records.map((_, index) => index),
        SINGLE_SAMPLE,
      );
      test.skip(indexes.length === 0, `${collection.path} holds no record`);
      const problems: string[] = [];
      let first: Exchange | undefined;
      for (const index of indexes) {
        const record = loaded.records[index] as DataRecord;
        const exchange = await api.send({
          path: buildPath(single, { [param.name]: String(record.id) }),
          token,
        });
        expectServed(verdict, exchange);
        const found = differences(record, exchange.json());
        if (found.length === 0) continue;
        first ??= exchange;
        const where = locate(loaded, index);
        problems.push(
          `${String(record.id)} (page ${where.page}, #${where.onPage} of the collection) differs at ${found.join('; ')}`,
        );
      }
      verdict.expectNone(problems, first);
    },
  );
}

// ---------------------------------------------------------------- cycle sub-resources

test(
  ...verifies('CONS-CYCLE-SLEEP', '/v2/cycle/{cycleId}/sleep returns a sleep whose cycle_id is cycleId'),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const [op] = operationsOf(verdict.requirement) as [Operation];
    const paramSets = await dataset.paramSets(op, SUBRESOURCE_SAMPLE);
    test.skip(paramSets.length === 0, 'no cycle of user A has a recovery (hence a sleep) to read');
    const problems: string[] = [];
    let first: Exchange | undefined;
    for (const params of paramSets) {
      const exchange = await api.send({ path: buildPath(op, params), token });
      expectServed(verdict, exchange);
      const sleep = exchange.json<DataRecord>();
      if (sameId(sleep.cycle_id, params.cycleId)) continue;
      first ??= exchange;
      problems.push(
        `cycle ${params.cycleId}: the sleep ${String(sleep.id)} has cycle_id ${String(sleep.cycle_id)}`,
      );
    }
    verdict.expectNone(problems, first);
  },
);

test(
  ...verifies(
    'CONS-CYCLE-RECOVERY',
    '/v2/cycle/{cycleId}/recovery returns the recovery of that cycle, whose sleep_id resolves',
  ),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const [op] = operationsOf(verdict.requirement) as [Operation];
    const paramSets = await dataset.paramSets(op, SUBRESOURCE_SAMPLE);
    test.skip(paramSets.length === 0, 'no cycle of user A has a recovery');
    const sleeps = idSet(await dataset.records('listSleeps'));
    const getSleep = operationById('getSleepById');
    const problems: string[] = [];
    let first: Exchange | undefined;
    for (const params of paramSets) {
      const exchange = await api.send({ path: buildPath(op, params), token });
      expectServed(verdict, exchange);
      const recovery = exchange.json<DataRecord>();
      if (!sameId(recovery.cycle_id, params.cycleId)) {
        first ??= exchange;
        problems.push(`cycle ${params.cycleId}: the recovery has cycle_id ${String(recovery.cycle_id)}`);
        continue;
      }
      if (sleeps.has(String(recovery.sleep_id).toLowerCase())) continue;
      const sleep = await api.send({
        path: buildPath(getSleep, { sleepId: String(recovery.sleep_id) }),
        token,
      });
      verdict.expectNo5xx(sleep);
      if (served(sleep)) continue;
      first ??= exchange;
      problems.push(
        `cycle ${params.cycleId}: the recovery's sleep_id ${String(recovery.sleep_id)} is no sleep of the collection and answers ${sleep.status} by id`,
      );
    }
    verdict.expectNone(problems, first);
  },
);

// ---------------------------------------------------------------- references between records

const references = [
  { requirement: 'CONS-RECOVERY-REFERENCES', from: 'listRecoveries', field: 'cycle_id', to: 'listCycles' },
  { requirement: 'CONS-RECOVERY-REFERENCES', from: 'listRecoveries', field: 'sleep_id', to: 'listSleeps' },
  { requirement: 'CONS-SLEEP-CYCLE-REFERENCE', from: 'listSleeps', field: 'cycle_id', to: 'listCycles' },
] as const;

for (const { requirement, from, field, to } of references) {
  const source = operationById(from);
  const target = operationById(to);
  const read = singleReadOf(target) as Operation;
  test(
    ...verifies(
      requirement,
      `every ${field} of ${source.path} names a record of ${target.path} (or one readable by id)`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const referring = await dataset.collection(source);
      const known = idSet(await dataset.records(target));
      const { problems, notLookedUp, exchange } = await unresolved(api, token, referring, field, known, read);
      if (notLookedUp > 0) {
        if (problems.length > 0)
          problems.push(`… and ${notLookedUp} more ${field}(s) missing from the collection, not looked up`);
        else
          verdict.note(
            `${notLookedUp} ${field}(s) missing from the collection were not looked up (cap ${MAX_LOOKUPS})`,
          );
      }
      verdict.expectNone(problems, exchange);
    },
  );
}

// ---------------------------------------------------------------- activity mapping

test(
  ...verifies('MAP-V1-TO-V2', "the activity mapping of a record's v1_id is that record's uuid"),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const op = operationById('getActivityMapping');
    const withV1 = [
      ...(await dataset.records('listSleeps')),
      ...(await dataset.records('listWorkouts')),
    ].filter((record) => typeof record.v1_id === 'number');
    test.skip(withV1.length === 0, 'no sleep or workout of user A carries a v1_id');
    const problems: string[] = [];
    let first: Exchange | undefined;
    for (const record of spread(withV1, MAPPING_SAMPLE)) {
      const exchange = await api.send({
        path: buildPath(op, { activityV1Id: record.v1_id as number }),
        token,
      });
      expectServed(verdict, exchange);
      const mapped = exchange.json<{ v2_activity_id?: unknown }>().v2_activity_id;
      if (sameId(mapped, record.id)) continue;
      first ??= exchange;
      problems.push(`v1_id ${String(record.v1_id)} of ${String(record.id)} maps to ${preview(mapped)}`);
    }
    verdict.expectNone(problems, first);
  },
);

test(
  ...verifies('MAP-NOT-FOUND', 'an unknown V1 id gets 404'),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const op = operationById('getActivityMapping');
    const known = [...(await dataset.records('listSleeps')), ...(await dataset.records('listWorkouts'))].map(
      (record) => record.v1_id,
    );
    const exchange = await api.send({
      path: buildPath(op, { activityV1Id: unknownValue(op, known) }),
      token,
    });
    verdict.expectStatus(exchange, 404);
  },
);

// ---------------------------------------------------------------- 404 for unknown ids

const notFoundRules = ['ERR-404-UNKNOWN-RECORD', 'ERR-404-CYCLE-SUBRESOURCE'].flatMap((requirement) =>
  operationsOf(requirement).map((op) => ({ requirement, op })),
);

/** Every id of user A's records that the operation's path parameter could name. */
async function allIds(dataset: Dataset, op: Operation): Promise<unknown[]> {
  const [param] = op.pathParams;
  if (!param) throw new Error(`${op.operationId} has no path parameter`);
  const collection = { cycleId: 'listCycles', sleepId: 'listSleeps', workoutId: 'listWorkouts' }[param.name];
  if (!collection) throw new Error(`${op.operationId}: no collection for ${param.name}`);
  return (await dataset.records(collection as 'listCycles')).map((record) => record.id);
}

for (const { requirement, op } of notFoundRules) {
  test(
    ...verifies(requirement, `${op.path} answers 404 for a well-formed id that names no record`),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const [param] = op.pathParams as [Operation['pathParams'][number]];
      const value = unknownValue(op, await allIds(dataset, op));
      const exchange = await api.send({ path: buildPath(op, { [param.name]: value }), token });
      verdict.expectStatus(exchange, 404);
    },
  );
}

// ---------------------------------------------------------------- user A sees only user A's data

test(
  ...verifies(
    'DATA-OWN-USER-ONLY',
    "user B's record ids answer 404 to user A on every read by id and cycle sub-resource",
  ),
  async ({ api, dataset, userToken, requires, verdict }) => {
    requires('second-user');
    const tokenA = await userToken();
    const tokenB = await userToken(ALL_READ_SCOPES, 'B');
    // User B's newest records (first page of each collection) supply the ids.
    const pagesB = new Map<string, DataRecord[]>();
    for (const collection of userCollections) {
      let records: DataRecord[] = [];
      try {
        records = (
          await readPage<DataRecord>(api, collection.path, {
            token: tokenB,
            limit: 5,
            requirement: successRequirementOf(collection),
          })
        ).records;
      } catch (error) {
        // The collection's own tests report why it cannot be read; this check is merely blocked by it.
        if (!(error instanceof ConformanceFailure)) throw error;
        blockedBy(
          error.requirement,
          `user B's ${collection.path} could not be read (${error.message.split('\n')[0]})`,
        );
      }
      pagesB.set(collection.operationId, records);
    }
    const readsById = operationsOf(verdict.requirement).filter((op) => op.pathParams.length === 1);
    const problems: string[] = [];
    let first: Exchange | undefined;
    let tried = 0;
    for (const op of readsById) {
      const [param] = op.pathParams as [Operation['pathParams'][number]];
      const own = new Set((await allIds(dataset, op)).map((id) => String(id).toLowerCase()));
      const foreign = knownValues(op, param.name, (id) => pagesB.get(id) ?? []).filter(
        (value) => wellFormed(param, value) && !own.has(String(value).toLowerCase()),
      );
      for (const value of foreign.slice(0, FOREIGN_SAMPLE)) {
        tried++;
        const exchange = await api.send({ path: buildPath(op, { [param.name]: value }), token: tokenA });
        verdict.expectNo5xx(exchange);
        if (exchange.status === 404) continue;
        first ??= exchange;
        problems.push(
          `${op.path.replace(`{${param.name}}`, String(value))} (user B's) answers ${exchange.status} to user A`,
        );
      }
    }
    verdict.expectNone(problems, first);
    if (tried === 0)
      notVerified('user B has no records whose ids could be tried (CONFORMANCE_USER_B needs data)');
    verdict.evidence(`${tried} of user B's ids answered 404 to user A`);
  },
);

test(
  ...verifies('DATA-OWN-USER-ONLY', "every record of user A's collections belongs to user A"),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    // The profile names user A (when it can be read and carries user_id; its fields are not all required).
    const profile = await api.send({ path: buildPath(operationById('getBasicProfile')), token });
    verdict.expectNo5xx(profile);
    let profileUser: unknown;
    try {
      profileUser = served(profile) ? profile.json<{ user_id?: unknown }>().user_id : undefined;
    } catch {
      profileUser = undefined;
    }
    const problems: string[] = [];
    const owners = new Set<string>();
    for (const collection of userCollections) {
      const loaded = await dataset.collection(collection);
      loaded.records.forEach((record, index) => {
        // A missing user_id is a schema violation (reported there), not another user's record.
        if (record.user_id === undefined) return;
        owners.add(String(record.user_id));
        if (typeof profileUser === 'number' && record.user_id !== profileUser) {
          const where = locate(loaded, index);
          problems.push(
            `${collection.path} page ${where.page}, #${where.onPage}: user_id ${preview(record.user_id)}, but the profile's is ${profileUser}`,
          );
        }
      });
    }
    if (typeof profileUser !== 'number' && owners.size > 1)
      problems.push(`the collections mix records of users ${[...owners].join(', ')}`);
    verdict.expectNone(problems, profile);
    if (owners.size === 0) notVerified("user A's collections hold no record with a user_id");
    verdict.evidence(`every record of user A's collections carries user_id ${[...owners].join(', ')}`);
  },
);

// ---------------------------------------------------------------- security not shown

test(
  ...verifies(
    'AUTH-UNDECLARED-SECURITY',
    'records what the operations without declared security answer without a token',
  ),
  async ({ api, dataset, verdict }) => {
    const undeclared = operations.filter((op) => op.security.kind === 'unspecified');
    verdict.expectThat(undeclared.length > 0, 'no operation with undeclared security in the catalogue');
    for (const op of undeclared) {
      const [params] = await dataset.paramSets(op, 1);
      if (!params) {
        verdict.note(`${op.path}: user A has no record to supply its path parameter; not tried`);
        continue;
      }
      const exchange = await api.send({ method: op.method, path: buildPath(op, params) });
      expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', exchange);
      verdict.note(`${op.method} ${op.path} without a token answers ${exchange.status}`);
    }
  },
);
