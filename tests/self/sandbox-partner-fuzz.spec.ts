// Bounded fast-check fuzzing of the sandbox's partner operations: generated callers, ids and bodies (valid,
// one-rule-invalid, arbitrary JSON, arbitrary text). Each answer must be the one the rules give (401, 400,
// 404 or the operation's success status; never 5xx), and a refused request must change nothing.
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { invalidArbitrary, validArbitrary } from '../../src/contract/arbitraries.ts';
import { validate } from '../../src/contract/validators.ts';
import {
  type CallOptions,
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  type RequisitionIds,
  startPartnerSandbox,
} from './sandbox-partner-support.ts';

const operations = {
  getRequisition: { method: 'GET', path: paths.requisition, kind: 'requisition', success: 200 },
  getServiceRequest: { method: 'GET', path: paths.serviceRequest, kind: 'service-request', success: 200 },
  updateRequisitionStatus: {
    method: 'PATCH',
    path: paths.requisitionStatus,
    kind: 'requisition',
    success: 204,
    body: 'service-request-status-request',
  },
  updateServiceRequestStatus: {
    method: 'PATCH',
    path: paths.serviceRequestStatus,
    kind: 'service-request',
    success: 200,
    body: 'service-request-status-request',
  },
  createServiceRequestResults: {
    method: 'POST',
    path: paths.results,
    kind: 'service-request',
    success: 201,
    body: 'diagnostic-report-create-request',
  },
} as const;
type OperationName = keyof typeof operations;
type Caller = 'A' | 'B' | 'none' | 'garbage';

/** A request body as sent (raw text; undefined sends none) and whether the contract schema accepts it. */
interface GeneratedBody {
  raw: string | undefined;
  valid: boolean;
}

const bodyArbitrary = (schema: string): fc.Arbitrary<GeneratedBody> => {
  const classify = (raw: string | undefined): GeneratedBody => {
    if (raw === undefined || raw === '') return { raw, valid: false };
    try {
      return { raw, valid: validate(schema, JSON.parse(raw)).valid };
    } catch {
      return { raw, valid: false };
    }
  };
  return fc
    .oneof(
      validArbitrary(schema).map((value) => JSON.stringify(value)),
      invalidArbitrary(schema).map((invalid) => JSON.stringify(invalid.value)),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string(),
      fc.constant(undefined),
    )
    .map(classify);
};

let sandbox: PartnerSandbox;
let owned: { A: RequisitionIds[]; B: RequisitionIds[] };
let tokens: { A: string; B: string };

test.beforeAll(async () => {
  sandbox = await startPartnerSandbox({ seed: 5, rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
  owned = {
    A: (await sandbox.requisitionsOf(partnerA)).slice(0, 2),
    B: (await sandbox.requisitionsOf(partnerB)).slice(0, 1),
  };
  tokens = { A: await sandbox.token(partnerA), B: await sandbox.token(partnerB) };
});
test.afterAll(() => sandbox.close());

const ownerOf = (id: string, kind: 'requisition' | 'service-request'): 'A' | 'B' | undefined => {
  for (const partner of ['A', 'B'] as const) {
    for (const requisition of owned[partner]) {
      const ids = kind === 'requisition' ? [requisition.id] : requisition.service_request_ids;
      if (ids.includes(id)) return partner;
    }
  }
  return undefined;
};

const snapshotAll = async () => ({
  A: await Promise.all(owned.A.map((requisition) => sandbox.snapshot(partnerA, requisition))),
  B: await Promise.all(owned.B.map((requisition) => sandbox.snapshot(partnerB, requisition))),
});

test('partner operations answer by the rules and refused requests change nothing (fast-check, bounded)', async () => {
  const knownIds = [...owned.A, ...owned.B].flatMap((requisition) => [
    requisition.id,
    ...requisition.service_request_ids,
  ]);
  const idArbitrary = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...knownIds) },
    { weight: 1, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc
        .string({ minLength: 1, maxLength: 40 })
        .filter((text) => text !== '.' && text !== '..')
        .map(encodeURIComponent),
    },
  );
  const caseArbitrary = fc
    .record({
      operation: fc.constantFrom(...(Object.keys(operations) as OperationName[])),
      caller: fc.constantFrom<Caller>('A', 'A', 'B', 'none', 'garbage'),
      id: idArbitrary,
    })
    .chain((base) => {
      const operation = operations[base.operation];
      const body =
        'body' in operation
          ? bodyArbitrary(operation.body)
          : fc.constant<GeneratedBody | undefined>(undefined);
      return body.map((generated) => ({ ...base, body: generated }));
    });

  await fc.assert(
    fc.asyncProperty(caseArbitrary, async ({ operation: name, caller, id, body }) => {
      const operation = operations[name];
      const options: CallOptions = {};
      if (caller === 'A' || caller === 'B') options.token = tokens[caller];
      if (caller === 'garbage') options.token = 'not-a-token';
      if (body?.raw !== undefined) options.raw = body.raw;
      const before = await snapshotAll();
      const answer = await sandbox.call(operation.method, operation.path(id), options);
      const owner = ownerOf(decodeURIComponent(id).toLowerCase(), operation.kind);
      const expected =
        caller === 'none' || caller === 'garbage'
          ? 401
          : body !== undefined && !body.valid
            ? 400
            : owner !== caller
              ? 404
              : operation.success;
      expect(answer.status, `${operation.method} ${operation.path(id)} as ${caller}: ${body?.raw}`).toBe(
        expected,
      );
      if (answer.status >= 300 || operation.method === 'GET') expect(await snapshotAll()).toEqual(before);
    }),
    { numRuns: 150 },
  );
});

test('the token endpoint never answers 5xx and issues tokens only for valid credentials (fast-check, bounded)', async () => {
  const field = fc.oneof(
    fc.constantFrom(partnerA.clientId, partnerA.clientSecret, partnerB.clientSecret),
    fc.jsonValue(),
  );
  const bodyArb = fc.oneof(
    fc.record(
      { client_id: field, client_secret: field, grant_type: field, scope: field },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  await fc.assert(
    fc.asyncProperty(bodyArb, async (json) => {
      const answer = await sandbox.call('POST', paths.token, { raw: JSON.stringify(json) ?? '' });
      expect([200, 400, 401]).toContain(answer.status);
      const record = json as Record<string, unknown> | null;
      const credentialsMatch =
        typeof record === 'object' &&
        record !== null &&
        !Array.isArray(record) &&
        record.client_id === partnerA.clientId &&
        record.client_secret === partnerA.clientSecret;
      if (answer.status === 200) expect(credentialsMatch).toBe(true);
    }),
    { numRuns: 150 },
  );
});
