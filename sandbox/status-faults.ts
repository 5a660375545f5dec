// The one mechanism behind the wrong-success-status faults (sandbox/faults/status.ts): every route carries
// its operationId and success status in its config (route-table.ts), and an onSend hook swaps the status
// of an operation whose fault is on.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { type StatusSwap, statusFaultName, statusSwapEntries } from './faults/status.ts';

/** Adds the hook when a status fault is on; call it on the root instance before registering routes. */
export function registerStatusFaults(app: FastifyInstance, ctx: SandboxContext): void {
  const active = new Map<string, StatusSwap>(
    statusSwapEntries.filter(([operationId]) => ctx.fault(statusFaultName(operationId))),
  );
  if (active.size === 0) return;
  app.addHook('onSend', async (request, reply, payload) => {
    const { operationId, successStatus } = request.routeOptions.config;
    const swap = operationId === undefined ? undefined : active.get(operationId);
    if (!swap || reply.statusCode !== successStatus) return payload;
    reply.code(swap.to);
    if (swap.body === undefined) return payload;
    reply.type('application/json; charset=utf-8');
    return JSON.stringify(swap.body);
  });
}
