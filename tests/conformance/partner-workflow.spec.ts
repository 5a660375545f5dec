// The partner workflow (seed §Partner operations, §States and transitions): status updates of a whole
// requisition (rule 2: all of its service requests) or of one service request (that one only), an update
// with a reason replacing the stored task business status, results uploads, and request bodies that are
// not the operation's JSON body never applied and never a 5xx.
//
// The tests share the requisition their worker session generated with add-test-data, each claiming it for its
// duration (src/worker/partner-data/partner-data.ts workingRequisition): every update sets a task business status no other
// test uses, and a check that compares against the state before an update reads that state first, so no
// check depends on what an earlier one wrote. Non-production only.
import fc from 'fast-check';
import {
  addressedId,
  addressedResource,
  assertExplored,
  buildPath,
  type Exchange,
  firstServiceRequestId,
  invalidArbitrary,
  type Operation,
  operationById,
  PARTNER_WRITE_TAGS,
  type PartnerData,
  realisticReport,
  replayedFromStore,
  requisitionStatusProblems,
  type ServiceRequestData,
  serviceRequestIdsOf,
  siblingChangedProblem,
  statusChanges,
  statusesOf,
  statusNotSetProblem,
  statusUpdateOperations,
  succeeded,
  Tags,
  test,
  uniqueStatus,
  updatedAnswerProblems,
  updateOperations,
  type Verdict,
  validArbitrary,
  verifies,
} from '../../src/worker/suite/index.ts';

// Requirements tests here report besides their own.
const JSON_BODIES = 'OP-JSON-BODIES';
const SERVICE_REQUEST_SCHEMA = 'SCH-SERVICE-REQUEST';
const STATUS_VALUES = 'PTN-STATUS-VALUES';
const NO_5XX_ON_CLIENT_INPUT = 'ERR-NO-5XX-ON-CLIENT-INPUT';

const patchRequisition = operationById('updateRequisitionStatus');
const patchServiceRequest = operationById('updateServiceRequestStatus');
const postResults = operationById('createServiceRequestResults');

const statusUpdate = (op: Operation, id: string, body: unknown) => ({
  method: op.method,
  path: buildPath(op, { id }),
  json: body,
});

// ------------------------------------------------------------------------------------ requisition status

test(
  ...verifies(
    'OP-PATCH-REQUISITION-STATUS',
    'PATCH /v2/partner/requisition/{id}/status answers 204 with no body',
    {
      tag: PARTNER_WRITE_TAGS,
    },
  ),
  async ({ partnerA, partnerData, verdict }) => {
    const { id } = await partnerData.workingRequisition();
    const exchange = await partnerA.send(
      statusUpdate(patchRequisition, id, { task_business_status: uniqueStatus('REQUISITION') }),
    );
    verdict.expectStatus(exchange, patchRequisition.successStatus);
    verdict.expectEmptyBody(exchange);
    verdict.evidence(`requisition ${id} updated, no body`, { exchange });
  },
);

test(
  ...verifies(
    'PTN-PATCH-REQUISITION-ALL',
    'PATCH on a requisition sets the task business status on all of its service requests',
    { tag: PARTNER_WRITE_TAGS },
  ),
  async ({ partnerA, partnerData, verdict }) => {
    const { id, requisition } = await partnerData.workingRequisition();
    const serviceRequestIds = serviceRequestIdsOf(requisition);
    if (serviceRequestIds.length < 2)
      verdict.notVerified(
        `requisition ${id} has ${serviceRequestIds.length} service request(s): "all" needs at least two`,
      );
    const status = uniqueStatus('REQUISITION_ALL');
    const update = await partnerA.send(statusUpdate(patchRequisition, id, { task_business_status: status }));
    verdict.expectSuccess(update, 'the update');

    const problems: string[] = [];
    let last: Exchange = update;
    for (const serviceRequestId of serviceRequestIds) {
      const { exchange, resource: serviceRequest } = await partnerData.partnerRead(
        'service request',
        serviceRequestId,
        'OP-GET-SERVICE-REQUEST',
        { fresh: true },
      );
      last = exchange;
      const problem = statusNotSetProblem(serviceRequestId, serviceRequest.task_business_status, status);
      if (problem) problems.push(problem);
    }
    const { exchange, resource: after } = await partnerData.partnerRead(
      'requisition',
      id,
      'OP-GET-REQUISITION',
      { fresh: true },
    );
    problems.push(...requisitionStatusProblems(statusesOf(after), status));
    verdict.expectNone(problems, problems.length > 0 ? exchange : last);
    verdict.evidence(`${serviceRequestIds.length} service requests of requisition ${id} read back`);
  },
);

