// Fuzzing pass over the sandbox (fast-check, bounded): random methods, paths built from every operation's
// template with random parameters, random queries, bodies, content types and credentials. Whatever the
// input, the sandbox never answers 5xx and every error is JSON.
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { credentials, login, start } from './sandbox-client.ts';

const templates = [
  '/developer/v2/cycle/{int}',
  '/developer/v2/cycle',
  '/developer/v2/cycle/{int}/sleep',
  '/developer/v2/cycle/{int}/recovery',
  '/developer/v2/recovery',
  '/developer/v2/activity/sleep/{uuid}',
  '/developer/v2/activity/sleep',
  '/developer/v2/activity/workout/{uuid}',
  '/developer/v2/activity/workout',
  '/developer/v2/user/measurement/body',
  '/developer/v2/user/profile/basic',
  '/developer/v2/user/access',
  '/developer/v1/activity-mapping/{int}',
  '/developer/v2/partner/token',
  '/developer/v2/partner/development/add-test-data',
  '/developer/v2/partner/requisition/{uuid}',
  '/developer/v2/partner/service-request/{uuid}',
  '/developer/v2/partner/requisition/{uuid}/status',
  '/developer/v2/partner/service-request/{uuid}/status',
  '/developer/v2/partner/service-request/{uuid}/results',
  '/oauth/oauth2/auth',
  '/oauth/oauth2/token',
  '/callback',
  '/sandbox/webhooks',
  '/sandbox/users/{int}/events',
  '/sandbox/info',
];

let sandbox: RunningSandbox;
let userToken: string;
let partnerToken: string;
const known = { int: [] as string[], uuid: [] as string[] };

test.beforeAll(async () => {
  sandbox = await start({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
  userToken = (await login(sandbox)).access_token;
  const partner = credentials.partners[0];
  const token = await fetch(`${sandbox.baseUrl}/v2/partner/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    }),
  });
  partnerToken = ((await token.json()) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${userToken}` };
  const cycles = await (await fetch(`${sandbox.baseUrl}/v2/cycle?limit=3`, { headers: auth })).json();
  const sleeps = await (
    await fetch(`${sandbox.baseUrl}/v2/activity/sleep?limit=3`, { headers: auth })
  ).json();
  known.int.push(...cycles.records.map((cycle: { id: number }) => String(cycle.id)), '10129');
  known.uuid.push(...sleeps.records.map((sleep: { id: string }) => sleep.id));
});
test.afterAll(async () => sandbox.close());

const weird = fc.constantFrom(
  '',
  '..',
  '%',
  '%00',
  '%E0%A4%A',
  '-1',
  '1.5',
  '1e3',
  '0x1f',
  '9'.repeat(40),
  'null',
  '%2F',
  '🙂',
);
const segment = (kind: 'int' | 'uuid') =>
  fc.oneof(
    fc.constantFrom(...(kind === 'int' ? known.int : known.uuid)),
    kind === 'int' ? fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) : fc.uuid(),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    weird,
  );

const path = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(...templates).chain((template) => {
      const parts = template.split(/(\{int\}|\{uuid\})/);
      return fc
        .tuple(
          ...parts.map((part) =>
            part === '{int}' ? segment('int') : part === '{uuid}' ? segment('uuid') : fc.constant(part),
          ),
        )
        .map((pieces) => pieces.join(''));
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.string({ maxLength: 12 }).map(encodeURIComponent), weird), { maxLength: 6 })
      .map((parts) => `/developer/${parts.join('/')}`),
  },
);

const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -100, max: 100 }).map(String),
  fc
    .date({ min: new Date('2024-01-01'), max: new Date('2027-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  weird,
);
const query = fc
  .dictionary(
    fc.constantFrom(
      'limit',
      'start',
      'end',
      'nextToken',
      'appointmentType',
      'client_id',
      'redirect_uri',
      'state',
      'scope',
      'owner',
      'x',
    ),
    value,
    { maxKeys: 4 },
  )
  .map((entries) => new URLSearchParams(entries).toString());

const body = fc.option(
  fc.oneof(
    fc.json({ maxDepth: 3 }).map((text) => ({ type: 'application/json', text })),
    fc.string({ maxLength: 200 }).map((text) => ({ type: 'application/json', text })),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })).map((entries) => ({
      type: 'application/x-www-form-urlencoded',
      text: new URLSearchParams(entries).toString(),
    })),
    fc
      .tuple(
        fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data'),
        fc.string({ maxLength: 100 }),
      )
      .map(([type, text]) => ({ type, text })),
  ),
  { nil: undefined },
);

const authorization = fc.constantFrom<(() => string | undefined)[]>(
  () => undefined,
  () => `Bearer ${userToken}`,
  () => `Bearer ${partnerToken}`,
  () => 'Bearer garbage',
  () => 'Basic Zm9vOmJhcg==',
);

test('no input makes the sandbox answer 5xx, and errors are JSON or HTML pages', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
      path,
      query,
      body,
      authorization,
      async (method, url, search, payload, auth) => {
        const headers: Record<string, string> = {};
        const token = auth();
        if (token) headers.authorization = token;
        const withBody = payload !== undefined && !['GET', 'HEAD'].includes(method);
        if (withBody) headers['content-type'] = payload.type;
        const response = await fetch(`${sandbox.authUrl}${url}${search ? `?${search}` : ''}`, {
          method,
          headers,
          redirect: 'manual',
          ...(withBody ? { body: payload.text } : {}),
        });
        const text = await response.text();
        expect(response.status, `${method} ${url}?${search} -> ${text.slice(0, 200)}`).toBeLessThan(500);
        if (response.status >= 400 && method !== 'HEAD') {
          expect(response.headers.get('content-type') ?? '').toMatch(/application\/json|text\/html/);
        }
      },
    ),
    { numRuns: 300 },
  );
  // the sandbox still works afterwards (the fuzzer may have revoked the first token)
  const fresh = (await login(sandbox)).access_token;
  expect(
    (await fetch(`${sandbox.baseUrl}/v2/cycle`, { headers: { authorization: `Bearer ${fresh}` } })).status,
  ).toBe(200);
});
