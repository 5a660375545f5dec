// The partner suite's shared helpers: the partner operations of the catalogue, the requisitions to work on
// (generated with add-test-data on a non-production target; on production, the ids configured in
// CONFORMANCE_PARTNER_REQUISITION_IDS), what the checks observe once per worker session and judge many times
// (generated test data, first reads, token answers), fresh read-backs of task business statuses and valid
// request bodies. The sandbox-only administration calls (seeded requisitions, webhook receivers) are in
// sandbox-admin.ts.
import { randomUUID } from 'node:crypto';
import type { PartnerClient } from '../auth/partner-client.ts';
import type { SuiteConfig } from '../config/suite-config.ts';
import type { Operation } from '../contract/operation-model.ts';
import { operationById, operations } from '../contract/operations.ts';
import { buildPath } from '../contract/request-paths.ts';
import type { ApiClient } from '../http/api-client.ts';
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { claimRequisition } from './requisition-claims.ts';
import { type Codec, exchangeCodec, jsonCodec } from './run-memo.ts';
import { extendTestTimeout } from './run-waits.ts';
import { sandboxRequisitionIds } from './sandbox-admin.ts';
import type { TargetSession } from './target-session.ts';
import { sharedRead } from './unanswered.ts';
import { ConformanceFailure, expectStatus, expectThat, note as noteFor, notVerified } from './verdicts.ts';

// ------------------------------------------------------------------------------------ the catalogue

/** Partner operations that take the partner bearer token (everything of the area but the token request). */
export const partnerOperations: readonly Operation[] = operations.filter(
  (op) => op.area === 'partner' && op.security.kind === 'partner',
);

/** The id-addressed partner operations (rule 1 of the partner operations: owner or 404). */
export const idAddressedOperations: readonly Operation[] = partnerOperations.filter(
  (op) => op.pathParams.length > 0,
);

/** The id-addressed operations that take a request body (status updates, results upload). */
export const updateOperations: readonly Operation[] = idAddressedOperations.filter(
  (op) => op.requestSchema !== null,
);

/** The status updates: their effect is readable (task_business_status), unlike a results upload's. */
export const statusUpdateOperations: readonly Operation[] = updateOperations.filter(
  (op) => op.requestSchema === 'service-request-status-request',
);

export const addTestDataOperation: Operation = operationById('addTestData');
export const getRequisitionOperation: Operation = operationById('getRequisition');
export const getServiceRequestOperation: Operation = operationById('getServiceRequest');

export type AddressedResource = 'requisition' | 'service-request';

/** What an id-addressed operation's `{id}` names, read from its path. */
export function addressedResource(op: Operation): AddressedResource {
  if (/\/requisition\/\{id\}/.test(op.path)) return 'requisition';
  if (/\/service-request\/\{id\}/.test(op.path)) return 'service-request';
  throw new Error(`${op.operationId}: ${op.path} addresses neither a requisition nor a service request`);
}

/** The id `op` addresses in a requisition: the requisition's own, or its first service request's. */
export function addressedId(op: Operation, owned: { id: string; requisition: RequisitionData }): string {
  if (addressedResource(op) === 'requisition') return owned.id;
  return firstServiceRequestId(owned.requisition);
}

/** add-test-data's appointmentType values and default, from the catalogue. */
const appointmentTypeParam = addTestDataOperation.queryParams.find(
  (param) => param.name === 'appointmentType',
);
export const APPOINTMENT_TYPES: readonly string[] = appointmentTypeParam?.schema.enum ?? [];
export const DEFAULT_APPOINTMENT_TYPE = String(appointmentTypeParam?.schema.default ?? 'IN_PERSON');

// ------------------------------------------------------------------------------------ resources

export interface ServiceRequestData {
  [field: string]: unknown;
  id?: unknown;
  task_business_status?: unknown;
}

export interface AppointmentData {
  [field: string]: unknown;
  service_request_ids?: unknown;
  collection_address?: unknown;
  type?: unknown;
}

