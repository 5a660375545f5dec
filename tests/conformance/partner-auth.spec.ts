// The partner token endpoint and partner bearer authentication (seed §Authentication › Partner API):
// client credentials for a bearer token; every partner operation refuses a missing or invalid token with
// 401 (an expired one late in the run: token-expiry.spec.ts); the suite's PartnerClient then requests a new
// token and retries.
//
// Every request asks for what partner A owns, so that a served answer shows as served and a refused one as
// refused (src/worker/partner-data/partner-owned-targets.ts): reads on one of its requisitions, updates and add-test-data
// (which a broken server would run without a valid token) on test data the run generated for these checks,
// tagged @nonprod @write.
import { randomUUID } from 'node:crypto';
import {
  addTestDataOperation,
  covered,
  type Exchange,
  madeUpToken,
  type Operation,
  operationById,
  ownedTarget,
  ownedTargetTags,
  type PartnerData,
  partnerOperations,
  type RefusalReading,
  registerSecret,
  renewalCheck,
  STATED_401,
  sendAs,
  successRequirement,
  Tags,
  test,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

const tokenOperation = operationById('requestPartnerToken');

/** The seed names no status for a missing partner token: 401 is the reading, another 4xx a warning. */
const MISSING_TOKEN: RefusalReading = { expected: [401], tolerated: 'any 4xx' };

/**
 * `op` sent by partner A with its valid token on what it owns, and what it asked for: add-test-data as the
 * other checks first sent it (the same request, observed once per worker session).
 */
async function withValidToken(
  partnerData: PartnerData,
  op: Operation,
): Promise<{ exchange: Exchange; asked: string }> {
  if (op.operationId === addTestDataOperation.operationId)
    return { exchange: await partnerData.observedTestData(), asked: `${op.method} ${op.path}` };
  const { request, asked } = await ownedTarget(partnerData, op);
  return { exchange: await partnerData.partner.send(request), asked };
}

interface TokenResponse {
  access_token?: unknown;
  token_type?: unknown;
  expires_in?: unknown;
}

/** The verdicts of the token request's answer (OP-PARTNER-TOKEN), which a check that needs a token judges. */
const tokenAnswer = (verdict: Verdict): Verdict => verdict.of(successRequirement(tokenOperation));

// ------------------------------------------------------------------------------------ the token endpoint

/**
 * The answer to a token request with valid credentials, sent once per worker session and judged by each check
 * of its body (its token kept out of every report).
 */
async function validTokenAnswer(
  partnerData: PartnerData,
  verdict: Verdict,
): Promise<{ exchange: Exchange; body: TokenResponse }> {
  const exchange = await partnerData.observedTokenRequest();
  const answer = tokenAnswer(verdict);
  answer.expectStatus(exchange, 200);
  const body = answer.json<TokenResponse>(exchange);
  if (typeof body?.access_token === 'string') registerSecret(body.access_token);
  return { exchange, body };
}

// Requirements the token test reports besides its own: the response schema and JSON bodies.
const TOKEN_RESPONSE_SCHEMA = 'SCH-PARTNER-TOKEN-RESPONSE';
const JSON_BODIES = 'OP-JSON-BODIES';

test(
  ...verifies('OP-PARTNER-TOKEN', 'valid client credentials get 200 with a PartnerTokenResponse', {
    also: [TOKEN_RESPONSE_SCHEMA, JSON_BODIES],
    tag: [Tags.partner, Tags.smoke],
  }),
  async ({ partnerData, verdict }) => {
    const exchange = await partnerData.observedTokenRequest();
    verdict.expectStatus(exchange, 200);
    const jsonBodies = verdict.of(JSON_BODIES);
    jsonBodies.expectJsonContentType(exchange);
    jsonBodies.evidence('the partner token response is application/json', { exchange });
    const body = verdict.json<TokenResponse>(exchange);
    if (typeof body?.access_token === 'string') registerSecret(body.access_token);
    const schema = verdict.of(TOKEN_RESPONSE_SCHEMA);
    schema.expectSchema('partner-token-response', body, exchange);
    schema.evidence('the token response is a PartnerTokenResponse', { exchange });
    verdict.evidence('valid client credentials got a token', { exchange });
  },
);

// The seed marks scope and grant_type optional (the configured values, CONFORMANCE_PARTNER_SCOPE and
// CONFORMANCE_PARTNER_GRANT_TYPE, go in every other request): a request without both still gets a token.
test(
  ...verifies(
    'OP-PARTNER-TOKEN',
    'a token request without the optional scope and grant_type gets 200 with a token',
    {
      tag: [Tags.partner],
    },
  ),
  async ({ partnerA, verdict }) => {
    const exchange = await partnerA.requestToken({ scope: undefined, grant_type: undefined });
    verdict.expectStatus(exchange, 200);
    const body = verdict.json<TokenResponse>(exchange);
    if (typeof body?.access_token === 'string') registerSecret(body.access_token);
    verdict.expectThat(typeof body?.access_token === 'string', 'the response has no access_token', exchange);
    verdict.evidence('a body with client_id and client_secret only got a token');
  },
);

test(
  ...verifies('PAUTH-TOKEN-TYPE', 'the token response says token_type bearer', {
    tag: [Tags.partner],
    needs: ['real-auth'],
  }),
  async ({ partnerData, verdict }) => {
    const { exchange, body } = await validTokenAnswer(partnerData, verdict);
    verdict.expectThat(
      typeof body?.token_type === 'string' && body.token_type.toLowerCase() === 'bearer',
      `token_type is ${JSON.stringify(body?.token_type)}, not bearer`,
      exchange,
    );
    verdict.evidence(`token_type ${JSON.stringify(body.token_type)}`, { exchange });
  },
);

test(
  ...verifies('PAUTH-EXPIRES-IN', 'the token response gives expires_in as a positive integer of seconds', {
    tag: [Tags.partner],
    needs: ['real-auth'],
  }),
  async ({ partnerData, verdict }) => {
    const { exchange, body } = await validTokenAnswer(partnerData, verdict);
    verdict.expectThat(
      Number.isInteger(body?.expires_in) && (body?.expires_in as number) > 0,
      `expires_in is ${JSON.stringify(body?.expires_in)}, not a positive integer`,
      exchange,
    );
    verdict.evidence(`expires_in ${JSON.stringify(body.expires_in)}`, { exchange });
  },
);

interface InvalidTokenRequest {
  name: string;
  /** Replaces fields of the valid body (undefined removes one), or a raw body sent as JSON content. */
  body: { overrides: Record<string, unknown> } | { raw: string };
  /**
   * Invalid client credentials get the seed's 401; a request missing a field or with a malformed body is
   * refused, with no status named: 400 or 401 is the suite's reading, another 4xx a warning.
   */
  stated: boolean;
  /** Part of the read-only smoke profile. */
  smoke?: true;
}

const invalidTokenRequests: InvalidTokenRequest[] = [
  {
    name: 'a wrong client_secret',
    body: { overrides: { client_secret: `not-the-secret-${randomUUID()}` } },
    stated: true,
    // The partner family's one negative in the smoke profile: no data is touched.
    smoke: true,
  },
  {
    name: 'an unknown client_id',
    body: { overrides: { client_id: `unknown-client-${randomUUID()}` } },
    stated: true,
  },
  { name: 'no client_secret', body: { overrides: { client_secret: undefined } }, stated: false },
  { name: 'no client_id', body: { overrides: { client_id: undefined } }, stated: false },
  {
    name: 'neither client_id nor client_secret',
    body: { overrides: { client_id: undefined, client_secret: undefined } },
    stated: false,
  },
  { name: 'a body that is not JSON', body: { raw: '{"grant_type": "client_credentials", ' }, stated: false },
  { name: 'a JSON array', body: { raw: '[]' }, stated: false },
  { name: 'a JSON string', body: { raw: '"client_credentials"' }, stated: false },
  { name: 'an empty body', body: { raw: '' }, stated: false },
];

/** A malformed token request: 400 or 401 by the reading, another 4xx a warning. */
const MALFORMED_TOKEN_REQUEST: RefusalReading = { expected: [400, 401], tolerated: 'any 4xx' };

for (const { name, body, stated, smoke } of invalidTokenRequests) {
  test(
    ...verifies(
      'PAUTH-TOKEN-INVALID-CLIENT',
      `a token request with ${name} gets ${stated ? '401' : "400 or 401 (by the suite's reading; refused by the seed)"}`,
      { tag: [Tags.partner, ...(smoke ? [Tags.smoke] : [])], needs: ['real-auth'] },
    ),
    async ({ api, partnerA, verdict }) => {
      const exchange =
        'overrides' in body
          ? await partnerA.requestToken(body.overrides)
          : await api.send({
              method: tokenOperation.method,
              path: tokenOperation.path,
              body: body.raw,
              headers: { 'content-type': 'application/json' },
            });
      // A token issued on invalid credentials is a credential too: keep it out of every report.
      registerSecret(/"access_token"\s*:\s*"([^"]+)"/.exec(exchange.text)?.[1]);
      verdict.expectRefusal(
        exchange,
        stated ? STATED_401 : MALFORMED_TOKEN_REQUEST,
        `a token for a request with ${name}`,
      );
      covered('auth negative', [`partner token request with ${name}`]);
    },
  );
}

