// The five id-addressed partner operations. Every one resolves its resource through withOwned (rule 1);
// bodies are validated by Fastify against the seed's request-body schemas before a handler runs.
import type { FastifyInstance } from 'fastify';
import { routeOptions } from '../route-table.ts';
import { callerOf } from './auth.ts';
import { type IdAddressedOperation, withOwned } from './ownership.ts';
import type { PartnerRuntime } from './runtime.ts';
import {
  diagnosticReportCreateRequestSchema,
  idParamsSchema,
  serviceRequestStatusRequestSchema,
} from './schemas.ts';
import type { Owned, ServiceRequestEntry } from './store.ts';
import type { DiagnosticReportCreateRequest, LabRequisition, ServiceRequestStatusRequest } from './types.ts';
import { createResults, updateRequisitionStatus, updateServiceRequestStatus } from './updates.ts';

interface IdParams {
  id: string;
}

export function registerResourceRoutes(scope: FastifyInstance, runtime: PartnerRuntime): void {
  const { ctx, store } = runtime;

  /**
   * An operation on the resource `find` gives for the path's id: `act` runs where the caller owns it (rule
   * 1), with the validated body, and what it returns is the answer (nothing: no body).
   */
  function ownedRoute<T, Body = undefined>(
    operation: IdAddressedOperation,
    find: (id: string) => Owned<T> | undefined,
    bodySchema: object | undefined,
    act: (value: T, owner: string, body: Body) => unknown,
  ): void {
    scope.route<{ Params: IdParams; Body: Body }>({
      ...routeOptions(operation),
      schema: bodySchema ? { params: idParamsSchema, body: bodySchema } : { params: idParamsSchema },
      handler: async (request, reply) =>
        reply.send(
          withOwned(ctx, operation, callerOf(request), find(request.params.id), (value, owner) =>
            act(value, owner, (request.body ?? {}) as Body),
          ),
        ),
    });
  }
  const requisition = (id: string) => store.findRequisition(id);
  const serviceRequest = (id: string) => store.findServiceRequest(id);

  ownedRoute('getRequisition', requisition, undefined, (found) => found);
  ownedRoute('getServiceRequest', serviceRequest, undefined, (entry) => entry.serviceRequest);
  ownedRoute<LabRequisition, ServiceRequestStatusRequest>(
    'updateRequisitionStatus',
    requisition,
    serviceRequestStatusRequestSchema,
    (found, owner, body) => updateRequisitionStatus(runtime, owner, found, body),
  );
  ownedRoute<ServiceRequestEntry, ServiceRequestStatusRequest>(
    'updateServiceRequestStatus',
    serviceRequest,
    serviceRequestStatusRequestSchema,
    (entry, owner, body) => {
      updateServiceRequestStatus(runtime, owner, entry, body);
      return entry.serviceRequest;
    },
  );
  ownedRoute<ServiceRequestEntry, DiagnosticReportCreateRequest>(
    'createServiceRequestResults',
    serviceRequest,
    diagnosticReportCreateRequestSchema,
    (entry, owner, body) => createResults(runtime, owner, entry, body),
  );
}
