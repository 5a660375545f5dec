// Every partner fault of the sandbox (sandbox/faults/partner.ts) changes the behaviour it names: per fault a
// probe that passes against a clean sandbox and fails against a sandbox running only that fault.
import { createHmac, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { SandboxOptions } from '../../sandbox/context.ts';
import type { FaultName } from '../../sandbox/faults/index.ts';
import { partnerFaults } from '../../sandbox/faults/partner.ts';
import {
  type partnerStatusFaults,
  type StatusOperationIdIn,
  statusFaultName,
} from '../../sandbox/faults/status.ts';
import { routeTable } from '../../sandbox/route-table.ts';
import { findRequirement } from '../../src/contract/requirements.ts';
import { assertValid } from '../../src/contract/validators.ts';
import { startWebhookReceiver } from '../../src/http/webhook-receiver.ts';
import { DELIVERY_WAIT_MS } from './safety-nets.ts';
import {
  type Answer,
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  startPartnerSandbox,
  validTokenRequest,
} from './sandbox-partner-support.ts';

type PartnerFault = keyof typeof partnerFaults;

interface Probe {
  options?: Partial<SandboxOptions>;
  /** Throws (a failed expect) when the sandbox violates the requirement. */
  check(sandbox: PartnerSandbox): Promise<void>;
}

interface Requisition {
  service_requests: { id: string; task_business_status?: string }[];
  appointments: { service_request_ids: string[]; collection_address?: unknown }[];
}

const firstOfA = async (sandbox: PartnerSandbox) => {
  const requisition = await sandbox.firstRequisition(partnerA);
  return { ...requisition, serviceRequestId: requisition.service_request_ids[0] as string };
};

/** Partner A updates the status of its first service request. */
const updateStatusOfA = async (sandbox: PartnerSandbox, json: Record<string, unknown>) => {
  const { serviceRequestId } = await firstOfA(sandbox);
  return sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(serviceRequestId), { json });
};

const readOfA = async (sandbox: PartnerSandbox, id: string) =>
  (await sandbox.as(partnerA, 'GET', paths.requisition(id))).body as Requisition;

const refusedToken = (json: Record<string, unknown>): Probe => ({
  async check(sandbox) {
    expect((await sandbox.call('POST', paths.token, { json })).status).toBe(401);
  },
});

const tokenResponse = (assertion: (body: { token_type: string; expires_in: number }) => void): Probe => ({
  async check(sandbox) {
    const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
    assertion(answer.body as { token_type: string; expires_in: number });
  },
});

/** Partner B calls an operation on partner A's data: 404. */
const foreignCall = (
  method: string,
  path: (ids: Awaited<ReturnType<typeof firstOfA>>) => string,
  json?: unknown,
): Probe => ({
  async check(sandbox) {
    const answer = await sandbox.as(partnerB, method, path(await firstOfA(sandbox)), { json });
    expect(answer.status).toBe(404);
  },
});

const requisitionConforms: Probe = {
  async check(sandbox) {
    const { id } = await firstOfA(sandbox);
    assertValid('lab-requisition', (await sandbox.as(partnerA, 'GET', paths.requisition(id))).body);
  },
};

const generated = (appointmentType: string, assertion: (requisition: Requisition) => void): Probe => ({
  async check(sandbox) {
    const id = await sandbox.addTestData(partnerA, appointmentType);
    const answer = await sandbox.as(partnerA, 'GET', paths.requisition(id));
    expect(answer.status).toBe(200);
    assertion(answer.body as Requisition);
  },
});

const invalidStatusBody: Probe = {
  async check(sandbox) {
    const target = await firstOfA(sandbox);
    const before = await sandbox.snapshot(partnerA, target);
    const answer = await updateStatusOfA(sandbox, { task_business_status: 42 });
    expect(answer.status).toBe(400);
    expect(await sandbox.snapshot(partnerA, target)).toEqual(before);
  },
};

// Success statuses (faults/status.ts): per operation of the table, a request that succeeds.
const successCalls: Record<StatusOperationIdIn<'partner'>, (sandbox: PartnerSandbox) => Promise<Answer>> = {
  requestPartnerToken: (sandbox) => sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) }),
  addTestData: (sandbox) => sandbox.as(partnerA, 'POST', paths.testData),
  getRequisition: async (sandbox) =>
    sandbox.as(partnerA, 'GET', paths.requisition((await firstOfA(sandbox)).id)),
  getServiceRequest: async (sandbox) =>
    sandbox.as(partnerA, 'GET', paths.serviceRequest((await firstOfA(sandbox)).serviceRequestId)),
  updateRequisitionStatus: async (sandbox) =>
    sandbox.as(partnerA, 'PATCH', paths.requisitionStatus((await firstOfA(sandbox)).id), {
      json: { task_business_status: 'S' },
    }),
};

const statusProbes = Object.fromEntries(
  (Object.entries(successCalls) as [keyof typeof successCalls, (s: PartnerSandbox) => Promise<Answer>][]).map(
    ([operationId, call]): [string, Probe] => [
      statusFaultName(operationId),
      {
        async check(sandbox) {
          const answer = await call(sandbox);
          expect(answer.status).toBe(routeTable[operationId].success);
          if (answer.status === 204) expect(answer.text).toBe('');
        },
      },
    ],
  ),
) as Record<keyof typeof partnerStatusFaults, Probe>;

