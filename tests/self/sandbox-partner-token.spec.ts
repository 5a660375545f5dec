// The sandbox's partner token endpoint and partner bearer authentication (sandbox/partner/token-route.ts,
// auth.ts), over real HTTP.
import { expect, test } from '@playwright/test';
import { assertValid } from '../../src/contract/validators.ts';
import {
  movableClock,
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  startPartnerSandbox,
  validTokenRequest,
} from './sandbox-partner-support.ts';

const authenticatedOperations = [
  { name: 'addTestData', method: 'POST', path: () => paths.testData },
  { name: 'getRequisition', method: 'GET', path: (r: string) => paths.requisition(r) },
  { name: 'getServiceRequest', method: 'GET', path: (_r: string, s: string) => paths.serviceRequest(s) },
  {
    name: 'updateRequisitionStatus',
    method: 'PATCH',
    path: (r: string) => paths.requisitionStatus(r),
    json: {},
  },
  {
    name: 'updateServiceRequestStatus',
    method: 'PATCH',
    path: (_r: string, s: string) => paths.serviceRequestStatus(s),
    json: {},
  },
  {
    name: 'createServiceRequestResults',
    method: 'POST',
    path: (_r: string, s: string) => paths.results(s),
    json: {},
  },
] as const;

test.describe('sandbox partner token endpoint', () => {
  let sandbox: PartnerSandbox;
  test.beforeAll(async () => {
    sandbox = await startPartnerSandbox();
  });
  test.afterAll(() => sandbox.close());

  test('valid client credentials get a bearer token [OP-PARTNER-TOKEN, SCH-PARTNER-TOKEN-RESPONSE, PAUTH-TOKEN-TYPE, PAUTH-EXPIRES-IN]', async () => {
    for (const partner of [partnerA, partnerB]) {
      const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partner) });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('application/json');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      assertValid('partner-token-response', answer.body);
      const body = answer.body as { token_type: string; expires_in: number; access_token: string };
      expect(body.token_type).toBe('bearer');
      expect(body.expires_in).toBe(3600);
      expect(body.access_token.length).toBeGreaterThan(20);
    }
  });

  test('grant_type and scope may be omitted; form-encoded requests work too [OP-PARTNER-TOKEN]', async () => {
    const bare = await sandbox.call('POST', paths.token, {
      json: { client_id: partnerA.clientId, client_secret: partnerA.clientSecret },
    });
    expect(bare.status).toBe(200);
    const form = new URLSearchParams(validTokenRequest(partnerA) as Record<string, string>).toString();
    const encoded = await sandbox.call('POST', paths.token, {
      raw: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(encoded.status).toBe(200);
  });

  const invalidClients: [string, Record<string, unknown>][] = [
    ['wrong secret', validTokenRequest(partnerA, { client_secret: `${partnerA.clientSecret}x` })],
    ["another partner's secret", validTokenRequest(partnerA, { client_secret: partnerB.clientSecret })],
    ['unknown client', validTokenRequest(partnerA, { client_id: 'no-such-partner' })],
    ['missing client_id', { client_secret: partnerA.clientSecret }],
    ['missing client_secret', { client_id: partnerA.clientId }],
    ['empty object', {}],
    ['non-string client_secret', { client_id: partnerA.clientId, client_secret: 12345 }],
    ['empty secret', validTokenRequest(partnerA, { client_secret: '' })],
  ];
  for (const [name, json] of invalidClients) {
    test(`invalid client credentials (${name}) get 401 invalid_client [PAUTH-TOKEN-INVALID-CLIENT]`, async () => {
      const answer = await sandbox.call('POST', paths.token, { json });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: 'invalid_client' });
    });
  }

  const malformed: [string, string][] = [
    ['truncated JSON', '{"client_id": "partner-a"'],
    ['not JSON', 'client_id=partner-a'],
    ['a JSON array', '[]'],
    ['a JSON string', '"partner-a"'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ];
  for (const [name, raw] of malformed) {
    test(`a malformed token request (${name}) gets 400 [PAUTH-TOKEN-INVALID-CLIENT]`, async () => {
      const answer = await sandbox.call('POST', paths.token, { raw });
      expect(answer.status).toBe(400);
    });
  }

  test('a wrong grant_type or scope gets 400 (credentials checked first)', async () => {
    const grant = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { grant_type: 'password' }),
    });
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({ error: 'unsupported_grant_type' });
    const scope = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { scope: 'read:cycles' }),
    });
    expect(scope.status).toBe(400);
    expect(scope.body).toMatchObject({ error: 'invalid_scope' });
    const both = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { client_secret: 'wrong', grant_type: 'password' }),
    });
    expect(both.status).toBe(401);
  });

  test('a bad sandbox_expires_in is a 400', async () => {
    const answer = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { sandbox_expires_in: -1 }),
    });
    expect(answer.status).toBe(400);
  });
});

