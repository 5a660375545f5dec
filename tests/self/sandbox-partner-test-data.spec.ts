// POST /v2/partner/development/add-test-data in the sandbox: generated requisitions (rule 3), appointment
// types, determinism, and 404 in production.
import { expect, test } from '@playwright/test';
import { assertValid } from '../../src/contract/validators.ts';
import {
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  startPartnerSandbox,
} from './sandbox-partner-support.ts';

interface Requisition {
  id: string;
  service_requests: { id: string }[];
  patient: Record<string, unknown>;
  appointments: {
    type?: string;
    start_time: string;
    service_request_ids: string[];
    collection_address?: Record<string, unknown>;
  }[];
}

test.describe('test data in non-production', () => {
  let sandbox: PartnerSandbox;
  test.beforeAll(async () => {
    sandbox = await startPartnerSandbox();
  });
  test.afterAll(() => sandbox.close());

  for (const appointmentType of [undefined, 'IN_PERSON', 'MOBILE', 'VIRTUAL']) {
    test(`appointmentType ${appointmentType ?? '(default)'} generates a requisition with a booked appointment [TD-GENERATES-REQUISITION, TD-BOOKED-APPOINTMENT, TD-APPOINTMENT-TYPES, TD-MOBILE-ADDRESS, OP-ADD-TEST-DATA]`, async () => {
      const query = appointmentType === undefined ? '' : `?appointmentType=${appointmentType}`;
      const answer = await sandbox.as(partnerA, 'POST', `${paths.testData}${query}`);
      expect(answer.status).toBe(200);
      assertValid('test-data-response', answer.body);
      const { requisition_id } = answer.body as { requisition_id: string };
      const read = await sandbox.as(partnerA, 'GET', paths.requisition(requisition_id));
      expect(read.status).toBe(200);
      assertValid('lab-requisition', read.body);
      const requisition = read.body as Requisition;
      expect(requisition.id).toBe(requisition_id);
      assertValid('extended-lab-patient', requisition.patient);
      expect(requisition.appointments).toHaveLength(1);
      const [appointment] = requisition.appointments;
      expect(appointment?.type).toBe(appointmentType ?? 'IN_PERSON');
      expect(appointment?.service_request_ids).toEqual(requisition.service_requests.map((s) => s.id));
      if (appointmentType === 'MOBILE') {
        expect(appointment?.collection_address).toEqual(
          expect.objectContaining({
            building: expect.any(String),
            area: expect.any(String),
            emirate: expect.any(String),
          }),
        );
      } else {
        expect(appointment?.collection_address).toBeUndefined();
      }
      expect((await sandbox.as(partnerB, 'GET', paths.requisition(requisition_id))).status).toBe(404);
    });
  }

  test('an unknown appointmentType gets 400 and generates nothing', async () => {
    const before = await sandbox.requisitionsOf(partnerA);
    for (const value of ['HOME', 'mobile', '', '1']) {
      const answer = await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=${value}`);
      expect(answer.status, value).toBe(400);
    }
    expect(await sandbox.requisitionsOf(partnerA)).toEqual(before);
  });

  test('a JSON content type with an empty or JSON object body is accepted (the operation has no body)', async () => {
    const empty = await sandbox.as(partnerA, 'POST', paths.testData, { raw: '' });
    expect(empty.status).toBe(200);
    const object = await sandbox.as(partnerA, 'POST', paths.testData, { json: {} });
    expect(object.status).toBe(200);
  });
});

test.describe('test data determinism', () => {
  test('the n-th generated requisition has the same ids in every instance with the same seed', async () => {
    const ids = async () => {
      const sandbox = await startPartnerSandbox({ seed: 11 });
      try {
        const generated: unknown[] = [];
        for (const type of ['MOBILE', 'VIRTUAL']) {
          const id = await sandbox.addTestData(partnerA, type);
          const requisition = (await sandbox.as(partnerA, 'GET', paths.requisition(id))).body as Requisition;
          generated.push([id, requisition.service_requests.map((s) => s.id), requisition.patient.id]);
        }
        return generated;
      } finally {
        await sandbox.close();
      }
    };
    expect(await ids()).toEqual(await ids());
  });
});

test.describe('test data in production', () => {
  test('add-test-data answers 404, with or without a token; the other partner operations work [TD-PRODUCTION-404]', async () => {
    const sandbox = await startPartnerSandbox({ environment: 'production' });
    try {
      for (const query of ['', '?appointmentType=MOBILE', '?appointmentType=BAD']) {
        expect((await sandbox.as(partnerA, 'POST', `${paths.testData}${query}`)).status).toBe(404);
        expect((await sandbox.call('POST', `${paths.testData}${query}`)).status).toBe(404);
      }
      expect((await sandbox.as(partnerA, 'GET', paths.testData)).status).toBe(404);
      const { id } = await sandbox.firstRequisition(partnerA);
      expect((await sandbox.as(partnerA, 'GET', paths.requisition(id))).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
