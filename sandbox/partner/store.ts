// In-memory partner data of one sandbox instance: requisitions with their owner, an index from service
// request to requisition, the status-update history (reasons) and uploaded diagnostic reports.
import type {
  DiagnosticReport,
  DiagnosticReportCreateRequest,
  LabRequisition,
  ServiceRequest,
  ServiceRequestStatusRequest,
  StatusUpdateRecord,
} from './types.ts';

/** A resource together with the client id of the partner that owns it. */
export interface Owned<T> {
  owner: string;
  value: T;
}

export interface ServiceRequestEntry {
  serviceRequest: ServiceRequest;
  requisition: LabRequisition;
}

export interface ServiceRequestActivity {
  status_updates: StatusUpdateRecord[];
  diagnostic_reports: DiagnosticReport[];
}

export class PartnerStore {
  readonly #requisitions = new Map<string, Owned<LabRequisition>>();
  readonly #serviceRequestIndex = new Map<string, string>();
  readonly #statusUpdates = new Map<string, StatusUpdateRecord[]>();
  readonly #reports = new Map<string, DiagnosticReport[]>();

  addRequisition(owner: string, requisition: LabRequisition): void {
    this.#requisitions.set(requisition.id, { owner, value: requisition });
    for (const serviceRequest of requisition.service_requests) {
      this.#serviceRequestIndex.set(serviceRequest.id, requisition.id);
    }
  }

  findRequisition(id: string): Owned<LabRequisition> | undefined {
    return this.#requisitions.get(id.toLowerCase());
  }

  findServiceRequest(id: string): Owned<ServiceRequestEntry> | undefined {
    const requisitionId = this.#serviceRequestIndex.get(id.toLowerCase());
    const owned = requisitionId === undefined ? undefined : this.#requisitions.get(requisitionId);
    const serviceRequest = owned?.value.service_requests.find(
      (candidate) => candidate.id === id.toLowerCase(),
    );
    if (!owned || !serviceRequest) return undefined;
    return { owner: owned.owner, value: { serviceRequest, requisition: owned.value } };
  }

  requisitionsOf(owner: string): LabRequisition[] {
    return [...this.#requisitions.values()]
      .filter((entry) => entry.owner === owner)
      .map((entry) => entry.value);
  }

  /** Replaces the task business status of `targets` (all belonging to `requisition`) and records the reason. */
  updateStatus(
    requisition: LabRequisition,
    targets: readonly ServiceRequest[],
    update: ServiceRequestStatusRequest,
    via: StatusUpdateRecord['via'],
    at: string,
  ): void {
    for (const target of targets) {
      if (update.task_business_status !== undefined)
        target.task_business_status = update.task_business_status;
      const record: StatusUpdateRecord = { via, at };
      if (update.task_business_status !== undefined)
        record.task_business_status = update.task_business_status;
      if (update.reason !== undefined) record.reason = update.reason;
      this.#append(this.#statusUpdates, target.id, record);
    }
    requisition.updated_at = at;
  }

  addReport(
    requisition: LabRequisition,
    serviceRequest: ServiceRequest,
    body: DiagnosticReportCreateRequest,
    id: string,
    at: string,
  ): DiagnosticReport {
    const report: DiagnosticReport = {
      ...structuredClone(body),
      id,
      service_request_id: serviceRequest.id,
      created_at: at,
    };
    this.#append(this.#reports, serviceRequest.id, report);
    requisition.updated_at = at;
    return report;
  }

  activity(serviceRequestId: string): ServiceRequestActivity {
    const id = serviceRequestId.toLowerCase();
    return {
      status_updates: this.#statusUpdates.get(id) ?? [],
      diagnostic_reports: this.#reports.get(id) ?? [],
    };
  }

  #append<T>(map: Map<string, T[]>, key: string, item: T): void {
    const list = map.get(key) ?? [];
    list.push(item);
    map.set(key, list);
  }
}
