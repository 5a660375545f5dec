// The partner API of the sandbox (registered by app.ts under the /developer prefix):
//   POST  /v2/partner/token                                   client credentials → bearer token
//   POST  /v2/partner/development/add-test-data               non-production only
//   GET   /v2/partner/requisition/{id}                        } partner bearer token, caller must own the
//   GET   /v2/partner/service-request/{id}                    } resource (404 otherwise)
//   PATCH /v2/partner/requisition/{id}/status                 }
//   PATCH /v2/partner/service-request/{id}/status             }
//   POST  /v2/partner/service-request/{id}/results            }
// plus the sandbox-only inspection routes of admin-routes.ts. Everything lives in one encapsulated scope
// with strict body validation and the partner error handler.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { rateLimitHook } from '../rate-limit.ts';
import { operationOf } from '../response-rewrite.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { addPartnerAuthentication } from './auth.ts';
import { partnerErrorHandler } from './errors.ts';
import { registerResourceRoutes } from './resource-routes.ts';
import { createPartnerRuntime, type PartnerRuntime } from './runtime.ts';
import { registerTestDataRoute } from './test-data-route.ts';
import { registerTokenRoute } from './token-route.ts';
import { configurePartnerValidation } from './validation.ts';

export async function registerPartnerRoutes(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const runtime = createPartnerRuntime(ctx, ctx.credentials.partners);
  await app.register(async (scope) => {
    configurePartnerValidation(scope, ctx);
    scope.setErrorHandler(partnerErrorHandler(ctx));
    registerTokenRoute(scope, runtime);
    registerAdminRoutes(scope, runtime);
    await scope.register(async (authenticated) => registerAuthenticatedRoutes(authenticated, runtime));
  });
}

async function registerAuthenticatedRoutes(scope: FastifyInstance, runtime: PartnerRuntime): Promise<void> {
  addPartnerAuthentication(scope, runtime);
  const rateLimitKey = (clientId: string | null) => (clientId === null ? undefined : `partner:${clientId}`);
  scope.addHook(
    'onRequest',
    rateLimitHook(runtime.ctx.rateLimiter, (request) => rateLimitKey(request.partnerClientId), {
      style: runtime.ctx.rateLimitStyle,
      refuses: (request) =>
        runtime.ctx.fault('partner-results-429-forever') &&
        operationOf(request) === 'createServiceRequestResults',
    }),
  );
  registerTestDataRoute(scope, runtime);
  registerResourceRoutes(scope, runtime);
}
