// The sandbox's partner resources: seeded data, the five id-addressed operations, ownership (rule 1), the
// status update rules (rule 2), results upload, request-body validation and signed webhooks.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { expect, test } from '@playwright/test';
import { credentialsPath } from '../../sandbox/credentials.ts';
import { seededRequisitionsPerPartner } from '../../sandbox/partner/runtime.ts';
import { assertValid } from '../../src/contract/validators.ts';
import { startWebhookReceiver } from '../../src/http/webhook-receiver.ts';
import {
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  type RequisitionIds,
  startPartnerSandbox,
} from './sandbox-partner-support.ts';

interface ServiceRequest {
  id: string;
  status: string;
  intent: string;
  code: string;
  task_business_status?: string;
}
interface Requisition {
  id: string;
  updated_at: string;
  service_requests: ServiceRequest[];
  patient: Record<string, unknown>;
  appointments: { type?: string; service_request_ids: string[]; collection_address?: unknown }[];
}

const bundleId = '3f0c8a52-6b1e-4d7a-9c2f-5e8b1a4d6c0f';
const validResults = {
  status: 'final',
  observations: [
    { code: '2345-7', value_numeric: 5.4, unit: 'mmol/L', status: 'final', bundle_id: bundleId },
    { code: '718-7', value_text: 'within range', status: 'final' },
  ],
};

let sandbox: PartnerSandbox;
test.beforeAll(async () => {
  sandbox = await startPartnerSandbox({ seed: 7 });
});
test.afterAll(() => sandbox.close());

const readRequisition = async (id: string) =>
  (await sandbox.as(partnerA, 'GET', paths.requisition(id))).body as Requisition;

/** A requisition of partner A no other test touches (fresh test data). */
const freshRequisition = async (): Promise<RequisitionIds> => {
  const id = await sandbox.addTestData(partnerA);
  const requisition = await readRequisition(id);
  return { id, service_request_ids: requisition.service_requests.map((serviceRequest) => serviceRequest.id) };
};