// ------------------------------------------------------------------------------------ service request status

test(
  ...verifies(
    'OP-PATCH-SERVICE-REQUEST-STATUS',
    'PATCH /v2/partner/service-request/{id}/status answers 200 with the updated ServiceRequest',
    { also: [SERVICE_REQUEST_SCHEMA, JSON_BODIES, STATUS_VALUES], tag: PARTNER_WRITE_TAGS },
  ),
  async ({ partnerA, partnerData, verdict }) => {
    const { requisition } = await partnerData.workingRequisition();
    const serviceRequestId = firstServiceRequestId(requisition);
    const status = uniqueStatus('SERVICE_REQUEST');
    const exchange = await partnerA.send(
      statusUpdate(patchServiceRequest, serviceRequestId, { task_business_status: status }),
    );
    verdict.expectStatus(exchange, patchServiceRequest.successStatus);
    const jsonBodies = verdict.of(JSON_BODIES);
    jsonBodies.expectJsonContentType(exchange);
    const body = verdict.json<ServiceRequestData>(exchange);
    verdict
      .of(STATUS_VALUES)
      .note(
        `a free-text task_business_status (${status}) was answered ${exchange.status}; the service request's status is ${JSON.stringify(body?.status)}, intent ${JSON.stringify(body?.intent)}`,
      );
    jsonBodies.evidence('the updated service request is application/json', { exchange });
    const schema = verdict.of(SERVICE_REQUEST_SCHEMA);
    schema.expectSchema('service-request', body, exchange);
    schema.evidence('the updated service request is a ServiceRequest', { exchange });
    verdict.expectNone(updatedAnswerProblems(body, serviceRequestId, status), exchange);
    verdict.evidence(`service request ${serviceRequestId} answered with its new status ${status}`, {
      exchange,
    });
  },
);

test(
  ...verifies(
    'PTN-PATCH-SERVICE-REQUEST-ONLY',
    'PATCH on one service request leaves its sibling service requests as they were',
    { tag: PARTNER_WRITE_TAGS },
  ),
  async ({ partnerA, partnerData, verdict }) => {
    const { id, requisition } = await partnerData.workingRequisition();
    const [target, ...siblings] = serviceRequestIdsOf(requisition);
    if (target === undefined || siblings.length === 0)
      verdict.notVerified(`requisition ${id} has fewer than two service requests: no sibling to watch`);
    const readWorking = () =>
      partnerData.partnerRead('requisition', id, 'OP-GET-REQUISITION', { fresh: true });
    // The siblings as they are now: earlier checks of the session may have changed them.
    const before = statusesOf((await readWorking()).resource);
    const update = await partnerA.send(
      statusUpdate(patchServiceRequest, target as string, { task_business_status: uniqueStatus('ONLY') }),
    );
    verdict.expectSuccess(update, 'the update');

    const problems: string[] = [];
    for (const sibling of siblings) {
      const { resource: serviceRequest } = await partnerData.partnerRead(
        'service request',
        sibling,
        'OP-GET-SERVICE-REQUEST',
        { fresh: true },
      );
      const problem = siblingChangedProblem(
        sibling,
        before.get(sibling),
        serviceRequest.task_business_status,
      );
      if (problem) problems.push(problem);
    }
    const { exchange, resource: after } = await readWorking();
    const afterStatuses = statusesOf(after);
    afterStatuses.delete(target as string);
    before.delete(target as string);
    problems.push(...statusChanges(before, afterStatuses).map((change) => `GET requisition: ${change}`));
    verdict.expectNone(problems, exchange);
    verdict.evidence(`${siblings.length} sibling(s) of service request ${target} kept their status`, {
      exchange,
    });
  },
);