const probes: Record<PartnerFault, Probe> = {
  'partner-token-429': {
    async check(sandbox) {
      for (let i = 0; i < 2; i += 1) {
        const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
        expect(answer.status).toBe(200);
      }
    },
  },
  'partner-token-wrong-secret-accepted': refusedToken(
    validTokenRequest(partnerA, { client_secret: 'wrong' }),
  ),
  'partner-token-unknown-client-accepted': refusedToken(
    validTokenRequest(partnerA, { client_id: 'intruder' }),
  ),
  'partner-token-type-not-bearer': tokenResponse((body) =>
    expect(body.token_type.toLowerCase()).toBe('bearer'),
  ),
  'partner-token-expires-in-zero': tokenResponse((body) => expect(body.expires_in).toBeGreaterThan(0)),
  'partner-token-expires-in-overflow': tokenResponse((body) => assertValid('partner-token-response', body)),
  'partner-token-503-in-run': {
    async check(sandbox) {
      for (const partner of [partnerA, partnerA, partnerB, partnerB]) {
        const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partner) });
        expect(answer.status).toBe(200);
      }
    },
  },
  'partner-expired-token-accepted': {
    async check(sandbox) {
      const { id } = await firstOfA(sandbox);
      const token = await sandbox.issueToken(partnerA, { sandbox_expires_in: 0 });
      expect((await sandbox.call('GET', paths.requisition(id), { token })).status).toBe(401);
    },
  },
  'partner-missing-token-accepted': {
    async check(sandbox) {
      const { id } = await firstOfA(sandbox);
      expect((await sandbox.call('GET', paths.requisition(id))).status).toBe(401);
    },
  },
  'partner-garbage-token-accepted': {
    async check(sandbox) {
      const { id } = await firstOfA(sandbox);
      expect((await sandbox.call('GET', paths.requisition(id), { token: 'garbage' })).status).toBe(401);
    },
  },
  'partner-bearer-rejected-on-test-data': {
    async check(sandbox) {
      const answer = await sandbox.as(partnerA, 'POST', paths.testData);
      expect(answer.status, answer.text).not.toBe(401);
      expect(answer.status).toBeLessThan(300);
    },
  },
  'partner-get-requisition-no-ownership': foreignCall('GET', (ids) => paths.requisition(ids.id)),
  'partner-get-service-request-no-ownership': foreignCall('GET', (ids) =>
    paths.serviceRequest(ids.serviceRequestId),
  ),
  'partner-update-requisition-no-ownership': foreignCall('PATCH', (ids) => paths.requisitionStatus(ids.id), {
    task_business_status: 'X',
  }),
  'partner-update-service-request-no-ownership': foreignCall(
    'PATCH',
    (ids) => paths.serviceRequestStatus(ids.serviceRequestId),
    { task_business_status: 'X' },
  ),
  'partner-create-results-no-ownership': foreignCall(
    'POST',
    (ids) => paths.results(ids.serviceRequestId),
    {},
  ),
  'partner-non-owner-update-applied': {
    async check(sandbox) {
      const target = await firstOfA(sandbox);
      const before = await sandbox.snapshot(partnerA, target);
      await sandbox.as(partnerB, 'PATCH', paths.serviceRequestStatus(target.serviceRequestId), {
        json: { task_business_status: 'HIJACKED' },
      });
      expect(await sandbox.snapshot(partnerA, target)).toEqual(before);
    },
  },
  'partner-unknown-id-400': {
    async check(sandbox) {
      expect((await sandbox.as(partnerA, 'GET', paths.serviceRequest(randomUUID()))).status).toBe(404);
    },
  },
  'partner-requisition-status-first-only': {
    async check(sandbox) {
      const { id } = await firstOfA(sandbox);
      await sandbox.as(partnerA, 'PATCH', paths.requisitionStatus(id), {
        json: { task_business_status: 'ALL' },
      });
      const statuses = (await readOfA(sandbox, id)).service_requests.map((s) => s.task_business_status);
      expect(new Set(statuses)).toEqual(new Set(['ALL']));
    },
  },
  'partner-service-request-status-updates-siblings': {
    async check(sandbox) {
      const { id, serviceRequestId } = await firstOfA(sandbox);
      const siblingsOf = (requisition: Requisition) =>
        requisition.service_requests.filter((serviceRequest) => serviceRequest.id !== serviceRequestId);
      const before = siblingsOf(await readOfA(sandbox, id));
      await updateStatusOfA(sandbox, { task_business_status: 'ONE' });
      expect(siblingsOf(await readOfA(sandbox, id))).toEqual(before);
    },
  },
  'partner-status-reason-rejected': {
    async check(sandbox) {
      const answer = await updateStatusOfA(sandbox, {
        task_business_status: 'WITH_REASON',
        reason: 'because',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ task_business_status: 'WITH_REASON' });
    },
  },
  'partner-service-request-status-204': {
    async check(sandbox) {
      const answer = await updateStatusOfA(sandbox, { task_business_status: 'S' });
      expect(answer.status).toBe(200);
      assertValid('service-request', answer.body);
    },
  },
  'partner-results-200-with-body': {
    async check(sandbox) {
      const { serviceRequestId } = await firstOfA(sandbox);
      const answer = await sandbox.as(partnerA, 'POST', paths.results(serviceRequestId), {
        json: { status: 'final' },
      });
      expect(answer.status).toBe(201);
      expect(answer.text).toBe('');
    },
  },
  'partner-results-429-forever': {
    async check(sandbox) {
      const { serviceRequestId } = await firstOfA(sandbox);
      for (let i = 0; i < 2; i += 1) {
        const answer = await sandbox.as(partnerA, 'POST', paths.results(serviceRequestId), {
          json: { status: 'final' },
        });
        expect(answer.status).toBe(201);
      }
    },
  },
  'partner-invalid-body-server-error': invalidStatusBody,
  'partner-requisition-missing-field': requisitionConforms,
  'partner-service-request-missing-code': {
    async check(sandbox) {
      const { serviceRequestId } = await firstOfA(sandbox);
      assertValid(
        'service-request',
        (await sandbox.as(partnerA, 'GET', paths.serviceRequest(serviceRequestId))).body,
      );
    },
  },
  'partner-patient-id-not-uuid': requisitionConforms,
  'partner-appointment-start-time-invalid': requisitionConforms,
  'partner-test-data-in-production': {
    options: { environment: 'production' },
    async check(sandbox) {
      expect((await sandbox.as(partnerA, 'POST', paths.testData)).status).toBe(404);
    },
  },
  'partner-test-data-not-stored': generated('IN_PERSON', (requisition) =>
    assertValid('lab-requisition', requisition),
  ),
  'partner-test-data-virtual-rejected': {
    async check(sandbox) {
      expect((await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=VIRTUAL`)).status).toBe(
        200,
      );
    },
  },
  'partner-test-data-mobile-no-address': generated('MOBILE', (requisition) =>
    expect(requisition.appointments[0]?.collection_address).toBeDefined(),
  ),
  'partner-test-data-virtual-unbooked': generated('VIRTUAL', (requisition) =>
    expect(requisition.appointments.length).toBeGreaterThan(0),
  ),
  'partner-test-data-foreign-service-request-ids': generated('IN_PERSON', (requisition) => {
    const own = requisition.service_requests.map((serviceRequest) => serviceRequest.id);
    for (const id of requisition.appointments[0]?.service_request_ids ?? []) expect(own).toContain(id);
  }),
  'partner-webhook-signature-missing': {
    async check(sandbox) {
      const receiver = await startWebhookReceiver();
      try {
        await sandbox.registerWebhook(partnerA.clientId, receiver.url);
        await sandbox.addTestData(partnerA);
        const [webhook] = await receiver.waitFor(() => true, DELIVERY_WAIT_MS);
        expect(webhook, 'no webhook arrived').toBeDefined();
        const expected = createHmac('sha256', partnerA.signingSecret)
          .update(webhook?.body ?? '')
          .digest('hex');
        expect(webhook?.headers['service-signed']).toBe(expected);
      } finally {
        await receiver.close();
      }
    },
  },
  ...statusProbes,
};

test('every partner fault names a stated, verifiable-or-listed requirement of the catalogue', () => {
  for (const [name, fault] of Object.entries(partnerFaults)) {
    const requirement = findRequirement(fault.requirement);
    expect(requirement, `${name} → ${fault.requirement}`).toBeDefined();
    expect(requirement?.level, name).toBe('MUST');
    expect(fault.area).toBe('partner');
  }
});

/** Clean sandboxes, one per environment and worker, shared by the probes (each probe tolerates earlier ones). */
const cleanSandboxes = new Map<string, Promise<PartnerSandbox>>();
const cleanSandbox = (options: Partial<SandboxOptions> = {}): Promise<PartnerSandbox> => {
  const key = options.environment ?? 'non-production';
  let sandbox = cleanSandboxes.get(key);
  if (sandbox === undefined) {
    sandbox = startPartnerSandbox({ seed: 3, ...options });
    cleanSandboxes.set(key, sandbox);
  }
  return sandbox;
};
test.afterAll(async () => {
  await Promise.all([...cleanSandboxes.values()].map(async (sandbox) => (await sandbox).close()));
  cleanSandboxes.clear();
});

for (const [name, probe] of Object.entries(probes) as [PartnerFault, Probe][]) {
  test(`fault ${name} breaks ${partnerFaults[name].requirement}`, async () => {
    await probe.check(await cleanSandbox(probe.options));
    const faulty = await startPartnerSandbox({
      seed: 3,
      ...probe.options,
      faults: new Set<FaultName>([name]),
    });
    try {
      let failure: unknown;
      await probe.check(faulty).catch((error: unknown) => {
        failure = error;
      });
      expect(failure, `the probe of ${name} passes against the faulty sandbox`).toBeDefined();
    } finally {
      await faulty.close();
    }
  });
}