test.describe('seeded partner data', () => {
  test('each partner owns several schema-valid requisitions with 2–4 service requests [SCH-LAB-REQUISITION, SCH-SERVICE-REQUEST, SCH-PATIENT-CORE, SCH-APPOINTMENT]', async () => {
    const kinds = new Set<string>();
    const types = new Set<string>();
    for (const partner of [partnerA, partnerB]) {
      const requisitions = await sandbox.requisitionsOf(partner);
      expect(requisitions.length).toBeGreaterThanOrEqual(3);
      for (const { id, service_request_ids } of requisitions) {
        const answer = await sandbox.as(partner, 'GET', paths.requisition(id));
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toContain('application/json');
        assertValid('lab-requisition', answer.body);
        const requisition = answer.body as Requisition;
        expect(requisition.service_requests.length).toBeGreaterThanOrEqual(2);
        expect(requisition.service_requests.length).toBeLessThanOrEqual(4);
        expect(requisition.service_requests.map((serviceRequest) => serviceRequest.id)).toEqual(
          service_request_ids,
        );
        for (const serviceRequest of requisition.service_requests) {
          expect(serviceRequest).toMatchObject({ status: 'active', intent: 'order' });
          expect(serviceRequest.code).toMatch(/^\d+-\d$/);
          const single = await sandbox.as(partner, 'GET', paths.serviceRequest(serviceRequest.id));
          expect(single.status).toBe(200);
          assertValid('service-request', single.body);
          expect(single.body).toEqual(serviceRequest);
        }
        const extended = 'birth_date' in requisition.patient;
        if (extended) assertValid('extended-lab-patient', requisition.patient);
        kinds.add(extended ? 'extended' : 'plain');
        expect(requisition.appointments.length).toBeGreaterThan(0);
        for (const appointment of requisition.appointments) {
          types.add(String(appointment.type));
          for (const serviceRequestId of appointment.service_request_ids)
            expect(service_request_ids).toContain(serviceRequestId);
          expect(appointment.type === 'MOBILE').toBe(appointment.collection_address !== undefined);
        }
      }
    }
    expect([...kinds].sort()).toEqual(['extended', 'plain']);
    expect([...types].sort()).toEqual(['IN_PERSON', 'MOBILE', 'VIRTUAL']);
  });

  test("seeded ids are the same in every instance, whatever the seed; partner A's are listed in sandbox.env", async () => {
    const same = await startPartnerSandbox({ seed: 7 });
    const other = await startPartnerSandbox({ seed: 8, variants: new Set(['nulls-for-absent']) });
    try {
      for (const partner of [partnerA, partnerB]) {
        const seeded = (await sandbox.requisitionsOf(partner)).slice(0, seededRequisitionsPerPartner);
        expect(await same.requisitionsOf(partner)).toEqual(seeded);
        expect(await other.requisitionsOf(partner)).toEqual(seeded);
      }
      const listed = parseEnv(readFileSync(credentialsPath, 'utf8')).CONFORMANCE_PARTNER_REQUISITION_IDS;
      const seededOfA = (await other.requisitionsOf(partnerA)).slice(0, seededRequisitionsPerPartner);
      expect(listed?.split(',')).toEqual(seededOfA.map((requisition) => requisition.id));
      const types = [];
      for (const { id } of seededOfA) {
        const requisition = (await other.as(partnerA, 'GET', paths.requisition(id))).body as Requisition;
        expect(requisition.service_requests.length).toBeGreaterThanOrEqual(2);
        const [appointment] = requisition.appointments;
        types.push(appointment?.type);
        expect(appointment?.collection_address !== undefined && appointment.collection_address !== null).toBe(
          appointment?.type === 'MOBILE',
        );
      }
      expect(types).toEqual(
        Array.from({ length: 9 }, (_, index) => ['IN_PERSON', 'MOBILE', 'VIRTUAL'][index % 3]),
      );
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });
});

test.describe('reads', () => {
  test('ids are matched case-insensitively; unknown and malformed ids get 404 [PTN-NOT-FOUND]', async () => {
    const { id, service_request_ids } = await sandbox.firstRequisition(partnerA);
    const serviceRequestId = service_request_ids[0] as string;
    expect((await sandbox.as(partnerA, 'GET', paths.requisition(id.toUpperCase()))).status).toBe(200);
    for (const unknown of [randomUUID(), 'not-a-uuid', '123', serviceRequestId]) {
      expect((await sandbox.as(partnerA, 'GET', paths.requisition(unknown))).status, unknown).toBe(404);
    }
    for (const unknown of [randomUUID(), 'not-a-uuid', id]) {
      for (const path of [
        paths.serviceRequest(unknown),
        paths.serviceRequestStatus(unknown),
        paths.results(unknown),
      ]) {
        const method = path.endsWith('/status') ? 'PATCH' : path.endsWith('/results') ? 'POST' : 'GET';
        const answer = await sandbox.as(partnerA, method, path, method === 'GET' ? {} : { json: {} });
        expect(answer.status, `${method} ${path}`).toBe(404);
      }
    }
    const patch = await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(randomUUID()), { json: {} });
    expect(patch.status).toBe(404);
  });
});

