// The five id-addressed partner operations. Every one resolves its resource through withOwned (rule 1);
// bodies are validated by Fastify against the seed's request-body schemas before a handler runs.
import type { FastifyInstance } from 'fastify';
import { callerOf } from './auth.ts';
import { withOwned } from './ownership.ts';
import { presentRequisition, presentServiceRequest } from './present.ts';
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

  scope.get<{ Params: IdParams }>(
    '/v2/partner/requisition/:id',
    { config: { operationId: 'getRequisition' }, schema: { params: idParamsSchema } },
    async (request) =>
      withOwned(
        ctx,
        'getRequisition',
        callerOf(request),
        store.findRequisition(request.params.id),
        (requisition) => presentRequisition(ctx, requisition),
      ),
  );

  scope.get<{ Params: IdParams }>(
    '/v2/partner/service-request/:id',
    { config: { operationId: 'getServiceRequest' }, schema: { params: idParamsSchema } },
    async (request) =>
      withOwned(
        ctx,
        'getServiceRequest',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry) => presentServiceRequest(ctx, entry.serviceRequest),
      ),
  );

  scope.patch<{ Params: IdParams; Body: ServiceRequestStatusRequest }>(
    '/v2/partner/requisition/:id/status',
    {
      config: { operationId: 'updateRequisitionStatus' },
      schema: { params: idParamsSchema, body: serviceRequestStatusRequestSchema },
    },
    async (request, reply) => {
      withOwned(
        ctx,
        'updateRequisitionStatus',
        callerOf(request),
        store.findRequisition(request.params.id),
        (requisition, owner) => updateRequisitionStatus(runtime, owner, requisition, request.body ?? {}),
      );
      return reply.code(204).send();
    },
  );

  scope.patch<{ Params: IdParams; Body: ServiceRequestStatusRequest }>(
    '/v2/partner/service-request/:id/status',
    {
      config: { operationId: 'updateServiceRequestStatus' },
      schema: { params: idParamsSchema, body: serviceRequestStatusRequestSchema },
    },
    async (request, reply) => {
      const updated = withOwned(
        ctx,
        'updateServiceRequestStatus',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry, owner) => {
          updateServiceRequestStatus(runtime, owner, entry, request.body ?? {});
          return presentServiceRequest(ctx, entry.serviceRequest);
        },
      );
      if (ctx.fault('partner-service-request-status-204')) return reply.code(204).send();
      return reply.code(200).send(updated);
    },
  );

  scope.post<{ Params: IdParams; Body: DiagnosticReportCreateRequest }>(
    '/v2/partner/service-request/:id/results',
    {
      config: { operationId: 'createServiceRequestResults' },
      schema: { params: idParamsSchema, body: diagnosticReportCreateRequestSchema },
    },
    async (request, reply) => {
      withOwned(
        ctx,
        'createServiceRequestResults',
        callerOf(request),
        store.findServiceRequest(request.params.id),
        (entry, owner) => createResults(runtime, owner, entry, request.body ?? {}),
      );
      if (ctx.fault('partner-results-200-with-body')) return reply.code(200).send({ status: 'created' });
      return reply.code(201).send();
    },
  );
}