export interface RequisitionData {
  [field: string]: unknown;
  id?: unknown;
  service_requests?: unknown;
  patient?: unknown;
  appointments?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function serviceRequestsOf(requisition: RequisitionData): ServiceRequestData[] {
  return Array.isArray(requisition.service_requests) ? requisition.service_requests.filter(isObject) : [];
}

export function appointmentsOf(requisition: RequisitionData): AppointmentData[] {
  return Array.isArray(requisition.appointments) ? requisition.appointments.filter(isObject) : [];
}

export function serviceRequestIdsOf(requisition: RequisitionData): string[] {
  return serviceRequestsOf(requisition)
    .map((serviceRequest) => serviceRequest.id)
    .filter((id): id is string => typeof id === 'string');
}

/** The requisition's first service request id; the calling check is not verified when it has none. */
export function firstServiceRequestId(requisition: RequisitionData): string {
  const [id] = serviceRequestIdsOf(requisition);
  if (id === undefined)
    notVerified(`requisition ${String(requisition.id)} has no service request to work on`);
  return id;
}

/** Task business status of each service request of a requisition, by id (undefined: none set). */
export function statusesOf(requisition: RequisitionData): Map<string, unknown> {
  return new Map(
    serviceRequestsOf(requisition)
      .filter((serviceRequest) => typeof serviceRequest.id === 'string')
      .map((serviceRequest) => [serviceRequest.id as string, serviceRequest.task_business_status]),
  );
}

/** Differences between two status maps (same ids expected), as readable lines. */
export function statusChanges(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids]
    .filter((id) => JSON.stringify(before.get(id)) !== JSON.stringify(after.get(id)))
    .map(
      (id) =>
        `service request ${id}: task_business_status ${JSON.stringify(before.get(id)) ?? 'absent'} → ${JSON.stringify(after.get(id)) ?? 'absent'}`,
    );
}

/** A task business status no other test uses (the seed leaves its values open: PTN-STATUS-VALUES). */
export const uniqueStatus = (label: string): string => `CONFORMANCE_${label}_${randomUUID().slice(0, 8)}`;

/** An id no partner owns: a fresh random uuid. */
export const unknownId = (): string => randomUUID();

/** A realistic DiagnosticReportCreateRequest: two observations of the sandbox's kind of lab tests. */
export function realisticReport(): Record<string, unknown> {
  const bundle = randomUUID();
  return {
    status: 'final',
    observations: [
      { code: '2345-7', value_numeric: 5.4, unit: 'mmol/L', status: 'final', bundle_id: bundle },
      { code: '718-7', value_text: 'within reference range', status: 'final', bundle_id: bundle },
    ],
  };
}

/** A valid body for an operation that takes one; undefined for one that takes none. */
export function validBodyFor(op: Operation, status = uniqueStatus('UPDATE')): unknown {
  switch (op.requestSchema) {
    case null:
      return undefined;
    case 'service-request-status-request':
      return { task_business_status: status };
    case 'diagnostic-report-create-request':
      return realisticReport();
    default:
      throw new Error(`${op.operationId}: no valid body known for ${op.requestSchema}`);
  }
}

/** The request of an id-addressed operation on `id`, with a valid body. */
export function requestFor(op: Operation, id: string, body: unknown = validBodyFor(op)) {
  return { method: op.method, path: buildPath(op, { id }), json: body };
}

// ------------------------------------------------------------------------------------ reads

/** The requisition a GET answered, or a failure of `requirement` naming the request. */
export function requisitionIn(exchange: Exchange, requirement: string): RequisitionData {
  expectStatus(requirement, exchange, getRequisitionOperation.successStatus);
  const requisition = parseJson<RequisitionData>(requirement, exchange);
  expectThat(requirement, isObject(requisition), 'the requisition is not a JSON object', exchange);
  return requisition;
}

/** The service request a GET answered, or a failure of `requirement` naming the request. */
export function serviceRequestIn(exchange: Exchange, requirement: string): ServiceRequestData {
  expectStatus(requirement, exchange, getServiceRequestOperation.successStatus);
  const serviceRequest = parseJson<ServiceRequestData>(requirement, exchange);
  expectThat(requirement, isObject(serviceRequest), 'the service request is not a JSON object', exchange);
  return serviceRequest;
}

const getRequisition = (partner: PartnerClient, id: string): Promise<Exchange> =>
  partner.send({ path: buildPath(getRequisitionOperation, { id }) });