test.describe('ownership (rule 1)', () => {
  test('another partner gets 404 on all five operations and changes nothing [PTN-OWNER-GET-REQUISITION, PTN-OWNER-GET-SERVICE-REQUEST, PTN-OWNER-PATCH-REQUISITION, PTN-OWNER-PATCH-SERVICE-REQUEST, PTN-OWNER-POST-RESULTS, PTN-OWNER-NO-SIDE-EFFECT]', async () => {
    const target = await freshRequisition();
    const serviceRequestId = target.service_request_ids[0] as string;
    const before = await sandbox.snapshot(partnerA, target);
    const attempts = [
      await sandbox.as(partnerB, 'GET', paths.requisition(target.id)),
      await sandbox.as(partnerB, 'GET', paths.serviceRequest(serviceRequestId)),
      await sandbox.as(partnerB, 'PATCH', paths.requisitionStatus(target.id), {
        json: { task_business_status: 'HIJACKED' },
      }),
      await sandbox.as(partnerB, 'PATCH', paths.serviceRequestStatus(serviceRequestId), {
        json: { task_business_status: 'HIJACKED', reason: 'not mine' },
      }),
      await sandbox.as(partnerB, 'POST', paths.results(serviceRequestId), { json: validResults }),
    ];
    expect(attempts.map((attempt) => attempt.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await sandbox.snapshot(partnerA, target)).toEqual(before);
    const foreign = await sandbox.firstRequisition(partnerB);
    expect((await sandbox.as(partnerA, 'GET', paths.requisition(foreign.id))).status).toBe(404);
  });
});

test.describe('status updates', () => {
  test('PATCH requisition answers 204 without a body and sets the status on all its service requests [OP-PATCH-REQUISITION-STATUS, PTN-PATCH-REQUISITION-ALL, PTN-PATCH-REPLACES]', async () => {
    const target = await freshRequisition();
    const before = await readRequisition(target.id);
    const answer = await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(target.id), {
      json: { task_business_status: 'SAMPLE_COLLECTED', reason: 'collected at home' },
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    const after = await readRequisition(target.id);
    expect(after.service_requests.map((serviceRequest) => serviceRequest.task_business_status)).toEqual(
      target.service_request_ids.map(() => 'SAMPLE_COLLECTED'),
    );
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    for (const id of target.service_request_ids) {
      const { status_updates } = await sandbox.activity(partnerA, id);
      expect(status_updates).toEqual([
        expect.objectContaining({ task_business_status: 'SAMPLE_COLLECTED', reason: 'collected at home' }),
      ]);
    }
    const again = await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(target.id), {
      json: { task_business_status: 'IN_LAB' },
    });
    expect(again.status).toBe(204);
    expect(
      (await readRequisition(target.id)).service_requests.every((s) => s.task_business_status === 'IN_LAB'),
    ).toBe(true);
  });

  test('PATCH service request answers 200 with the updated ServiceRequest; siblings keep theirs [OP-PATCH-SERVICE-REQUEST-STATUS, PTN-PATCH-SERVICE-REQUEST-ONLY, PTN-PATCH-REPLACES]', async () => {
    const target = await freshRequisition();
    const [first, ...siblings] = target.service_request_ids as [string, ...string[]];
    const before = await readRequisition(target.id);
    const answer = await sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(first), {
      json: { task_business_status: 'RESULTED', reason: 'lab finished' },
    });
    expect(answer.status).toBe(200);
    assertValid('service-request', answer.body);
    expect(answer.body).toMatchObject({ id: first, task_business_status: 'RESULTED' });
    expect((await sandbox.as(partnerA, 'GET', paths.serviceRequest(first))).body).toEqual(answer.body);
    const after = await readRequisition(target.id);
    for (const sibling of siblings) {
      const find = (requisition: Requisition) => requisition.service_requests.find((s) => s.id === sibling);
      expect(find(after)).toEqual(find(before));
    }
    expect((await sandbox.activity(partnerA, first)).status_updates).toEqual([
      expect.objectContaining({
        task_business_status: 'RESULTED',
        reason: 'lab finished',
        via: 'service-request',
      }),
    ]);
  });

  test('an update without task_business_status keeps the stored status', async () => {
    const target = await freshRequisition();
    const id = target.service_request_ids[0] as string;
    await sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(id), {
      json: { task_business_status: 'BOOKED' },
    });
    const answer = await sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(id), {
      json: { reason: 'note only' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ task_business_status: 'BOOKED' });
  });
});

test.describe('results upload', () => {
  test('POST results answers 201 without a body and stores the diagnostic report [OP-POST-RESULTS, PTN-RESULTS-READBACK]', async () => {
    const target = await freshRequisition();
    const id = target.service_request_ids[1] as string;
    const answer = await sandbox.as(partnerA, 'POST', paths.results(id), { json: validResults });
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    const minimal = await sandbox.as(partnerA, 'POST', paths.results(id), { json: {} });
    expect(minimal.status).toBe(201);
    const { diagnostic_reports } = await sandbox.activity(partnerA, id);
    expect(diagnostic_reports).toEqual([
      expect.objectContaining({ ...validResults, service_request_id: id }),
      expect.objectContaining({ service_request_id: id }),
    ]);
  });
});

