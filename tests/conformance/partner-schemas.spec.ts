// Partner responses against the seed's resource schemas: LabRequisition, ServiceRequest, PatientCore (both
// variants) and Appointment (with its lab variant), one test per requirement; each schema violation is
// attributed to the part of the requisition it lies in (the x-requirement of the schema declaring that
// part, src/contract/rule-requirements.ts). Plus the success answers of the two partner reads.
//
// Requisitions checked: on a non-production target one generated per appointment type with add-test-data
// (and, on the sandbox, its seeded requisitions, which include plain Patient records that generated data
// lacks); on production the ids of CONFORMANCE_PARTNER_REQUISITION_IDS, or the tests are skipped. Each is
// read once per worker session and judged by every check here (src/worker/partner-data/partner-data.ts).
import {
  APPOINTMENT_TYPES,
  appointmentsOf,
  DEFAULT_APPOINTMENT_TYPE,
  type Exchange,
  firstServiceRequestId,
  getRequisitionOperation,
  getServiceRequestOperation,
  type PartnerData,
  type RequisitionData,
  requisitionViolations,
  serviceRequestsOf,
  serviceRequestViolations,
  Tags,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

/** Generating the requisitions writes on a non-production target; on production these tests only read. */
const TAGS = [Tags.partner, Tags.write];

/** The two reads also answer for their bodies being JSON. */
const JSON_BODIES = 'OP-JSON-BODIES';

/** The sandbox lists a partner's seeded requisitions first; a few of them are enough. */
const SANDBOX_SEEDED = 6;

interface Loaded {
  id: string;
  exchange: Exchange;
  requisition: RequisitionData;
}

/** The requisitions to check, as the worker session first read them (each read once, for every check). */
async function loadRequisitions(partnerData: PartnerData, sandboxAdmin: boolean): Promise<Loaded[]> {
  const ids = await partnerData.requisitionIds(APPOINTMENT_TYPES);
  if (sandboxAdmin) {
    // Sandbox administration (the 'sandbox-admin' capability): the seeded data, with both PatientCore variants.
    const seeded = await partnerData.seededRequisitionIds();
    ids.push(...seeded.slice(0, SANDBOX_SEEDED));
  }
  const loaded: Loaded[] = [];
  for (const id of new Set(ids)) {
    const { exchange, resource: requisition } = await partnerData.partnerRead(
      'requisition',
      id,
      'OP-GET-REQUISITION',
    );
    loaded.push({ id, exchange, requisition });
  }
  return loaded;
}

/** A JSON value's type, as a schema tells them apart. */
const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/**
 * One service request of each kind the requisitions hold (its fields and their JSON types), to read alone:
 * what a schema check finds depends on those, so reading every one alone would repeat the same checks.
 */
function oneOfEachKind(loaded: Loaded[]): string[] {
  const byKind = new Map<string, string>();
  for (const { requisition } of loaded) {
    for (const serviceRequest of serviceRequestsOf(requisition)) {
      const kind = Object.entries(serviceRequest)
        .map(([field, value]) => `${field}:${jsonType(value)}`)
        .sort()
        .join(',');
      if (typeof serviceRequest.id === 'string' && !byKind.has(kind)) byKind.set(kind, serviceRequest.id);
    }
  }
  return [...byKind.values()];
}

test(
  ...verifies('SCH-LAB-REQUISITION', 'partner requisitions carry every LabRequisition field', { tag: TAGS }),
  async ({ config, partnerData, verdict }) => {
    const loaded = await loadRequisitions(partnerData, config.capabilities.has('sandbox-admin'));
    const { problems, exchange } = requisitionViolations(verdict.requirement, loaded);
    verdict.expectNone(problems, exchange);
    verdict.evidence(`${loaded.length} requisitions validated`, { count: loaded.length });
  },
);

test(
  ...verifies(
    'SCH-SERVICE-REQUEST',
    'service requests, inside requisitions and read alone, are ServiceRequests',
    {
      tag: TAGS,
    },
  ),
  async ({ config, partnerData, verdict }) => {
    const loaded = await loadRequisitions(partnerData, config.capabilities.has('sandbox-admin'));
    const { problems, exchange } = requisitionViolations(verdict.requirement, loaded);
    let alone: Exchange | undefined;
    const kinds = oneOfEachKind(loaded);
    for (const id of kinds) {
      const read = await partnerData.partnerRead('service request', id, 'OP-GET-SERVICE-REQUEST');
      const violations = serviceRequestViolations(id, read.resource);
      if (violations.length > 0) alone ??= read.exchange;
      problems.push(...violations);
    }
    verdict.expectNone(problems, exchange ?? alone);
    verdict.evidence(
      `the service requests of ${loaded.length} requisitions, and one of each of their ${kinds.length} kinds read alone`,
    );
  },
);

test(
  ...verifies('SCH-PATIENT-CORE', 'requisition patients are a Patient or an extended lab patient', {
    tag: TAGS,
  }),
  async ({ config, partnerData, verdict }) => {
    const loaded = await loadRequisitions(partnerData, config.capabilities.has('sandbox-admin'));
    const { problems, exchange } = requisitionViolations(verdict.requirement, loaded);
    const variants = new Map<string, number>();
    for (const { requisition } of loaded) {
      const patient = requisition.patient;
      const extended =
        typeof patient === 'object' &&
        patient !== null &&
        ['first_name', 'last_name', 'birth_date'].some((field) => field in patient);
      const variant = extended ? 'extended lab patient' : 'patient';
      variants.set(variant, (variants.get(variant) ?? 0) + 1);
    }
    const seen = [...variants].map(([variant, count]) => `${variant} ×${count}`).join(', ');
    verdict.note(`PatientCore variants seen across ${loaded.length} requisitions: ${seen}`);
    verdict.expectNone(problems, exchange);
    verdict.evidence(`${loaded.length} patients validated: ${seen}`, { count: loaded.length });
    if (config.target === 'sandbox' && variants.size < 2) {
      // Not a verdict on the target: the check itself did not reach both variants.
      throw new Error(
        `suite coverage: the sandbox's requisitions showed only ${seen}; both variants are expected`,
      );
    }
  },
);

test(
  ...verifies('SCH-APPOINTMENT', 'requisition appointments are Appointments of the lab variant', {
    tag: TAGS,
  }),
  async ({ config, partnerData, verdict }) => {
    const loaded = await loadRequisitions(partnerData, config.capabilities.has('sandbox-admin'));
    const { problems, exchange } = requisitionViolations(verdict.requirement, loaded);
    const appointments = loaded.flatMap(({ requisition }) => appointmentsOf(requisition));
    const withSlot = appointments.filter((appointment) => 'slot_id' in appointment).length;
    const withAddress = appointments.filter((appointment) => 'collection_address' in appointment).length;
    verdict.note(
      `${appointments.length} appointments checked: ${withSlot} with slot_id, ${withAddress} with collection_address (lab variant fields)`,
    );
    verdict.expectNone(problems, exchange);
    if (appointments.length === 0)
      verdict.notVerified(`the ${loaded.length} requisitions hold no appointment`);
    verdict.evidence(`${appointments.length} appointments of ${loaded.length} requisitions validated`);
  },
);

// ------------------------------------------------------------------------------------ the two reads

test(
  ...verifies(
    'OP-GET-REQUISITION',
    'GET /v2/partner/requisition/{id} answers 200 with a JSON LabRequisition to its owner',
    { also: [JSON_BODIES], tag: TAGS },
  ),
  async ({ partnerData, verdict }) => {
    const [id] = await partnerData.requisitionIds([DEFAULT_APPOINTMENT_TYPE]);
    const exchange = await partnerData.observedRead('requisition', id as string);
    verdict.expectStatus(exchange, getRequisitionOperation.successStatus);
    const jsonBodies = verdict.of(JSON_BODIES);
    jsonBodies.expectJsonContentType(exchange);
    jsonBodies.evidence('the requisition is application/json', { exchange });
    const body = verdict.json<RequisitionData>(exchange);
    verdict.expectThat(
      body?.id === id,
      `the answer is requisition ${JSON.stringify(body?.id)}, not ${id}`,
      exchange,
    );
    verdict.evidence(`requisition ${id} served to its owner`, { exchange });
  },
);

test(
  ...verifies(
    'OP-GET-SERVICE-REQUEST',
    'GET /v2/partner/service-request/{id} answers 200 with a JSON ServiceRequest to its owner',
    { also: [JSON_BODIES], tag: TAGS },
  ),
  async ({ partnerData, verdict }) => {
    const [id] = await partnerData.requisitionIds([DEFAULT_APPOINTMENT_TYPE]);
    const { resource: requisition } = await partnerData.partnerRead(
      'requisition',
      id as string,
      'OP-GET-REQUISITION',
    );
    const serviceRequestId = firstServiceRequestId(requisition);
    const exchange = await partnerData.observedRead('service request', serviceRequestId);
    verdict.expectStatus(exchange, getServiceRequestOperation.successStatus);
    const jsonBodies = verdict.of(JSON_BODIES);
    jsonBodies.expectJsonContentType(exchange);
    jsonBodies.evidence('the service request is application/json', { exchange });
    const body = verdict.json<{ id?: unknown }>(exchange);
    verdict.expectThat(
      body?.id === serviceRequestId,
      `the answer is service request ${JSON.stringify(body?.id)}, not ${serviceRequestId}`,
      exchange,
    );
    verdict.evidence(`service request ${serviceRequestId} served to its owner`, { exchange });
  },
);