const getServiceRequest = (partner: PartnerClient, id: string): Promise<Exchange> =>
  partner.send({ path: buildPath(getServiceRequestOperation, { id }) });

/** A requisition as it is now (after a change): read afresh, never from the session's observations. */
export async function readRequisition(
  partner: PartnerClient,
  id: string,
  requirement: string,
): Promise<{ exchange: Exchange; requisition: RequisitionData }> {
  const exchange = await getRequisition(partner, id);
  return { exchange, requisition: requisitionIn(exchange, requirement) };
}

/** A service request as it is now (after a change): read afresh. */
export async function readServiceRequest(
  partner: PartnerClient,
  id: string,
  requirement: string,
): Promise<{ exchange: Exchange; serviceRequest: ServiceRequestData }> {
  const exchange = await getServiceRequest(partner, id);
  return { exchange, serviceRequest: serviceRequestIn(exchange, requirement) };
}

/** The body as JSON, or a failure of `requirement` naming the request. */
export function parseJson<T>(requirement: string, exchange: Exchange): T {
  try {
    return exchange.json<T>();
  } catch {
    throw new ConformanceFailure(
      requirement,
      `the body is not JSON: ${JSON.stringify(exchange.text.slice(0, 200))}`,
      describeExchange(exchange),
    );
  }
}

// ------------------------------------------------------------------------------------ observed once

/**
 * What the partner checks observe once per worker session with a target and judge many times: answers, never
 * verdicts, so that each check judges what it needs under its own requirement (a status fault of the GET fails
 * OP-GET-REQUISITION, not the check that happened to send it first). Every observation is kept under the key
 * built here alone (the partner, what was asked, of what), so the memo can be shared more widely without
 * touching a check. A request without an answer fails the check that sent it and blocks those that waited for
 * it; the next asker sends it again (src/suite/unanswered.ts).
 */
function observedOnce<T = Exchange>(
  session: TargetSession,
  partner: PartnerClient,
  what: readonly string[],
  observe: () => Promise<T>,
  codec: Codec<T> = exchangeCodec as unknown as Codec<T>,
): Promise<T> {
  const key = ['partner', partner.credentials.clientId, ...what].join(' ');
  // Once per run (the memo), and once per worker the coordinator is asked (the session).
  const observed = session.shared('partner observations', () => new Map<string, Promise<unknown>>());
  return sharedRead(observed, key, () => session.memo.remember(key, observe, codec)) as Promise<T>;
}

/** add-test-data's answer for `appointmentType` (undefined: the parameter omitted, the default). */
export const observedTestData = (
  session: TargetSession,
  partner: PartnerClient,
  appointmentType?: string,
): Promise<Exchange> =>
  observedOnce(session, partner, ['add-test-data', appointmentType ?? '(default)'], () =>
    requestTestData(partner, appointmentType),
  );

/**
 * add-test-data's answer for the partner authentication checks alone (the default appointment type): the
 * requisition they send updates to, so that one a lenient server lets in without a valid token changes
 * nothing another check reads (src/suite/partner-owned-targets.ts).
 */
export const observedTestDataForAuthentication = (
  session: TargetSession,
  partner: PartnerClient,
): Promise<Exchange> =>
  observedOnce(session, partner, ['add-test-data', 'for the authentication checks'], () =>
    requestTestData(partner),
  );

/** The partner's request of `op` on an id no partner owns, with a valid body (only the id is at issue). */
export const observedOnUnknownId = (
  session: TargetSession,
  partner: PartnerClient,
  op: Operation,
): Promise<Exchange> =>
  observedOnce(session, partner, ['unknown id', op.operationId], () =>
    partner.send(requestFor(op, unknownId())),
  );

/** A token request of the partner, with `overrides` merged into its body (none: the configured request). */
export const observedTokenRequest = (
  session: TargetSession,
  partner: PartnerClient,
  overrides: Record<string, unknown> = {},
): Promise<Exchange> =>
  observedOnce(session, partner, ['token', JSON.stringify(overrides)], () => partner.requestToken(overrides));

/** GET of a requisition, as this session first sent it. */
export const observedRequisition = (
  session: TargetSession,
  partner: PartnerClient,
  id: string,
): Promise<Exchange> =>
  observedOnce(session, partner, ['requisition', id], () => getRequisition(partner, id));

