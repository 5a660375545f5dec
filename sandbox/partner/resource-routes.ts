// The five id-addressed partner operations. Every one resolves its resource through withOwned (rule 1);
// bodies are validated by Fastify against the seed's request-body schemas before a handler runs.
import type { FastifyInstance } from 'fastify';
import { routeOptions } from '../route-table.ts';
import { callerOf } from './auth.ts';
import { withOwned } from './ownership.ts';
import type { PartnerRuntime } from './runtime.ts';
import {
  diagnosticReportCreateRequestSchema,
  idParamsSchema,
  serviceRequestStatusRequestSchema,
} from './schemas.ts';
import type { DiagnosticReportCreateRequest, ServiceRequestStatusRequest } from './types.ts';
import { createResults, updateRequisitionStatus, updateServiceRequestStatus } from './updates.ts';

interface IdParams {
  id: string;
}

export function registerResourceRoutes(scope: FastifyInstance, runtime: PartnerRuntime): void {
  const { ctx, store } = runtime;

  scope.route<{ Params: IdParams }>({
    ...routeOptions('getRequisition'),
    schema: { params: idParamsSchema },
    handler: async (request) =>
      withOwned(
        ctx,
        'getRequisition',
        callerOf(request),
        store.findRequisition(request.params.id),
        (requisition) => requisition,
      ),
  });

  scope.route<{ Params: IdParams }>({
    ...routeOptions('getServiceRequest'),
    schema: { params: idParamsSchema },
    handler: async (request) =>
      withOwned(
        ctx,
        'getServiceRequest',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry) => entry.serviceRequest,
      ),
  });

  scope.route<{ Params: IdParams; Body: ServiceRequestStatusRequest }>({
    ...routeOptions('updateRequisitionStatus'),
    schema: { params: idParamsSchema, body: serviceRequestStatusRequestSchema },
    handler: async (request, reply) => {
      withOwned(
        ctx,
        'updateRequisitionStatus',
        callerOf(request),
        store.findRequisition(request.params.id),
        (requisition, owner) => updateRequisitionStatus(runtime, owner, requisition, request.body ?? {}),
      );
      return reply.send();
    },
  });

  scope.route<{ Params: IdParams; Body: ServiceRequestStatusRequest }>({
    ...routeOptions('updateServiceRequestStatus'),
    schema: { params: idParamsSchema, body: serviceRequestStatusRequestSchema },
    handler: async (request, reply) => {
      const updated = withOwned(
        ctx,
        'updateServiceRequestStatus',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry, owner) => {
          updateServiceRequestStatus(runtime, owner, entry, request.body ?? {});
          return entry.serviceRequest;
        },
      );
      return reply.send(updated);
    },
  });

  scope.route<{ Params: IdParams; Body: DiagnosticReportCreateRequest }>({
    ...routeOptions('createServiceRequestResults'),
    schema: { params: idParamsSchema, body: diagnosticReportCreateRequestSchema },
    handler: async (request, reply) => {
      withOwned(
        ctx,
        'createServiceRequestResults',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry, owner) => createResults(runtime, owner, entry, request.body ?? {}),
      );
      return reply.send();
    },
  });
}
