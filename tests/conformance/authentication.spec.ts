// User-data authentication: a request with a missing, malformed, never-issued or expired token gets 401 on
// every user-data operation (AUTH-MISSING-TOKEN, AUTH-INVALID-TOKEN, AUTH-EXPIRED-TOKEN), and tokens come
// from a working OAuth 2.0 authorization code flow (AUTH-CODE-FLOW). Table-driven over the catalogue: one
// test per operation and case. Operations whose security the seed does not show (x-security: unspecified:
// GET /v2/cycle/{cycleId}/sleep, the activity mapping) are only observed and noted (AUTH-UNDECLARED-SECURITY).
// A refused DELETE /v2/user/access revokes nothing, so it is exercised like the reads.
import { lackedScopes, narrowedGrant } from '../../src/auth/granted-scope.ts';
import { Tags } from '../../src/config/profiles.ts';
import type { Operation } from '../../src/contract/operation-model.ts';
import { operations } from '../../src/contract/operations.ts';
import { successRequirement } from '../../src/contract/requirements.ts';
import type { ApiRequest } from '../../src/http/api-client.ts';
import { madeUpToken } from '../../src/http/made-up-tokens.ts';
import { registerSecret } from '../../src/http/redact.ts';
import {
  ALL_READ_SCOPES,
  signInOutcome,
  type UserName,
  type UserTokenPool,
} from '../../src/suite/fixtures.ts';
import { test, verifies } from '../../src/suite/test.ts';
import { covered } from '../../src/user-data/depth.ts';
import { triedOn } from '../../src/user-data/grant-guard.ts';
import {
  describeOperation,
  requestFor,
  servedStatuses,
  userDataOperations,
} from '../../src/user-data/user-catalogue.ts';

/** The user-data operations, plus the utility operation whose security the seed leaves open. */
const targets: readonly Operation[] = [
  ...userDataOperations,
  ...operations.filter((op) => op.area === 'utility'),
];

/** A token the target never issued: the shape of a real one (opaque base64url), random content. */
const neverIssued = (): string => madeUpToken();

interface Context {
  validToken: () => Promise<string>;
  pool: UserTokenPool;
}

interface AuthCase {
  requirement: 'AUTH-MISSING-TOKEN' | 'AUTH-INVALID-TOKEN' | 'AUTH-EXPIRED-TOKEN';
  name: string;
  /** Capabilities the case needs beyond real-auth. */
  needs: ('expired-user-token' | 'user-login')[];
  smoke?: boolean;
  authorization: (op: Operation, context: Context) => Promise<Pick<ApiRequest, 'token' | 'headers'>>;
}

const cases: readonly AuthCase[] = [
  {
    requirement: 'AUTH-MISSING-TOKEN',
    name: 'without a token',
    needs: [],
    smoke: true,
    authorization: async () => ({}),
  },
  {
    requirement: 'AUTH-INVALID-TOKEN',
    name: 'with a malformed token (Bearer !!!)',
    needs: [],
    authorization: async () => ({ headers: { authorization: `Bearer ${madeUpToken('!!!')}` } }),
  },
  {
    requirement: 'AUTH-INVALID-TOKEN',
    name: 'with a token sent without the Bearer scheme',
    needs: [],
    // A valid token without its scheme for the reads; for DELETE /v2/user/access an unknown value, so a
    // lenient target cannot revoke a grant other tests still use.
    authorization: async (op, context) => ({
      headers: { authorization: op.readOnly ? await context.validToken() : neverIssued() },
    }),
  },
  {
    requirement: 'AUTH-INVALID-TOKEN',
    name: 'with a never-issued token',
    needs: [],
    smoke: true,
    authorization: async () => ({ token: neverIssued() }),
  },
  {
    requirement: 'AUTH-EXPIRED-TOKEN',
    name: 'with an expired token',
    needs: ['expired-user-token'],
    authorization: async (_op, context) => ({ token: await context.pool.expiredToken() }),
  },
];

for (const op of targets) {
  const declared = op.security.kind === 'user';
  for (const authCase of cases) {
    // The smoke profile gets the two cheapest checks on one operation without path parameters.
    const smoke = authCase.smoke === true && op.operationId === 'getBasicProfile';
    const requirement = declared ? authCase.requirement : 'AUTH-UNDECLARED-SECURITY';
    const title = declared
      ? `${describeOperation(op)} ${authCase.name} gets 401`
      : `${describeOperation(op)} ${authCase.name} (security not shown by the seed: observed, never 5xx)`;

    test(
      ...verifies(requirement, title, { tag: declared && smoke ? [Tags.smoke] : [] }),
      async ({ api, dataset, userToken, tokenPool, requires, verdict }) => {
        requires('real-auth', ...authCase.needs);
        const validToken = () => userToken();
        const ids = await dataset.idsFor(op);
        const authorization = await authCase.authorization(op, { validToken, pool: tokenPool });
        const exchange = await api.send({ ...requestFor(op, ids), ...authorization });
        if (declared) {
          verdict.expectStatus(exchange, 401);
          covered('auth negative', [`user data ${authCase.name}`], op.operationId);
          verdict.evidence(`${describeOperation(op)} ${authCase.name}: 401`);
        } else {
          verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
          verdict.note(
            `${describeOperation(op)} ${authCase.name}: answered ${exchange.status} (the seed does not show this operation's security)`,
          );
        }
      },
    );
  }
}