// ------------------------------------------------------------------------------------ bearer authentication

for (const op of partnerOperations) {
  test(
    ...verifies(
      'PAUTH-BEARER-ACCEPTED',
      `${op.method} ${op.path} accepts a partner token as Authorization Bearer`,
      { tag: ownedTargetTags(op) },
    ),
    async ({ partnerData, verdict }) => {
      const { exchange, asked } = await withValidToken(partnerData, op);
      // On partner A's own requisition a 404 refuses the token too ("not found or caller not an owner").
      const refusals = op.pathParams.length > 0 ? [401, 403, 404] : [401, 403];
      verdict.expectThat(
        !refusals.includes(exchange.status),
        `${asked} with partner A's valid token was refused with ${exchange.status}`,
        exchange,
      );
      // A 5xx says nothing about the token: the operation failed (its own success requirement).
      verdict.of(successRequirement(op)).expectNo5xx(exchange);
      verdict.evidence(`${asked} with partner A's token`, { exchange });
    },
  );

  // "An expired or invalid token gets 401"; for a missing token the seed names no status: 401 is a reading.
  const invalidTokens: { name: string; token: () => string | undefined; stated: boolean }[] = [
    { name: 'without a token', token: () => undefined, stated: false },
    {
      name: 'with a token the service never issued',
      token: () => madeUpToken(`not-a-token-${randomUUID()}`),
      stated: true,
    },
  ];
  for (const { name, token, stated } of invalidTokens) {
    test(
      ...verifies(
        'PAUTH-INVALID-TOKEN',
        `${op.method} ${op.path} ${name} gets 401${stated ? '' : " (by the suite's reading; refused by the seed)"}`,
        { tag: ownedTargetTags(op), needs: ['partner', 'real-auth'] },
      ),
      async ({ api, partnerData, verdict }) => {
        const { exchange, asked } = await sendAs(api, partnerData, op, token());
        verdict.expectRefusal(exchange, stated ? STATED_401 : MISSING_TOKEN, asked);
      },
    );
  }
}

// ------------------------------------------------------------------------------------ renewal after a 401

renewalCheck({
  requirement: 'PAUTH-INVALID-TOKEN',
  kind: 'invalid',
  stale: async () => madeUpToken(`not-a-token-${randomUUID()}`),
});
