// The user data API and the activity mapping under {base_url} (/developer): bearer authentication and scope
// checks, per-client rate limiting, and the operations (collection.ts, single.ts, revoke.ts).
import type { FastifyInstance } from 'fastify';
import { bearerAuthHook } from '../oauth/bearer.ts';
import type { Grant } from '../oauth/tokens.ts';
import { type RateLimitKey, rateLimitHook } from '../rate-limit.ts';
import { operationOf } from '../response-rewrite.ts';
import { registerCollection } from './collection.ts';
import { collectionOperations, singleOperations } from './operations.ts';
import { registerRevoke } from './revoke.ts';
import type { UserServices } from './services.ts';
import { registerSingle } from './single.ts';

/** Per client; a token with a limit of its own (sandbox_rate_limit) per token. */
function rateLimitKey(grant: Grant | null, authorization: string | undefined): RateLimitKey | undefined {
  if (!grant) return undefined;
  if (!grant.rateLimit) return grant.clientId;
  return { key: `token ${authorization ?? ''}`, policies: [grant.rateLimit] };
}

export async function registerUserRoutes(app: FastifyInstance, services: UserServices): Promise<void> {
  const { ctx } = services;
  app.decorateRequest('userGrant', null);
  app.addHook('onRequest', bearerAuthHook(services));
  app.addHook(
    'onRequest',
    rateLimitHook(
      ctx.rateLimiter,
      (request) => rateLimitKey(request.userGrant, request.headers.authorization),
      {
        style: ctx.rateLimitStyle,
        never429: ctx.fault('rate-limit-never-429'),
        refuses: (request) =>
          ctx.fault('rate-limit-429-within-budget') && operationOf(request) === 'getBasicProfile',
      },
    ),
  );
  for (const operation of collectionOperations) registerCollection(app, services, operation);
  for (const operation of singleOperations) registerSingle(app, services, operation);
  registerRevoke(app, services);
}