test(
  ...verifies(
    'AUTH-CODE-FLOW',
    'the authorization code flow returns the state, a well-formed bearer token, and the token works, for each configured user',
  ),
  async ({ api, config, tokenPool, requires, verdict }) => {
    requires('user-login');
    const users: UserName[] = config.capabilities.has('second-user') ? ['A', 'B'] : ['A'];
    const worked: string[] = [];
    for (const user of users) {
      const client = tokenPool.oauthClient(user, api);
      if (!client) throw new Error('unreachable: user-login capability without userLogin');
      const scopes = [...ALL_READ_SCOPES].join(' ');

      // {auth_url}/oauth/oauth2/auth: login and consent, then the redirect carrying the code and the state.
      // What the server answered (a 5xx, its own loop, an error redirect...) is its failure, with the request;
      // the run's own trouble (a refused request, automation that lost its way, a page for a person) stops it.
      const signedIn = await signInOutcome(client.obtainCode(scopes));
      if (!signedIn.ok) {
        const { serverFailed } = signedIn;
        if (serverFailed)
          return verdict.fail(
            `user ${user}: ${serverFailed.what}`,
            serverFailed.evidence,
            serverFailed.basis,
          );
        return verdict.fail(
          `the authorization step at ${config.authUrl}/oauth/oauth2/auth did not redirect to the redirect URI with a code and the same state: ${signedIn.reason}`,
        );
      }
      const code = signedIn.value;

      // {auth_url}/oauth/oauth2/token: the code for a token (client credentials in the body or as Basic).
      const exchange = await client.tokenRequest(client.codeGrant(code));
      verdict.expectStatus(exchange, 200);
      verdict.expectJsonContentType(exchange);
      const body = verdict.json<{
        access_token?: unknown;
        token_type?: unknown;
        expires_in?: unknown;
        scope?: unknown;
      }>(exchange);
      registerSecret(typeof body.access_token === 'string' ? body.access_token : undefined);
      verdict.expectThat(
        typeof body.access_token === 'string' && body.access_token.length > 0,
        'the token response has no access_token string',
        exchange,
      );
      // The seed shows no user token response: token_type and expires_in are the suite's reading of RFC 6749.
      if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer')
        verdict.warn(`token_type is ${JSON.stringify(body.token_type)}, not bearer`, exchange);
      if (typeof body.expires_in !== 'number' || !Number.isInteger(body.expires_in) || body.expires_in <= 0)
        verdict.warn(
          `expires_in is ${JSON.stringify(body.expires_in)}, not a positive number of seconds`,
          exchange,
        );

      // The token so obtained works: on one read operation of each scope it asked for, without path
      // parameters (the scope matrix, scopes.spec.ts, holds each operation to its scope, and the grant's
      // statement to what the token does). A scope the stated grant lacks (a user may withhold one) may be
      // refused; a scope it holds may not. A token that worked on nothing is no evidence that tokens work.
      const token = body.access_token as string;
      const issued = { accessToken: token, scopes, ...client.statedScope(code, body.scope) };
      const narrowed = narrowedGrant(issued, user);
      if (narrowed) verdict.note(narrowed);
      const lacked = new Set(lackedScopes(issued));
      const served: string[] = [];
      for (const scope of ALL_READ_SCOPES) {
        const op = triedOn(scope);
        if (!op) throw new Error(`no operation without path parameters declares ${scope}`);
        const read = await api.send({ ...requestFor(op), token });
        if (lacked.has(scope) && (read.status === 401 || read.status === 403)) continue;
        // A 5xx says nothing about the token: the operation failed (its own success requirement).
        verdict.of(successRequirement(op)).expectNo5xx(read);
        verdict.expectStatus(read, servedStatuses(op));
        served.push(op.operationId);
      }
      if (served.length === 0)
        verdict.notVerified(
          `user ${user}'s token was served none of the reads it was asked for (${narrowed ?? 'its grant holds them all'})`,
        );
      worked.push(`user ${user}'s on ${served.join(', ')}`);
    }
    verdict.evidence(
      `code, state and token for user ${users.join(' and ')}; the tokens worked: ${worked.join('; ')}`,
    );
  },
);