for (const op of statusUpdateOperations) {
  const resource = addressedResource(op);
  test(
    ...verifies(
      'PTN-PATCH-REPLACES',
      `${op.method} ${op.path} with a reason is accepted and replaces the task business status`,
      { tag: PARTNER_WRITE_TAGS },
    ),
    async ({ partnerA, partnerData, verdict }) => {
      const working = await partnerData.workingRequisition();
      const { id } = working;
      const addressed = addressedId(op, working);
      const first = uniqueStatus('FIRST');
      const second = uniqueStatus('SECOND');
      for (const [status, reason] of [
        [first, 'sample collection scheduled'],
        [second, 'sample collected at the patient address'],
      ] as const) {
        const exchange = await partnerA.send(
          statusUpdate(op, addressed, { task_business_status: status, reason }),
        );
        verdict.expectSuccess(exchange, 'an update with a reason');
      }
      const { exchange, resource: after } = await partnerData.partnerRead(
        'requisition',
        id,
        'OP-GET-REQUISITION',
        { fresh: true },
      );
      const statuses = statusesOf(after);
      // The service requests the updates reached: the addressed one, or those of the requisition that show either.
      const reached =
        resource === 'requisition'
          ? [...statuses].filter(([, value]) => value === first || value === second).map(([key]) => key)
          : [addressed];
      verdict.expectThat(
        reached.length > 0,
        `no service request carries ${second} after the updates`,
        exchange,
      );
      verdict.expectNone(
        reached
          .filter((key) => statuses.get(key) !== second)
          .map(
            (key) =>
              `service request ${key}: task_business_status ${JSON.stringify(statuses.get(key))} after the second update, expected ${second}`,
          ),
        exchange,
      );
      verdict.evidence(`${reached.length} service request(s) replaced ${first} with ${second}`, { exchange });
    },
  );
}

// ------------------------------------------------------------------------------------ results

test(
  ...verifies(
    'OP-POST-RESULTS',
    'POST /v2/partner/service-request/{id}/results with a DiagnosticReportCreateRequest answers 201 with no body',
    { tag: PARTNER_WRITE_TAGS },
  ),
  async ({ partnerA, partnerData, verdict }) => {
    const { requisition } = await partnerData.workingRequisition();
    const serviceRequestId = firstServiceRequestId(requisition);
    const exchange = await partnerA.send({
      method: postResults.method,
      path: buildPath(postResults, { id: serviceRequestId }),
      json: realisticReport(),
    });
    verdict.expectStatus(exchange, postResults.successStatus);
    verdict.expectEmptyBody(exchange);
    verdict.evidence(`a realistic report for service request ${serviceRequestId} stored, no body`, {
      exchange,
    });
  },
);

test(
  ...verifies(
    'OP-POST-RESULTS',
    'generated valid DiagnosticReportCreateRequests are each answered 201 with no body',
    {
      tag: [Tags.property, ...PARTNER_WRITE_TAGS],
    },
  ),
  async ({ partnerA, partnerData, session, verdict }) => {
    const { requisition } = await partnerData.workingRequisition();
    const serviceRequestIds = serviceRequestIdsOf(requisition);
    let sent = 0;
    const replays = await assertExplored(session.config, {
      check: `${verdict.requirement} generated valid reports`,
      arbitrary: validArbitrary(postResults.requestSchema as string),
      examples: [],
      cases: 20,
      predicate: async (report) => {
        const serviceRequestId = serviceRequestIds[sent++ % serviceRequestIds.length] as string;
        const exchange = await partnerA.send({
          method: postResults.method,
          path: buildPath(postResults, { id: serviceRequestId }),
          json: report,
        });
        verdict.expectStatus(exchange, postResults.successStatus);
        verdict.expectEmptyBody(exchange);
      },
    });
    verdict.evidence(
      `${sent} generated reports stored (fast-check seed ${session.config.propertySeed})${replayedFromStore(replays)}`,
    );
  },
);

// ------------------------------------------------------------------------------------ invalid bodies

interface InvalidBody {
  label: string;
  json?: unknown;
  raw?: string;
  /** What makes it invalid (the rule, where, and the offending value): bodies of one kind are sent once. */
  kind: string;
}

/** Bodies that are not JSON at all, or JSON but not an object. */
const notTheBody: InvalidBody[] = [
  { label: 'not JSON (truncated)', raw: '{"task_business_status": ' },
  { label: 'not JSON (form encoding)', raw: 'task_business_status=COLLECTED&reason=x' },
  { label: 'a JSON array', raw: '[{"task_business_status": "COLLECTED"}]' },
  { label: 'JSON null', raw: 'null' },
  { label: 'a JSON string', raw: '"COLLECTED"' },
  { label: 'a JSON number', raw: '42' },
  { label: 'JSON true', raw: 'true' },
].map((body) => ({ ...body, kind: body.raw }));

/** The value at a JSON pointer of `value` (the pointers of generated invalid cases hold no escapes). */
const valueAt = (value: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], value);

/** Invalid bodies of an operation: generated from its request schema, plus bodies that are not an object. */
function invalidBodies(op: Operation, status: string): fc.Arbitrary<InvalidBody> {
  const generated = invalidArbitrary(op.requestSchema as string).map(
    ({ value, rule, pointer, description }) => {
      // An invalid status update that also sets a (valid) task business status shows when it is applied.
      const json =
        op.requestSchema === 'service-request-status-request' &&
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        !('task_business_status' in value)
          ? { ...value, task_business_status: status }
          : value;
      const label = `${rule} at ${pointer || '/'} (${description})`;
      return { label, json, kind: `${label}: ${JSON.stringify(valueAt(value, pointer))}` };
    },
  );
  return fc.oneof(
    { weight: 4, arbitrary: generated },
    { weight: 1, arbitrary: fc.constantFrom(...notTheBody) },
  );
}

