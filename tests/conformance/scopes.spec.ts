// The scope matrix (SCOPE-READ-*): for every operation that declares a read scope, a token holding every
// other read scope is refused with 401 on user A's own data (RFC 6750's 403 a warning; any other status
// fails), and a token holding only that scope succeeds. The requirement of each scope comes from the
// catalogue (specs/requirements.yaml), the operations and their scopes from specs/openapi.yaml. GET
// /v2/cycle/{cycleId}/sleep declares no scope (security not shown): observed and noted only.
// SCOPE-REVOKE-ANY (DELETE /v2/user/access with any scope set) revokes the grant: see revoke.spec.ts.

import type { SuiteConfig } from '../../src/config/suite-config.ts';
import { requirementOf } from '../../src/contract/requirements.ts';
import { covered } from '../../src/suite/depth.ts';
import { ALL_READ_SCOPES } from '../../src/suite/fixtures.ts';
import { test, verifies } from '../../src/suite/test.ts';
import {
  describeOperation,
  requestFor,
  servedStatuses,
  userDataOperations,
} from '../../src/suite/user-catalogue.ts';
import type { RefusalReading } from '../../src/suite/verdicts.ts';

// One worker signs in once per scope set of the matrix; spread over the workers, each would sign in to most.
test.describe.configure({ mode: 'default' });

/**
 * A token lacking the scope: 401 ("| 401 | invalid authorization | all user data operations"); RFC 6750's 403
 * insufficient_scope is a warning (none with CONFORMANCE_ACCEPT_403). The record exists and is the user's,
 * and the request is well formed: a 404 or a 400 misstates it.
 */
const missingScope = (config: SuiteConfig): RefusalReading => ({
  expected: config.insufficientScopeStatuses,
  tolerated: [403],
});

for (const op of userDataOperations) {
  if (op.security.kind !== 'user' || op.security.scope === null) continue;
  const scope = op.security.scope;
  const requirement = requirementOf(op, 'SCOPE-READ-');
  const others = ALL_READ_SCOPES.filter((candidate) => candidate !== scope);

  test(
    ...verifies(
      requirement,
      `${describeOperation(op)} refuses a token holding every read scope but ${scope} with 401 (403 a warning)`,
    ),
    async ({ api, dataset, userToken, config, requires, verdict }) => {
      requires('scopes');
      const request = requestFor(op, await dataset.idsFor(op));
      const exchange = await api.send({ ...request, token: await userToken(others) });
      verdict.expectRefusal(exchange, missingScope(config), `user A's ${request.path}`);
      covered('read scope withheld', [scope], op.operationId);
    },
  );

  test(
    ...verifies(requirement, `${describeOperation(op)} serves a token holding only ${scope}`),
    async ({ api, dataset, userToken, requires, verdict }) => {
      requires('scopes');
      const ids = await dataset.idsFor(op);
      const exchange = await api.send({ ...requestFor(op, ids), token: await userToken([scope]) });
      verdict.expectStatus(exchange, servedStatuses(op));
      covered('read scope alone', [scope], op.operationId);
      verdict.evidence(`served to a token holding only ${scope}`, exchange);
    },
  );
}

for (const op of userDataOperations) {
  if (op.security.kind !== 'unspecified') continue;
  test(
    ...verifies(
      'AUTH-UNDECLARED-SECURITY',
      `${describeOperation(op)} with a token holding a single unrelated scope (read:profile) is observed, never 5xx`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const ids = await dataset.idsFor(op);
      const exchange = await api.send({ ...requestFor(op, ids), token: await userToken(['read:profile']) });
      verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
      verdict.note(
        `${describeOperation(op)} with a token holding only read:profile answered ${exchange.status} (the seed declares no scope for it)`,
      );
    },
  );
}