/** GET of a service request alone, as this session first sent it. */
export const observedServiceRequest = (
  session: TargetSession,
  partner: PartnerClient,
  id: string,
): Promise<Exchange> =>
  observedOnce(session, partner, ['service request', id], () => getServiceRequest(partner, id));

/**
 * A requisition as this session first read it, shared by the checks that judge what it was. A check that
 * reads the effect of a change reads afresh (readRequisition).
 */
export async function sharedRequisition(
  session: TargetSession,
  partner: PartnerClient,
  id: string,
  requirement: string,
): Promise<{ exchange: Exchange; requisition: RequisitionData }> {
  const exchange = await observedRequisition(session, partner, id);
  return { exchange, requisition: requisitionIn(exchange, requirement) };
}

/** A service request as this session first read it alone. */
export async function sharedServiceRequest(
  session: TargetSession,
  partner: PartnerClient,
  id: string,
  requirement: string,
): Promise<{ exchange: Exchange; serviceRequest: ServiceRequestData }> {
  const exchange = await observedServiceRequest(session, partner, id);
  return { exchange, serviceRequest: serviceRequestIn(exchange, requirement) };
}

/** The sandbox's seeded requisitions of the partner (sandbox administration, the 'sandbox-admin' capability). */
export const seededRequisitionIds = (
  session: TargetSession,
  api: ApiClient,
  partner: PartnerClient,
): Promise<string[]> =>
  observedOnce(
    session,
    partner,
    ['seeded requisitions'],
    () => sandboxRequisitionIds(api, session.config, partner.credentials.clientId),
    jsonCodec<string[]>(),
  );

// ------------------------------------------------------------------------------------ test data

export interface GeneratedRequisition {
  id: string;
  requisition: RequisitionData;
  /** The add-test-data exchange. */
  generated: Exchange;
  /** The GET of the generated requisition. */
  read: Exchange;
}

type Note = (requirement: string, text: string) => void;

/** POST add-test-data as `partner` (appointmentType omitted when undefined). */
export function requestTestData(partner: PartnerClient, appointmentType?: string): Promise<Exchange> {
  return partner.send({
    method: addTestDataOperation.method,
    path: buildPath(addTestDataOperation, {}, { appointmentType }),
  });
}

const NO_ID_ON_204 =
  'add-test-data answered 204 (the documented answer), which names no requisition: the generated requisition cannot be found';

/**
 * The requisition id an add-test-data answer gives: 204 (the documented answer) carries none (undefined),
 * 200 (the reference samples) carries `requisition_id`. Fails `requirement` for any other answer.
 */
export function generatedId(exchange: Exchange, requirement: string, note: Note): string | undefined {
  const op = addTestDataOperation;
  expectStatus(requirement, exchange, op.successStatuses);
  if (exchange.status === 204) {
    note('OP-ADD-TEST-DATA', NO_ID_ON_204);
    return undefined;
  }
  const body = parseJson<{ requisition_id?: unknown }>('OP-ADD-TEST-DATA', exchange);
  const id = isObject(body) ? body.requisition_id : undefined;
  expectThat(
    'OP-ADD-TEST-DATA',
    typeof id === 'string' && id !== '',
    `a 200 answer carries no requisition_id (body: ${exchange.text.slice(0, 200)})`,
    exchange,
  );
  return id as string;
}

/**
 * The requisition add-test-data generated for `appointmentType` in this session (partner A, non-production),
 * as first read back. `requirement` is failed when generation fails, TD-GENERATES-REQUISITION when the read does.
 */
export async function generatedRequisition(
  session: TargetSession,
  partner: PartnerClient,
  note: Note,
  appointmentType: string,
  requirement = 'TD-GENERATES-REQUISITION',
): Promise<GeneratedRequisition> {
  const generated = await observedTestData(session, partner, appointmentType);
  const id = generatedId(generated, requirement, note);
  if (id === undefined) notVerified(NO_ID_ON_204);
  const { exchange: read, requisition } = await sharedRequisition(
    session,
    partner,
    id,
    'TD-GENERATES-REQUISITION',
  );
  return { id, requisition, generated, read };
}

