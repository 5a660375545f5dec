// The data-changing partner operations (status updates, results upload, test data): apply the change to the
// store and announce it by webhook to the owning partner.
import type { SandboxContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import type { PartnerRuntime } from './runtime.ts';
import type { ServiceRequestEntry } from './store.ts';
import type {
  AppointmentType,
  DiagnosticReportCreateRequest,
  LabRequisition,
  ServiceRequestStatusRequest,
} from './types.ts';

/** Rule 2: PATCH on a requisition sets the task business status on all of its service requests. */
export function updateRequisitionStatus(
  { ctx, store, events }: PartnerRuntime,
  owner: string,
  requisition: LabRequisition,
  update: ServiceRequestStatusRequest,
): void {
  acceptReason(ctx, update);
  const all = requisition.service_requests;
  const targets = ctx.fault('partner-requisition-status-first-only') ? all.slice(0, 1) : all;
  store.updateStatus(requisition, targets, update, 'requisition', ctx.options.now().toISOString());
  events.emit(
    owner,
    'requisition.status_updated',
    { id: requisition.id, requisition_id: requisition.id },
    {
      service_request_ids: targets.map((serviceRequest) => serviceRequest.id),
      ...statusDetails(update),
    },
  );
}

/** Replaces the task business status of one service request; its siblings keep theirs. */
export function updateServiceRequestStatus(
  { ctx, store, events }: PartnerRuntime,
  owner: string,
  { serviceRequest, requisition }: ServiceRequestEntry,
  update: ServiceRequestStatusRequest,
): void {
  acceptReason(ctx, update);
  const targets = ctx.fault('partner-service-request-status-updates-siblings')
    ? requisition.service_requests
    : [serviceRequest];
  store.updateStatus(requisition, targets, update, 'service-request', ctx.options.now().toISOString());
  events.emit(
    owner,
    'service_request.status_updated',
    { id: serviceRequest.id, requisition_id: requisition.id },
    statusDetails(update),
  );
}

export function createResults(
  { ctx, store, events, reportIds }: PartnerRuntime,
  owner: string,
  { serviceRequest, requisition }: ServiceRequestEntry,
  body: DiagnosticReportCreateRequest,
): void {
  // Only lenient-results lets a body of another shape through: its members are stored as sent.
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  const report = store.addReport(
    requisition,
    serviceRequest,
    fields,
    reportIds.uuid(),
    ctx.options.now().toISOString(),
  );
  events.emit(
    owner,
    'service_request.results_created',
    { id: serviceRequest.id, requisition_id: requisition.id },
    {
      diagnostic_report_id: report.id,
    },
  );
}

export function addTestData(
  { ctx, store, events, testData }: PartnerRuntime,
  owner: string,
  appointmentType: AppointmentType,
): LabRequisition {
  const requisition = testData.create(appointmentType);
  if (!ctx.fault('partner-test-data-not-stored')) store.addRequisition(owner, requisition);
  events.emit(
    owner,
    'requisition.created',
    { id: requisition.id, requisition_id: requisition.id },
    {
      appointment_type: appointmentType,
    },
  );
  return requisition;
}

const statusDetails = ({ task_business_status, reason }: ServiceRequestStatusRequest) => ({
  task_business_status,
  reason,
});

function acceptReason(ctx: SandboxContext, update: ServiceRequestStatusRequest): void {
  if (update.reason !== undefined && ctx.fault('partner-status-reason-rejected')) {
    throw badRequest('reason is not supported');
  }
}
