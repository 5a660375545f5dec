// DELETE /v2/user/access: revokes the access the user granted to the calling client (every access token,
// refresh token and unused code of that user for that client) and stops that user's webhooks to the client.
import type { FastifyInstance } from 'fastify';
import { grantOf } from '../oauth/bearer.ts';
import { routeOptions } from '../route-table.ts';
import type { UserServices } from './services.ts';

export function registerRevoke(app: FastifyInstance, { ctx, tokens }: UserServices): void {
  const route = routeOptions('revokeUserAccess');
  const userScope = ctx.fault('scope-required-for-revoke') ? 'read:profile' : route.config.userScope;
  app.route({
    ...route,
    config: { ...route.config, userScope },
    handler: (request, reply) => {
      const { userId, clientId } = grantOf(request);
      tokens.revoke(userId, clientId);
      return reply.send();
    },
  });
}