const CONFIGURE_IDS = 'set CONFORMANCE_PARTNER_REQUISITION_IDS to requisitions partner A owns';

const noRequisition = (config: SuiteConfig): never =>
  notVerified(
    `${config.environment === 'production' ? 'production target: no test data is generated' : NO_ID_ON_204}; ${CONFIGURE_IDS}`,
  );

/**
 * Requisitions of partner A to check: on a non-production target the one generated in this session per
 * appointment type (plus any configured ids); on production the ids of CONFORMANCE_PARTNER_REQUISITION_IDS, or
 * the test is skipped with the reason.
 */
export async function partnerRequisitionIds(
  session: TargetSession,
  partner: PartnerClient,
  note: Note,
  types: readonly string[] = APPOINTMENT_TYPES,
): Promise<string[]> {
  const { config } = session;
  if (!config.capabilities.has('stateful'))
    notVerified(`target ${config.target} keeps no requisitions (needs a target that keeps state)`);
  const generated: string[] = [];
  if (config.environment !== 'production') {
    for (const appointmentType of types) {
      const id = generatedId(
        await observedTestData(session, partner, appointmentType),
        'OP-ADD-TEST-DATA',
        note,
      );
      if (id !== undefined) generated.push(id);
    }
  }
  const ids = [...generated, ...(config.partnerRequisitionIds ?? [])];
  if (ids.length === 0) noRequisition(config);
  return ids;
}

/**
 * A requisition of partner A for a check that changes it, claimed for the rest of the test (no other test
 * works on it meanwhile): the one this session generated with add-test-data where the target names it
 * (non-production, a 200 answer), else one of the configured ids. The requisition is as the session first read
 * it: its ids hold, its statuses may have changed since (a check that compares states reads it afresh).
 * Writes never need a requisition of their own: each sets a status no other test uses and reads what it
 * compares against. Not verified when no requisition is available.
 */
/** How long a writer waits for another worker's test to release a requisition (the run shares them). */
const CLAIM_WAIT_MS = 60_000;
const CLAIM_POLL_MS = 100;

/** A claim on one of `candidates`, waiting while every one is held by a test of another worker. */
async function claimWhenFree(baseUrl: string, candidates: readonly string[]): Promise<string | undefined> {
  for (let waited = 0; ; waited += CLAIM_POLL_MS) {
    const id = claimRequisition(baseUrl, candidates);
    if (id !== undefined || waited >= CLAIM_WAIT_MS) return id;
    extendTestTimeout(CLAIM_POLL_MS);
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

export async function workingRequisition(
  session: TargetSession,
  partner: PartnerClient,
): Promise<{ id: string; requisition: RequisitionData }> {
  const { config } = session;
  const generated =
    config.environment === 'production'
      ? undefined
      : generatedId(
          await observedTestData(session, partner, DEFAULT_APPOINTMENT_TYPE),
          'OP-ADD-TEST-DATA',
          noteFor,
        );
  const candidates = [
    ...(generated === undefined ? [] : [generated]),
    ...(config.partnerRequisitionIds ?? []),
  ];
  if (candidates.length === 0) noRequisition(config);
  const id = await claimWhenFree(config.baseUrl, candidates);
  if (id === undefined)
    notVerified(`every requisition (${candidates.length}) is in use by another test; configure more`);
  const requirement = id === generated ? 'TD-GENERATES-REQUISITION' : 'OP-GET-REQUISITION';
  return { id, requisition: (await sharedRequisition(session, partner, id, requirement)).requisition };
}

/**
 * A requisition generated for the calling check alone, for a check that observes the generation itself (the
 * webhooks a creation sends); where the target names none (a 204, production), the working requisition.
 */
export async function freshRequisition(
  session: TargetSession,
  partner: PartnerClient,
): Promise<{ id: string; requisition: RequisitionData }> {
  if (session.config.environment !== 'production') {
    const id = generatedId(await requestTestData(partner), 'OP-ADD-TEST-DATA', noteFor);
    if (id !== undefined)
      return {
        id,
        requisition: (await readRequisition(partner, id, 'TD-GENERATES-REQUISITION')).requisition,
      };
  }
  return workingRequisition(session, partner);
}
