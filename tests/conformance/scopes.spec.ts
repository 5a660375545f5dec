// The scope matrix (SCOPE-READ-*): for every operation that declares a read scope, a token holding every
// other read scope is refused with 401 on user A's own data (RFC 6750's 403 a warning; any other status
// fails), and a token holding only that scope succeeds. What the server states of each grant (the token
// response's scope) is checked against what its token does: a token served a scope its stated grant lacks
// fails that scope's requirement, with the token response and the served request; a grant wider than asked
// is a warning naming the extra scopes, and leaves a check that needed the narrower token not verified.
// The requirement of each scope comes from the catalogue (specs/requirements.yaml), the operations and their
// scopes from specs/openapi.yaml. GET /v2/cycle/{cycleId}/sleep declares no scope (security not shown):
// observed and noted only. SCOPE-REVOKE-ANY (DELETE /v2/user/access with any scope set) revokes the grant:
// see revoke.spec.ts.
import {
  ALL_READ_SCOPES,
  covered,
  describeExchange,
  describeOperation,
  exchangeLine,
  lackedScope,
  type RefusalReading,
  requestFor,
  requirementOf,
  type SuiteConfig,
  servedStatuses,
  succeeded,
  test,
  type UserTokenPool,
  userDataOperations,
  type Verdict,
  verifies,
  widerGrant,
} from '../../src/worker/suite/index.ts';

/** The warning a grant wider than its token was asked for gets (its text), if it is one. */
function widerThanAsked(pool: UserTokenPool, token: string, verdict: Verdict): string | undefined {
  const grant = pool.grantOf(token)?.token;
  const wider = grant && widerGrant(grant, 'A');
  if (wider) verdict.warn(wider);
  return wider;
}

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
      { needs: ['scopes'] },
    ),
    async ({ api, dataset, userToken, tokenPool, config, verdict }) => {
      const request = requestFor(op, await dataset.idsFor(op));
      const token = await userToken(others);
      const wider = widerThanAsked(tokenPool, token, verdict);
      const exchange = await api.send({ ...request, token });
      if (wider && succeeded(exchange))
        verdict.notVerified(
          `${wider}: a refusal for lacking ${scope} cannot be seen (${exchangeLine(exchange)})`,
        );
      verdict.expectRefusal(exchange, missingScope(config), `user A's ${request.path}`);
      covered('read scope withheld', [scope], op.operationId);
    },
  );

  test(
    ...verifies(requirement, `${describeOperation(op)} serves a token holding only ${scope}`, {
      needs: ['scopes'],
    }),
    async ({ api, dataset, userToken, tokenPool, verdict }) => {
      const ids = await dataset.idsFor(op);
      const token = await userToken([scope]);
      // A token the target refused on the scope its stated grant lacks is not verified (grant-guard.ts).
      const exchange = await api.send({ ...requestFor(op, ids), token });
      verdict.expectStatus(exchange, servedStatuses(op));
      const grant = tokenPool.grantOf(token)?.token;
      const lack = grant && lackedScope(grant, 'A', scope);
      if (lack)
        verdict.fail(
          `${lack}, yet the target served the token (${exchangeLine(exchange)}): the grant's statement and its enforcement disagree`,
          [
            `the token response:\n${grant.statedIn ?? '(not kept)'}`,
            `the served request:\n${describeExchange(exchange)}`,
          ].join('\n'),
        );
      const wider = widerThanAsked(tokenPool, token, verdict);
      if (wider) verdict.notVerified(`${wider}: a token holding only ${scope} could not be had`);
      covered('read scope alone', [scope], op.operationId);
      verdict.evidence(`served to a token holding only ${scope}`, { exchange });
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