test.describe('request bodies', () => {
  const invalidStatusBodies: [string, string][] = [
    ['status a number', '{"task_business_status": 42}'],
    ['status null', '{"task_business_status": null}'],
    ['reason an object', '{"task_business_status": "X", "reason": {"why": 1}}'],
    ['an array', '[{"task_business_status": "X"}]'],
    ['a string', '"X"'],
    ['null', 'null'],
    ['truncated JSON', '{"task_business_status": "X"'],
    ['no body', ''],
  ];
  const invalidResultBodies: [string, string][] = [
    ['status a number', '{"status": 1}'],
    ['observations an object', '{"observations": {"code": "x"}}'],
    ['an observation not an object', '{"observations": ["x"]}'],
    ['value_numeric a string', '{"observations": [{"value_numeric": "5.4"}]}'],
    ['bundle_id not a uuid', '{"observations": [{"bundle_id": "bundle-1"}]}'],
    ['unit a boolean', '{"observations": [{"unit": true}]}'],
    ['an array', '[]'],
    ['truncated JSON', '{"observations": ['],
  ];
  const cases = [
    ...invalidStatusBodies.map(([name, raw]) => ({ name, raw, operation: 'requisition status' as const })),
    ...invalidStatusBodies.map(([name, raw]) => ({
      name,
      raw,
      operation: 'service request status' as const,
    })),
    ...invalidResultBodies.map(([name, raw]) => ({ name, raw, operation: 'results' as const })),
  ];

  test('invalid bodies get 400 and change nothing [PTN-INVALID-BODY, ERR-NO-5XX-ON-CLIENT-INPUT]', async () => {
    const target = await freshRequisition();
    const serviceRequestId = target.service_request_ids[0] as string;
    const before = await sandbox.snapshot(partnerA, target);
    for (const { name, raw, operation } of cases) {
      const [method, path] =
        operation === 'requisition status'
          ? ['PATCH', paths.requisitionStatus(target.id)]
          : operation === 'service request status'
            ? ['PATCH', paths.serviceRequestStatus(serviceRequestId)]
            : ['POST', paths.results(serviceRequestId)];
      const answer = await sandbox.as(partnerA, method, path, { raw });
      expect(answer.status, `${operation}: ${name}`).toBe(400);
    }
    expect(await sandbox.snapshot(partnerA, target)).toEqual(before);
  });

  test('a non-JSON content type is refused with a 4xx and changes nothing', async () => {
    const target = await freshRequisition();
    const before = await sandbox.snapshot(partnerA, target);
    const answer = await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(target.id), {
      raw: 'task_business_status=X',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(await sandbox.snapshot(partnerA, target)).toEqual(before);
  });

  test('unknown members are allowed', async () => {
    const target = await freshRequisition();
    const answer = await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(target.id), {
      json: { task_business_status: 'X', extra: { nested: true } },
    });
    expect(answer.status).toBe(204);
  });
});

test.describe('webhooks', () => {
  test('every data change is sent, signed with HMAC-SHA256 of the raw body and the partner signing secret, to the owner only [WH-SIGNED]', async () => {
    const receiverA = await startWebhookReceiver();
    const receiverB = await startWebhookReceiver();
    const local = await startPartnerSandbox();
    try {
      await local.registerWebhook(partnerA.clientId, receiverA.url);
      await local.registerWebhook(partnerB.clientId, receiverB.url);
      const id = await local.addTestData(partnerA, 'MOBILE');
      const requisition = (await local.as(partnerA, 'GET', paths.requisition(id))).body as Requisition;
      const serviceRequestId = requisition.service_requests[0]?.id as string;
      await local.as(partnerA, 'PATCH', paths.requisitionStatus(id), {
        json: { task_business_status: 'BOOKED' },
      });
      await local.as(partnerA, 'PATCH', paths.serviceRequestStatus(serviceRequestId), {
        json: { task_business_status: 'COLLECTED', reason: 'done' },
      });
      await local.as(partnerA, 'POST', paths.results(serviceRequestId), { json: validResults });
      await local.as(partnerB, 'PATCH', paths.requisitionStatus(id), {
        json: { task_business_status: 'NOPE' },
      });
      await local.as(partnerA, 'PATCH', paths.requisitionStatus(id), { json: { task_business_status: 1 } });
      await expect.poll(() => receiverA.deliveries.length).toBeGreaterThanOrEqual(4);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const received = receiverA.deliveries;
      expect(received).toHaveLength(4);
      expect(receiverB.deliveries).toHaveLength(0);
      const events = received.map(({ headers, body }) => {
        const expected = createHmac('sha256', partnerA.signingSecret).update(body).digest('hex');
        expect(headers['service-signed']).toBe(expected);
        expect(headers['content-type']).toContain('application/json');
        return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      });
      const byType = Object.fromEntries(events.map((event) => [event.type, event]));
      expect(byType['requisition.created']).toMatchObject({
        id,
        requisition_id: id,
        appointment_type: 'MOBILE',
      });
      expect(byType['requisition.status_updated']).toMatchObject({
        id,
        task_business_status: 'BOOKED',
        service_request_ids: requisition.service_requests.map((s) => s.id),
      });
      expect(byType['service_request.status_updated']).toMatchObject({
        id: serviceRequestId,
        requisition_id: id,
        task_business_status: 'COLLECTED',
        reason: 'done',
      });
      expect(byType['service_request.results_created']).toMatchObject({
        id: serviceRequestId,
        requisition_id: id,
      });
      for (const event of events) {
        expect(typeof event.trace_id).toBe('string');
        expect(Number.isNaN(Date.parse(String(event.occurred_at)))).toBe(false);
      }
    } finally {
      await Promise.all([local.close(), receiverA.close(), receiverB.close()]);
    }
  });
});
