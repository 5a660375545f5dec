// The partner resources as the partner checks read and write them: a requisition's service requests,
// appointments and task business statuses (read leniently: a field of the wrong shape is the schema
// checks' business, never a crash here), and the request bodies the checks send.
import { randomUUID } from 'node:crypto';
import type { Operation } from '../../contract/operation-model.ts';
import { notVerified } from '../verdict/stops.ts';

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

export const isObject = (value: unknown): value is Record<string, unknown> =>
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
