// The one mechanism behind every fault and conforming variant that only changes a response (its status,
// body or headers), not what the sandbox does: one table of rewrites keyed by fault or variant name (the
// faults' in fault-responses.ts, the variants' in variant-responses.ts) and one onSend hook that applies the
// active ones in the table's order. The faults come first, as if the handler had answered so; the variants
// then rewrite what a conforming target may send instead. Faults and variants that change what the sandbox
// does (lookups, validation, pagination, authentication, data) stay where that behaviour lives.
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { faultResponses } from './fault-responses.ts';
import type { FaultName } from './faults/index.ts';
import type { ResponseRewrite } from './response-rewrite.ts';
import { variantResponses } from './variant-responses.ts';
import type { VariantName } from './variants.ts';

/** Adds the hook when a rewrite is active; call it on the root instance before registering routes. */
export function registerResponseRewrites(app: FastifyInstance, ctx: SandboxContext): void {
  const active = [
    ...Object.entries(faultResponses(ctx)).filter(([name]) => ctx.fault(name as FaultName)),
    ...Object.entries(variantResponses).filter(([name]) => ctx.variant(name as VariantName)),
  ].map(([, rewrite]) => rewrite as ResponseRewrite);
  if (active.length === 0) return;
  app.addHook('onSend', async (request, reply, payload) => {
    let body: { json: unknown } | undefined;
    let raw: string | undefined;
    for (const rewrite of active) {
      if (!rewrite.applies(request, reply.statusCode)) continue;
      if (rewrite.lateMs) await setTimeout(rewrite.lateMs);
      if (rewrite.status !== undefined) reply.code(rewrite.status);
      if (rewrite.body) {
        body ??= { json: typeof payload === 'string' && payload !== '' ? JSON.parse(payload) : undefined };
        body.json = rewrite.body(body.json, request);
      }
      raw = rewrite.raw?.() ?? raw;
      for (const [name, value] of Object.entries(rewrite.headers?.(reply) ?? {})) {
        if (value === undefined) reply.removeHeader(name);
        else reply.header(name, value);
      }
    }
    if (raw !== undefined) return raw;
    if (body === undefined) return payload;
    if (body.json === undefined) {
      reply.removeHeader('content-type');
      return null;
    }
    if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
    return JSON.stringify(body.json);
  });
}
