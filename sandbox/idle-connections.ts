// The `idle-connection-reset` variant (sandbox/variants.ts): the service behind a load balancer that forgets a
// kept-alive connection once it has been idle for about a second, without telling the client (no FIN, no
// Keep-Alive hint: Node's own server.keepAliveTimeout announces itself as `Keep-Alive: timeout=1`, and Node's
// client then never reuses the connection, so the race never happens). The next request on such a connection
// is answered with a TCP reset before any byte of an answer, and never reaches the service.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a kept-alive connection may stay idle before the load balancer forgets it. */
export const IDLE_CONNECTION_MS = 1_000;

/** Resets each request that comes on a connection idle for IDLE_CONNECTION_MS; on the root instance. */
export function registerIdleConnectionReset(app: FastifyInstance): void {
  const idleSince = new WeakMap<Socket, number>();
  app.addHook('onRequest', async (request, reply) => {
    const { socket } = request.raw;
    const since = idleSince.get(socket);
    idleSince.delete(socket);
    if (since === undefined || Date.now() - since < IDLE_CONNECTION_MS) return;
    socket.resetAndDestroy();
    return reply.hijack();
  });
  app.addHook('onResponse', async (request) => {
    idleSince.set(request.raw.socket, Date.now());
  });
}
