// Counts the requests the sandbox serves, per method and route, so a test can check server-side what a
// suite run sent (the smoke profile's budget and read-only guard, the production guard).
//
//   GET    /sandbox/requests   { total, by_route: { "GET /developer/v2/cycle": 12, ... } }
//   DELETE /sandbox/requests   reset
// The admin routes themselves are not counted.
import type { FastifyInstance } from 'fastify';

export function registerRequestLog(app: FastifyInstance): void {
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
  }));
  app.delete('/sandbox/requests', async (_request, reply) => {
    byRoute.clear();
    return reply.code(204).send();
  });
}