/** What the invalid bodies did: how many were sent, refused, got a 2xx that changed nothing, and those taken. */
interface BodyTally {
  sent: number;
  accepted: number;
  refused: number;
  departures: string[];
}

/**
 * A status update's effect read back: its state before (earlier checks of the session may have changed it),
 * again after each body the service took (2xx), and once at the end, which shows a refused body that was
 * applied all the same. Each change is a departure, named `what`.
 */
async function readBack(partnerData: PartnerData, id: string, readable: boolean, tally: BodyTally) {
  const statuses = async () =>
    statusesOf(
      (await partnerData.partnerRead('requisition', id, 'OP-GET-REQUISITION', { fresh: true })).resource,
    );
  let before = readable ? await statuses() : new Map<string, unknown>();
  return async (what: string) => {
    const after = await statuses();
    tally.departures.push(...statusChanges(before, after).map((change) => `${what} was applied: ${change}`));
    before = after;
  };
}

/** The request of an invalid body: raw text sent as JSON, or a JSON value. */
const invalidRequest = (op: Operation, addressed: string, body: InvalidBody) => ({
  method: op.method,
  path: buildPath(op, { id: addressed }),
  ...(body.raw !== undefined
    ? { body: body.raw, headers: { 'content-type': 'application/json' } }
    : { json: body.json }),
});

/** Every field of these bodies is optional and no 400 is listed: refusing them is the suite's reading. */
function reportBodies(verdict: Verdict, op: Operation, tally: BodyTally, replays: number) {
  const { departures, accepted, sent } = tally;
  if (departures.length > 0)
    verdict.warn(
      `${op.method} ${op.path}: ${departures.length} invalid bodies were taken: ${departures.slice(0, 3).join('; ')}`,
    );
  if (accepted > 0)
    verdict.note(
      `${op.method} ${op.path}: ${accepted} invalid bodies got a 2xx but changed nothing (ignored rather than refused)`,
    );
  verdict.of(NO_5XX_ON_CLIENT_INPUT).evidence(`${op.method} ${op.path}: ${sent} invalid bodies, no 5xx`);
  verdict.evidence(
    `${op.method} ${op.path}: ${sent} invalid bodies sent, each of its own kind${replayedFromStore(replays)}`,
  );
}

for (const op of updateOperations) {
  const readable = op.requestSchema === 'service-request-status-request';
  test(
    ...verifies(
      'PTN-INVALID-BODY',
      `${op.method} ${op.path} never applies an invalid body and never answers it with a 5xx`,
      { also: [NO_5XX_ON_CLIENT_INPUT], tag: [Tags.property, ...PARTNER_WRITE_TAGS] },
    ),
    async ({ partnerA, partnerData, session, verdict }) => {
      const working = await partnerData.workingRequisition();
      const addressed = addressedId(op, working);
      const status = uniqueStatus('INVALID');
      const tally: BodyTally = { sent: 0, accepted: 0, refused: 0, departures: [] };
      const kinds = new Set<string>();
      const changed = await readBack(partnerData, working.id, readable, tally);
      const replays = await assertExplored(session.config, {
        check: `${verdict.requirement} ${op.operationId}`,
        arbitrary: invalidBodies(op, status),
        examples: [],
        cases: 30,
        predicate: async (body) => {
          // A body of a kind already sent differs only in its valid fields: the service was asked that already.
          if (kinds.has(body.kind)) return;
          kinds.add(body.kind);
          const exchange = await partnerA.send(invalidRequest(op, addressed, body));
          verdict.of(NO_5XX_ON_CLIENT_INPUT).expectNo5xx(exchange);
          tally.sent++;
          if (!readable) {
            // A results upload cannot be read back: a 2xx is the service saying it stored the report.
            if (succeeded(exchange)) tally.departures.push(`${body.label} accepted with ${exchange.status}`);
            return;
          }
          if (!succeeded(exchange)) {
            tally.refused++;
            return;
          }
          tally.accepted++;
          await changed(`${body.label} answered ${exchange.status}`);
        },
      });
      if (readable) await changed(`one of the ${tally.refused} refused bodies`);
      reportBodies(verdict, op, tally, replays);
    },
  );
}
