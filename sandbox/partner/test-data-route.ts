// POST /v2/partner/development/add-test-data?appointmentType=IN_PERSON|MOBILE|VIRTUAL (no body). Answers 200
// { requisition_id } as the reference samples show; variant test-data-location answers 204 naming the
// requisition in a Location header. In production the route does not exist (404 for every method, before
// authentication).
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';
import { routeOptions } from '../route-table.ts';
import { callerOf } from './auth.ts';
import { invalidToken } from './errors.ts';
import type { PartnerRuntime } from './runtime.ts';
import { addTestDataQuerySchema } from './schemas.ts';
import type { AppointmentType } from './types.ts';
import { addTestData } from './updates.ts';

/** The operation exists only in non-production environments: in production it is not registered (404). */
export function registerTestDataRoute(scope: FastifyInstance, runtime: PartnerRuntime): void {
  const { ctx } = runtime;
  if (ctx.options.environment === 'production' && !ctx.fault('partner-test-data-in-production')) return;
  scope.route<{ Querystring: { appointmentType: AppointmentType } }>({
    ...routeOptions('addTestData'),
    schema: { querystring: addTestDataQuerySchema },
    handler: async (request, reply) => {
      if (ctx.fault('partner-bearer-rejected-on-test-data')) throw invalidToken('Invalid token');
      const { appointmentType } = request.query;
      if (appointmentType === 'VIRTUAL' && ctx.fault('partner-test-data-virtual-rejected')) {
        throw badRequest('appointmentType VIRTUAL is not supported');
      }
      const requisition = addTestData(runtime, callerOf(request), appointmentType);
      if (!ctx.variant('test-data-location')) return { requisition_id: requisition.id };
      // Where GET /v2/partner/requisition/{id} reads it, under the same base path as this request.
      const path = request.url.split('?')[0] ?? '';
      const location = path.replace(/\/development\/add-test-data$/, `/requisition/${requisition.id}`);
      return reply.code(204).header('location', location).send();
    },
  });
}
