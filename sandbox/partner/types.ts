// Resource shapes of the partner API as the seed defines them (LabRequisition, ServiceRequest, PatientCore,
// Appointment) plus the sandbox's own bookkeeping records.

export interface ServiceRequest {
  id: string;
  status: string;
  intent: string;
  code: string;
  task_business_status?: string;
  task_description?: string;
}

export interface Patient {
  id: string;
}

export interface ExtendedLabPatient extends Patient {
  first_name: string;
  last_name: string;
  birth_date: string;
  gender?: string;
  email?: string;
  phone?: string;
  nationality?: string;
  emirates_id?: string;
  passport_no?: string;
}

export type PatientCore = Patient | ExtendedLabPatient;

export interface CollectionAddress {
  building: string;
  area: string;
  emirate: string;
  landmark?: string;
  flat_no?: string;
}

export const appointmentTypes = ['IN_PERSON', 'MOBILE', 'VIRTUAL'] as const;
export type AppointmentType = (typeof appointmentTypes)[number];

export interface Appointment {
  start_time: string;
  service_request_ids: string[];
  type?: string;
  slot_id?: string;
  collection_address?: CollectionAddress;
}

export interface LabRequisition {
  id: string;
  created_at: string;
  updated_at: string;
  service_requests: ServiceRequest[];
  patient: PatientCore;
  appointments: Appointment[];
}

/** Request bodies (validated by Fastify before a handler sees them). */
export interface PartnerTokenRequest {
  client_id: string;
  client_secret: string;
  scope?: string;
  grant_type?: string;
  /** Sandbox-only: lifetime in seconds of the issued token (0 gives an already-expired token). */
  sandbox_expires_in?: number;
}

export interface ServiceRequestStatusRequest {
  task_business_status?: string;
  reason?: string;
}

export interface CreateObservationRequest {
  value_numeric?: number;
  value_text?: string;
  unit?: string;
  status?: string;
  code?: string;
  bundle_id?: string;
}

export interface DiagnosticReportCreateRequest {
  status?: string;
  observations?: CreateObservationRequest[];
}

/** One accepted status update of a service request, kept so the reason is not lost. */
export interface StatusUpdateRecord {
  task_business_status?: string;
  reason?: string;
  via: 'requisition' | 'service-request';
  at: string;
}

/** A stored diagnostic report (results upload). */
export interface DiagnosticReport extends DiagnosticReportCreateRequest {
  id: string;
  service_request_id: string;
  created_at: string;
}

/** A registered partner: client credentials and the webhook signing secret. */
export interface Partner {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}
