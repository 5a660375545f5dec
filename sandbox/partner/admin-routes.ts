// Sandbox-only inspection routes (not part of the contract, no authentication) for the sandbox's own tests:
//   GET /sandbox/partners/{clientId}/requisitions                 ids of the partner's requisitions
//   GET /sandbox/partners/{clientId}/service-requests/{id}/activity  stored status updates (with reasons)
//                                                                   and diagnostic reports
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import type { PartnerRuntime } from './runtime.ts';

export function registerAdminRoutes(scope: FastifyInstance, { partners, store }: PartnerRuntime): void {
  scope.get<{ Params: { clientId: string } }>('/sandbox/partners/:clientId/requisitions', async (request) => {
    const { clientId } = request.params;
    if (!partners.find(clientId)) throw notFound();
    return {
      client_id: clientId,
      requisitions: store.requisitionsOf(clientId).map((requisition) => ({
        id: requisition.id,
        service_request_ids: requisition.service_requests.map((serviceRequest) => serviceRequest.id),
      })),
    };
  });

  scope.get<{ Params: { clientId: string; id: string } }>(
    '/sandbox/partners/:clientId/service-requests/:id/activity',
    async (request) => {
      const { clientId, id } = request.params;
      if (store.findServiceRequest(id)?.owner !== clientId) throw notFound();
      return store.activity(id);
    },
  );
}
