// One test per operation of the user-data and utility areas: the success status and a body valid against
// the operation's response schema (for a collection, also that its walk to the end succeeds); then, per
// operation, that the body is application/json (OP-JSON-BODIES)
// and, for the operations VER-PATH-VERSION lists, that the versioned path is served. The three kinds are
// separate tests so that a failure blames only the requirement it breaks. Path parameters are real ids taken
// from user A's collections (the activity mapping: a real v1_id of a sleep or workout).
import {
  appliesTo,
  covered,
  type Dataset,
  type Exchange,
  type Operation,
  operations,
  requestFor,
  successRequirement,
  Tags,
  test,
  type UserName,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

/** Left out here: DELETE /v2/user/access destroys the grant; the isolated revoke test covers it. */
const COVERED_ELSEWHERE = new Set(['revokeUserAccess']);
// The smoke profile runs every test here: one read of every read operation, whose success, JSON body,
// versioned path and schema it verifies, and the first pages of each collection (the smoke plan's bound).
const SMOKE = [Tags.smoke];

/** The size of user B's first page of a collection, read as the ownership check reads it (limit 5). */
const USER_B_PAGE = 5;

const readOperations = operations.filter(
  (op) => (op.area === 'user-data' || op.area === 'utility') && !COVERED_ELSEWHERE.has(op.operationId),
);

/**
 * The operation called as a client would on success: user A's token, a real id for its path parameter; sent
 * once per worker (Dataset.read), whichever of the operation's tests asks first.
 */
async function callWithRealIds(op: Operation, dataset: Dataset, verdict: Verdict): Promise<Exchange> {
  const [params] = await dataset.paramSets(op, 1);
  if (params === undefined) verdict.notVerified(`user A has no record to supply ${op.path}'s path parameter`);
  const exchange = await dataset.read(op, params);
  // "404 no resource found" on an operation without parameters: the user has none (ERR-404-BODY-PROFILE).
  if (exchange.status === 404 && op.pathParams.length === 0 && op.statuses.includes(404))
    verdict.notVerified(
      `user A has no ${op.responseSchema ?? 'resource'}: ${op.path} answered 404, as the seed allows`,
    );
  return exchange;
}

/**
 * ERR-404-BODY-PROFILE is observable only for a user who has no body measurement or no profile: asked with
 * each configured user (user A's read is the one every check shares), until one has none.
 */
for (const op of operations.filter((candidate) => appliesTo('ERR-404-BODY-PROFILE', candidate))) {
  test(
    ...verifies(
      'ERR-404-BODY-PROFILE',
      `${op.method} ${op.path} answers 404 for a configured user who has none, else ${op.successStatus}`,
      { tag: SMOKE },
    ),
    async ({ api, config, dataset, userToken, verdict }) => {
      const users: UserName[] = config.capabilities.has('second-user') ? ['A', 'B'] : ['A'];
      for (const user of users) {
        const exchange =
          user === 'A'
            ? await dataset.read(op)
            : await api.send({ ...requestFor(op), token: await userToken(undefined, user) });
        verdict.expectStatus(exchange, [op.successStatus, 404]);
        if (exchange.status === 404)
          return verdict.evidence(`${op.path} answered 404 for user ${user}, who has none`, { exchange });
      }
      verdict.notVerified(
        `user${users.length > 1 ? 's' : ''} ${users.join(' and ')} each have a ${op.responseSchema}: the 404 for a user without one cannot be observed`,
      );
    },
  );
}

for (const op of readOperations) {
  const requirement = successRequirement(op);

  test(
    ...verifies(
      requirement,
      `${op.method} ${op.path} answers ${op.successStatus} with ${op.responseSchema ?? 'no body'}`,
      { tag: SMOKE },
    ),
    async ({ api, config, dataset, userToken, verdict }) => {
      const exchange = await callWithRealIds(op, dataset, verdict);
      verdict.expectStatus(exchange, op.successStatus);
      if (op.responseSchema === null) {
        verdict.expectEmptyBody(exchange);
        verdict.evidence('no body', { exchange });
        return;
      }
      verdict.expectSchema(op.responseSchema, verdict.json(exchange), exchange);
      covered('read operation', [op.operationId]);
      verdict.evidence(`a valid ${op.responseSchema}`, { exchange });
      // A collection is user B's too, where one is configured: its first page as the ownership check reads it.
      if (!op.isCollection || !config.capabilities.has('second-user')) return;
      const token = await userToken(undefined, 'B');
      const ofB = await api.send({ path: op.path, token, query: { limit: USER_B_PAGE } });
      verdict.expectStatus(ofB, op.successStatus);
      verdict.expectSchema(op.responseSchema, verdict.json(ofB), ofB);
      verdict.evidence(`a valid ${op.responseSchema} for user B too`, { exchange: ofB });
    },
  );

  if (op.isCollection) {
    test(
      ...verifies(
        requirement,
        `every page of ${op.method} ${op.path} the reference walk reads (limit 25, next_token followed) answers ${op.successStatus}`,
        { tag: SMOKE, needs: ['stateful'] },
      ),
      async ({ dataset, verdict }) => {
        // Following next_token to the end needs a target whose cursors lead somewhere (not a mock's).
        // The walk the schema, invariant, ordering and consistency checks share; they are blocked when it fails.
        const { pages, records, complete } = await dataset.referenceWalk(op);
        verdict.expectThat(pages.length > 0, 'the walk read no page');
        if (pages.length > 1) covered('pagination envelope', ['next_token followed'], op.operationId);
        verdict.evidence(
          `${pages.length} page(s), ${records.length} records, each page ${op.successStatus}${complete ? ', to the end' : " (the plan's bound)"}`,
        );
      },
    );
  }

  if (op.responseSchema !== null && appliesTo('OP-JSON-BODIES', op)) {
    test(
      ...verifies('OP-JSON-BODIES', `${op.method} ${op.path} answers with an application/json body`, {
        tag: SMOKE,
      }),
      async ({ dataset, verdict }) => {
        const exchange = await callWithRealIds(op, dataset, verdict);
        verdict.expectThat(exchange.text !== '', `no body (status ${exchange.status})`, exchange);
        verdict.expectJsonContentType(exchange);
        verdict.json(exchange);
        verdict.evidence('an application/json body', { exchange });
      },
    );
  }

  if (appliesTo('VER-PATH-VERSION', op)) {
    const version = /^\/(v\d+)\//.exec(op.path)?.[1] ?? '?';
    test(
      ...verifies(
        'VER-PATH-VERSION',
        `${op.method} ${op.path} is served under its versioned path /${version}/`,
        { tag: SMOKE },
      ),
      async ({ dataset, verdict }) => {
        const exchange = await callWithRealIds(op, dataset, verdict);
        verdict.expectSuccess(exchange, 'the versioned path');
        verdict.evidence(`served under /${version}/`, { exchange });
      },
    );
  }
}