test.describe('sandbox partner bearer authentication', () => {
  let sandbox: PartnerSandbox;
  let requisitionId: string;
  let serviceRequestId: string;
  test.beforeAll(async () => {
    sandbox = await startPartnerSandbox();
    const first = await sandbox.firstRequisition(partnerA);
    requisitionId = first.id;
    serviceRequestId = first.service_request_ids[0] as string;
  });
  test.afterAll(() => sandbox.close());

  for (const operation of authenticatedOperations) {
    test(`${operation.name}: a fresh token works; none, garbage or a wrong scheme get 401 [PAUTH-BEARER-ACCEPTED, PAUTH-INVALID-TOKEN]`, async () => {
      const path = operation.path(requisitionId, serviceRequestId);
      const json = 'json' in operation ? operation.json : undefined;
      const token = await sandbox.issueToken(partnerA);
      const ok = await sandbox.call(operation.method, path, { token, json });
      expect(ok.status).toBeLessThan(300);
      const lowerCaseScheme = await sandbox.call(operation.method, path, {
        json,
        headers: { authorization: `bearer ${token}` },
      });
      expect(lowerCaseScheme.status).toBeLessThan(300);
      const refusals = [
        await sandbox.call(operation.method, path, { json }),
        await sandbox.call(operation.method, path, { json, token: 'garbage' }),
        await sandbox.call(operation.method, path, { json, token: `${token}x` }),
        await sandbox.call(operation.method, path, { json, headers: { authorization: `Basic ${token}` } }),
        await sandbox.call(operation.method, path, { json, headers: { authorization: 'Bearer' } }),
      ];
      for (const refusal of refusals) {
        expect(refusal.status).toBe(401);
        expect(refusal.headers.get('www-authenticate')).toContain('Bearer');
      }
    });
  }

  test('a token issued with sandbox_expires_in 0 is already expired; a new token then works [PAUTH-EXPIRED-TOKEN]', async () => {
    const expiredAnswer = await sandbox.call('POST', paths.token, {
      json: validTokenRequest(partnerA, { sandbox_expires_in: 0 }),
    });
    expect(expiredAnswer.status).toBe(200);
    expect(expiredAnswer.body).toMatchObject({ expires_in: 0 });
    const expired = (expiredAnswer.body as { access_token: string }).access_token;
    for (const operation of authenticatedOperations) {
      const path = operation.path(requisitionId, serviceRequestId);
      const json = 'json' in operation ? operation.json : undefined;
      const answer = await sandbox.call(operation.method, path, { json, token: expired });
      expect(answer.status, operation.name).toBe(401);
      expect(answer.body).toMatchObject({ error: 'invalid_token' });
    }
    const fresh = await sandbox.issueToken(partnerA);
    expect((await sandbox.call('GET', paths.requisition(requisitionId), { token: fresh })).status).toBe(200);
  });
});

test.describe('sandbox partner token expiry on the sandbox clock', () => {
  test('a token works until expires_in seconds have passed, then gets 401 [PAUTH-EXPIRED-TOKEN]', async () => {
    const clock = movableClock();
    const sandbox = await startPartnerSandbox({ now: clock.now });
    try {
      const { id } = await sandbox.firstRequisition(partnerA);
      const token = await sandbox.issueToken(partnerA);
      clock.advance(3599);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(200);
      clock.advance(1);
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(401);
      const fresh = await sandbox.issueToken(partnerA);
      expect((await sandbox.call('GET', paths.requisition(id), { token: fresh })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

test.describe('sandbox partner rate limiting', () => {
  test('partner requests are limited per partner client', async () => {
    const sandbox = await startPartnerSandbox({ rateLimit: { limit: 3, windowSeconds: 60 } });
    try {
      const a = await sandbox.firstRequisition(partnerA);
      const b = await sandbox.firstRequisition(partnerB);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await sandbox.as(partnerA, 'GET', paths.requisition(a.id))).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await sandbox.as(partnerB, 'GET', paths.requisition(b.id))).status).toBe(200);
      const unauthenticated = await sandbox.call('GET', paths.requisition(a.id));
      expect(unauthenticated.status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});
