// Fault first-copy-late-500 (sandbox/faults/user.ts): the instance's first GET of the body measurement is held
// past any resend mark (src/http/request-timeout.ts: at most 10 s once the target has answered anything) and
// then answered 500; every later one is right. The client goes on with its second copy; the first is the
// server's answer all the same.
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { routeTable } from './route-table.ts';

/** How late the first copy's 500 leaves: past the resend mark of a target that answers in milliseconds. */
export const FIRST_COPY_LATE_MS = 3_000;

/** Holds the first body-measurement read and answers it 500; call it on the root instance before the routes. */
export function registerLateFirstCopy(app: FastifyInstance, basePath: string): void {
  const { method, path } = routeTable.getBodyMeasurement;
  let held = false;
  app.addHook('onRequest', async (request, reply) => {
    if (held || request.method !== method || request.url.split('?')[0] !== `${basePath}${path}`) return;
    held = true;
    await setTimeout(FIRST_COPY_LATE_MS);
    return reply.code(500).send({ error: 'internal_error', message: 'the first copy failed late' });
  });
}
