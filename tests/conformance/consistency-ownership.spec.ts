// Whose data a request reaches: an id that names no record of the user's gets 404 (an unknown V1 id, an
// unknown record or cycle, another user's record), every record of the user's collections is the user's,
// and what the operations whose security the contract does not show answer without a token.
import {
  ALL_READ_SCOPES,
  bodyOf,
  buildPath,
  type DataRecord,
  type Dataset,
  type Exchange,
  foreignAnswer,
  knownValues,
  type Operation,
  type OwnedCollection,
  operationById,
  operations,
  operationsOf,
  ownerProblems,
  readPage,
  servedAt,
  succeeded,
  successRequirement,
  test,
  userCollections,
  verifies,
} from '../../src/worker/suite/index.ts';

// Records of user B whose ids are tried with user A's token, per operation: as many as the run's depth plan
// says (a fault shows on any).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is well-formed for a path parameter (an id of another shape would rightly get 400). */
const wellFormed = (param: Operation['pathParams'][number], value: unknown): boolean =>
  param.schema.format === 'uuid'
    ? typeof value === 'string' && UUID.test(value)
    : param.schema.type === 'integer'
      ? typeof value === 'number' && Number.isSafeInteger(value)
      : true;

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

// These checks read the user's real records: each needs a target that keeps real data.
// ---------------------------------------------------------------- 404 for unknown ids

test(
  ...verifies('MAP-NOT-FOUND', 'an unknown V1 id gets 404', { needs: ['stateful'] }),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const op = operationById('getActivityMapping');
    const source = await dataset.sourceRecords(op, 'activityV1Id');
    const known = [...source('listSleeps'), ...source('listWorkouts')].map((record) => record.v1_id);
    const exchange = await api.send({
      path: buildPath(op, { activityV1Id: unknownValue(op, known) }),
      token,
    });
    verdict.expectStatus(exchange, 404);
    verdict.evidence(
      `a V1 id far above those of user A's ${known.length} sleeps and workouts that carry one`,
      { exchange },
    );
  },
);

const notFoundRules = (['ERR-404-UNKNOWN-RECORD', 'ERR-404-CYCLE-SUBRESOURCE'] as const).flatMap(
  (requirement) => operationsOf(requirement).map((op) => ({ requirement, op })),
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
    ...verifies(requirement, `${op.path} answers 404 for a well-formed id that names no record`, {
      needs: ['stateful'],
    }),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const [param] = op.pathParams as [Operation['pathParams'][number]];
      const ids = await allIds(dataset, op);
      const exchange = await api.send({
        path: buildPath(op, { [param.name]: unknownValue(op, ids) }),
        token,
      });
      verdict.expectStatus(exchange, 404);
      verdict.evidence(`an id none of user A's ${ids.length} records carries`, { exchange });
    },
  );
}

// ---------------------------------------------------------------- user A sees only user A's data

test(
  ...verifies(
    'DATA-OWN-USER-ONLY',
    "user B's record ids are never served to user A on a read by id or cycle sub-resource (by the suite's reading, 404)",
    { needs: ['stateful', 'second-user'] },
  ),
  async ({ api, dataset, userToken, verdict }) => {
    const tokenA = await userToken();
    const tokenB = await userToken(ALL_READ_SCOPES, 'B');
    // User B's newest records (first page of each collection) supply the ids. A page that fails (a 5xx, not
    // JSON) is the server's answer to user B: it fails its operation here, and this check is blocked by it.
    const pagesB = new Map<string, DataRecord[]>();
    for (const collection of userCollections) {
      const page = await readPage<DataRecord>(api, collection.path, {
        token: tokenB,
        limit: 5,
        requirement: successRequirement(collection),
      });
      pagesB.set(collection.operationId, page.records);
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
      for (const value of foreign.slice(0, (await dataset.plan()).foreignIds)) {
        tried++;
        const exchange = await api.send({ path: buildPath(op, { [param.name]: value }), token: tokenA });
        verdict.expectNo5xx(exchange);
        const answer = foreignAnswer(exchange.status, op.path.replace(`{${param.name}}`, String(value)));
        if (answer && 'warning' in answer) verdict.warn(answer.warning, exchange);
        if (!answer || !('problem' in answer)) continue;
        first ??= exchange;
        problems.push(answer.problem);
      }
    }
    verdict.expectNone(problems, first);
    if (tried === 0)
      verdict.notVerified('user B has no records whose ids could be tried (CONFORMANCE_USER_B needs data)');
    verdict.evidence(`${tried} of user B's ids refused to user A`, { count: tried });
  },
);

test(
  ...verifies('DATA-OWN-USER-ONLY', "every record of user A's collections belongs to user A", {
    needs: ['stateful'],
  }),
  async ({ dataset, verdict }) => {
    // The profile names user A (when it can be read and carries user_id; its fields are not all required).
    const profile = await dataset.read(operationById('getBasicProfile'));
    verdict.expectNo5xx(profile);
    const body = bodyOf<{ user_id?: unknown }>(profile);
    const profileUser = succeeded(profile) && body.ok ? body.value.user_id : undefined;
    const collections: OwnedCollection[] = [];
    for (const collection of userCollections) {
      const loaded = await dataset.collection(collection);
      collections.push({
        path: collection.path,
        records: loaded.records,
        servedAt: (i) => servedAt(loaded, i),
      });
    }
    const { problems, owners } = ownerProblems(collections, profileUser);
    verdict.expectNone(problems, profile);
    if (owners.size === 0) verdict.notVerified("user A's collections hold no record with a user_id");
    verdict.evidence(`every record of user A's collections carries user_id ${[...owners].join(', ')}`);
  },
);

// ---------------------------------------------------------------- security not shown

test(
  ...verifies(
    'AUTH-UNDECLARED-SECURITY',
    'records what the operations without declared security answer without a token',
    { needs: ['stateful'] },
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
      verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
      verdict.note(`${op.method} ${op.path} without a token answers ${exchange.status}`);
    }
  },
);
