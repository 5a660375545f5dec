// Sandbox-only administration endpoints (not part of the contract), under /sandbox:
//
//   GET    /sandbox/info                      environment, seed, active faults and variants, rate limit, test users
//   POST   /sandbox/webhooks {owner, url}     register a webhook URL for an owner (OAuth or partner client id)
//   GET    /sandbox/webhooks?owner=…          the URLs registered for an owner
//   DELETE /sandbox/webhooks?owner=…          remove them
//   POST   /sandbox/users/:userId/events {type?, id?}
//          simulate a change of that user's data: sends {type, user_id, id, trace_id} to the webhook URLs of
//          every OAuth client, except the clients whose access the user revoked. Signed with the client
//          secret (see webhooks.ts); no Service-Signed header with fault webhook-signature-missing.
//          Default type recovery.updated, default id the newest matching record.
//
// With the option userActivityMs (--user-activity MS), every user's data changes on its own, as a real
// user's does: every userActivityMs each user's recovery.updated event goes out as above. A team running
// the suite against the sandbox started on its own relies on it (the seed gives a client no way to cause
// a user-data webhook).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';
import type { UserServices } from './user/services.ts';
import type { Entry } from './user/store.ts';

const ownerQuery = {
  type: 'object',
  properties: { owner: { type: 'string', minLength: 1 } },
  required: ['owner'],
} as const;

const eventIdOf = (entry: Entry | undefined, type: string): string | number | null => {
  if (!entry) return null;
  const record = entry.record as { id?: string | number; sleep_id?: string | number };
  return (type.startsWith('recovery.') ? record.sleep_id : record.id) ?? null;
};

export async function registerAdminRoutes(app: FastifyInstance, services: UserServices): Promise<void> {
  const { ctx, store, accounts } = services;
  const { webhooks } = ctx;

  app.get('/sandbox/info', async () => ({
    environment: ctx.options.environment,
    seed: ctx.options.seed,
    faults: [...ctx.options.faults],
    variants: [...ctx.options.variants],
    rate_limit: ctx.rateLimiter.policies.map(({ limit, windowSeconds }) => ({
      limit,
      window_seconds: windowSeconds,
    })),
    rate_limit_headers: ctx.rateLimitStyle,
    users: accounts.map((account) => ({ user_id: account.userId, username: account.username })),
  }));

  app.post(
    '/sandbox/webhooks',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            owner: { type: 'string', minLength: 1 },
            url: { type: 'string', format: 'uri', pattern: '^https?://' },
          },
          required: ['owner', 'url'],
        },
      },
    },
    async (request, reply) => {
      const { owner, url } = request.body as { owner: string; url: string };
      webhooks.register(owner, url);
      return reply.code(201).send({ owner, urls: webhooks.urls(owner) });
    },
  );

  app.get('/sandbox/webhooks', { schema: { querystring: ownerQuery } }, async (request) => {
    const { owner } = request.query as { owner: string };
    return { owner, urls: webhooks.urls(owner) };
  });

  app.delete('/sandbox/webhooks', { schema: { querystring: ownerQuery } }, async (request, reply) => {
    webhooks.unregister((request.query as { owner: string }).owner);
    return reply.code(204).send();
  });

  app.post(
    '/sandbox/users/:userId/events',
    {
      schema: {
        params: { type: 'object', properties: { userId: { type: 'string', pattern: '^[0-9]{1,15}$' } } },
        body: {
          type: 'object',
          properties: {
            type: { type: 'string', pattern: '^[a-z_]+\\.[a-z_]+$' },
            id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          },
        },
      },
      // The body is optional: an absent one is validated as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const userId = Number((request.params as { userId: string }).userId);
      if (!store.users.has(userId)) throw notFound(`No user ${userId}`);
      const { event, sentTo } = sendUserEvent(services, userId, (request.body ?? {}) as EventRequest);
      return reply.code(202).send({ event, sent_to: sentTo });
    },
  );

  const { userActivityMs } = ctx.options;
  if (userActivityMs > 0) {
    const timer = setInterval(() => {
      for (const account of accounts) sendUserEvent(services, account.userId, {});
    }, userActivityMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}

interface EventRequest {
  type?: string;
  id?: string | number;
}

/**
 * Announces a change of a user's data to every OAuth client with a registered receiver, except the clients
 * whose access the user revoked. Returns the event and the clients it went to.
 */
function sendUserEvent(
  { ctx, clients, tokens, store }: UserServices,
  userId: number,
  body: EventRequest,
): { event: object; sentTo: string[] } {
  const data = store.users.get(userId);
  const type = body.type ?? 'recovery.updated';
  const collection = type.split('.')[0] as keyof NonNullable<typeof data>['collections'];
  const id = body.id ?? eventIdOf(data?.collections[collection]?.[0], type);
  const event = { type, user_id: userId, id, trace_id: randomUUID() };
  const sentTo: string[] = [];
  for (const client of clients.values()) {
    if (ctx.webhooks.urls(client.clientId).length === 0) continue;
    if (tokens.isRevoked(userId, client.clientId) && !ctx.fault('revoke-webhooks-continue')) continue;
    const secret = ctx.fault('webhook-signature-missing') ? undefined : client.clientSecret;
    ctx.webhooks.send(client.clientId, secret, event);
    sentTo.push(client.clientId);
  }
  return { event, sentTo };
}
