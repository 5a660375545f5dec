// User-data authentication: a request with a missing, malformed or never-issued token gets 401 on every
// user-data operation (AUTH-MISSING-TOKEN, AUTH-INVALID-TOKEN; an expired one, AUTH-EXPIRED-TOKEN, late in
// the run: token-expiry.spec.ts), and tokens come from a working OAuth 2.0 authorization code flow
// (AUTH-CODE-FLOW). Table-driven over the catalogue: one test per operation and case
// (src/worker/suite/user-auth-checks.ts), operations whose security the seed does not show only observed.
// A refused DELETE /v2/user/access revokes nothing, so it is exercised like the reads.
import {
  ALL_READ_SCOPES,
  type ApiClient,
  type AuthCase,
  authCaseCheck,
  authTargets,
  lackedScopes,
  madeUpToken,
  narrowedGrant,
  registerSecret,
  requestFor,
  type SuiteConfig,
  servedStatuses,
  signInOutcome,
  successRequirement,
  test,
  triedOn,
  type UserName,
  type UserTokenPool,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

/** A token the target never issued: the shape of a real one (opaque base64url), random content. */
const neverIssued = (): string => madeUpToken();

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
];

for (const op of authTargets) for (const authCase of cases) authCaseCheck(op, authCase);

type OAuthClient = NonNullable<ReturnType<UserTokenPool['oauthClient']>>;

/**
 * {auth_url}/oauth/oauth2/auth: login and consent, then the redirect carrying the code and the state. What
 * the server answered (a 5xx, its own loop, an error redirect...) is its failure, with the request; the
 * run's own trouble (a refused request, automation that lost its way, a page for a person) stops it.
 */
async function authorizationCode(client: OAuthClient, user: UserName, config: SuiteConfig, verdict: Verdict) {
  const signedIn = await signInOutcome(client.obtainCode([...ALL_READ_SCOPES].join(' ')));
  if (signedIn.ok) return signedIn.value;
  const { serverFailed } = signedIn;
  if (serverFailed)
    return verdict.fail(`user ${user}: ${serverFailed.what}`, serverFailed.evidence, serverFailed.basis);
  return verdict.fail(
    `the authorization step at ${config.authUrl}/oauth/oauth2/auth did not redirect to the redirect URI with a code and the same state: ${signedIn.reason}`,
  );
}

interface TokenBody {
  access_token?: unknown;
  token_type?: unknown;
  expires_in?: unknown;
  scope?: unknown;
}

/** {auth_url}/oauth/oauth2/token: the code for a token (client credentials in the body or as Basic). */
async function tokenFor(
  client: OAuthClient,
  code: Parameters<OAuthClient['codeGrant']>[0],
  verdict: Verdict,
) {
  const exchange = await client.tokenRequest(client.codeGrant(code));
  verdict.expectStatus(exchange, 200);
  verdict.expectJsonContentType(exchange);
  const body = verdict.json<TokenBody>(exchange);
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
  return body;
}

/**
 * The token so obtained works: on one read operation of each scope it asked for, without path parameters
 * (the scope matrix, scopes.spec.ts, holds each operation to its scope, and the grant's statement to what
 * the token does). A scope the stated grant lacks (a user may withhold one) may be refused; a scope it holds
 * may not. A token that worked on nothing is no evidence that tokens work. Returns the reads it was served.
 */
async function tokenWorks(api: ApiClient, verdict: Verdict, token: string, lacked: ReadonlySet<string>) {
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
  return served;
}

test(
  ...verifies(
    'AUTH-CODE-FLOW',
    'the authorization code flow returns the state, a well-formed bearer token, and the token works, for each configured user',
    { needs: ['user-login'] },
  ),
  async ({ api, config, tokenPool, verdict }) => {
    const users: UserName[] = config.capabilities.has('second-user') ? ['A', 'B'] : ['A'];
    const worked: string[] = [];
    for (const user of users) {
      const client = tokenPool.oauthClient(user, api);
      if (!client) throw new Error('unreachable: user-login capability without userLogin');
      const code = await authorizationCode(client, user, config, verdict);
      const body = await tokenFor(client, code, verdict);
      const token = body.access_token as string;
      const scopes = [...ALL_READ_SCOPES].join(' ');
      const issued = { accessToken: token, scopes, ...client.statedScope(code, body.scope) };
      const narrowed = narrowedGrant(issued, user);
      if (narrowed) verdict.note(narrowed);
      const served = await tokenWorks(api, verdict, token, new Set(lackedScopes(issued)));
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
