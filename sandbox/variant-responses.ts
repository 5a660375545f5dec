// The one mechanism behind the conforming variants that only rewrite a success response (status or body):
// a table of rewrites and an onSend hook that applies the active ones. Variants that change what the
// sandbox does (filters, cursors, validation, data) live where that behaviour lives.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.ts';
import { responseShapes, withNulls } from './nulls.ts';
import type { VariantName } from './variants.ts';

/** Path of the user OAuth token endpoint (oauth/routes.ts), which has no operationId of the contract. */
export const USER_TOKEN_PATH = '/oauth/oauth2/token';

interface ResponseRewrite {
  /** Whether the rewrite applies to this request's success (2xx) response. */
  applies(request: FastifyRequest, status: number): boolean;
  /** The status to send instead (default: unchanged). */
  status?: number;
  /** The body to send instead, from the parsed JSON body; undefined sends no body. */
  body(parsed: unknown, request: FastifyRequest): unknown;
}

const operationOf = (request: FastifyRequest): string | undefined => request.routeOptions.config.operationId;

const rewrites: Partial<Record<VariantName, ResponseRewrite>> = {
  'nulls-for-absent': {
    applies: (request) => responseShapes[operationOf(request) ?? ''] !== undefined,
    body: (parsed, request) => withNulls(responseShapes[operationOf(request) ?? ''] ?? 'cycle', parsed),
  },
  'user-token-minimal': {
    applies: (request) => request.routeOptions.url === USER_TOKEN_PATH,
    body: (parsed) => ({ access_token: (parsed as { access_token?: unknown }).access_token }),
  },
  'test-data-204': {
    applies: (request, status) => operationOf(request) === 'addTestData' && status === 200,
    status: 204,
    body: () => undefined,
  },
};

/** Adds the hook when a response variant is on; call it on the root instance before registering routes. */
export function registerResponseVariants(app: FastifyInstance, ctx: SandboxContext): void {
  const active = Object.entries(rewrites)
    .filter(([name]) => ctx.variant(name as VariantName))
    .map(([, rewrite]) => rewrite as ResponseRewrite);
  if (active.length === 0) return;
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (status < 200 || status >= 300 || typeof payload !== 'string') return payload;
    const matching = active.filter((rewrite) => rewrite.applies(request, status));
    if (matching.length === 0) return payload;
    let body: unknown = payload === '' ? undefined : JSON.parse(payload);
    for (const rewrite of matching) {
      if (rewrite.status !== undefined) reply.code(rewrite.status);
      body = rewrite.body(body, request);
    }
    if (body !== undefined) return JSON.stringify(body);
    reply.removeHeader('content-type');
    return null;
  });
}
