// Response representations of partner resources: copies of the stored records (callers never hold the
// store's objects), where the response-schema faults take effect.
import type { SandboxContext } from '../context.ts';
import type { LabRequisition, ServiceRequest } from './types.ts';

export function presentServiceRequest(
  ctx: SandboxContext,
  serviceRequest: ServiceRequest,
): Partial<ServiceRequest> {
  const copy: Partial<ServiceRequest> = structuredClone(serviceRequest);
  if (ctx.fault('partner-service-request-missing-code')) delete copy.code;
  return copy;
}

export function presentRequisition(
  ctx: SandboxContext,
  requisition: LabRequisition,
): Record<string, unknown> {
  const { service_requests, patient, appointments, ...rest } = structuredClone(requisition);
  const copy: Record<string, unknown> = {
    ...rest,
    service_requests: service_requests.map((serviceRequest) => presentServiceRequest(ctx, serviceRequest)),
    patient: ctx.fault('partner-patient-id-not-uuid')
      ? { ...patient, id: `PAT-${patient.id.slice(0, 8)}` }
      : patient,
    appointments: ctx.fault('partner-appointment-start-time-invalid')
      ? appointments.map((appointment) => ({ ...appointment, start_time: 'tomorrow morning' }))
      : appointments,
  };
  if (ctx.fault('partner-requisition-missing-field')) delete copy.updated_at;
  return copy;
}
