// 405 Method Not Allowed (with an Allow header) for every known path asked with a method it does not serve;
// unknown paths stay 404. Call `trackRoutes` before registering routes and `registerMethodNotAllowed`
// after all of them.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { HttpError, sendError } from './errors.ts';

const answerable: readonly HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type RouteTable = Map<string, Set<string>>;

export function trackRoutes(app: FastifyInstance): RouteTable {
  const table: RouteTable = new Map();
  app.addHook('onRoute', (route) => {
    if (route.config && (route.config as { methodNotAllowed?: boolean }).methodNotAllowed) return;
    const methods = table.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    table.set(route.url, methods);
  });
  return table;
}

export function registerMethodNotAllowed(app: FastifyInstance, table: RouteTable): void {
  for (const [url, methods] of table) {
    const missing = answerable.filter((method) => !methods.has(method));
    if (missing.length === 0 || url.includes('*')) continue;
    const allow = [...methods].join(', ');
    app.route({
      method: missing,
      url,
      config: { methodNotAllowed: true },
      handler: (request, reply) =>
        sendError(
          reply.header('allow', allow),
          new HttpError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}`),
        ),
    });
  }
}
