// Counts the requests the sandbox serves, per method and route, so a test can check server-side what a
// suite run sent (the smoke profile's budget and read-only guard, the production guard).
//
//   GET    /sandbox/requests   { total, by_route: { "GET /developer/v2/cycle": 12, ... },
//                                rate_limited: { client: 0, own_limit: 3 } }   (requests answered 429 over a
//                                client's limit, and over a token's own limit: sandbox_rate_limit)
//   DELETE /sandbox/requests   reset
// The admin routes themselves are not counted.
import type { FastifyInstance } from 'fastify';
import type { FixedWindowRateLimiter } from './rate-limit.ts';

export function registerRequestLog(app: FastifyInstance, limiter: FixedWindowRateLimiter): void {
  const byRoute = new Map<string, number>();
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    if (route.startsWith('/sandbox/')) return;
    const key = `${request.method} ${route}`;
    byRoute.set(key, (byRoute.get(key) ?? 0) + 1);
  });
  app.get('/sandbox/requests', async () => ({
    total: [...byRoute.values()].reduce((sum, count) => sum + count, 0),
    by_route: Object.fromEntries([...byRoute].sort(([a], [b]) => a.localeCompare(b))),
    rate_limited: { client: limiter.answered429.client, own_limit: limiter.answered429.ownLimit },
  }));
  app.delete('/sandbox/requests', async (_request, reply) => {
    byRoute.clear();
    limiter.answered429.client = 0;
    limiter.answered429.ownLimit = 0;
    return reply.code(204).send();
  });
}
