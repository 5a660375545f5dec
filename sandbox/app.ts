// The sandbox: a Fastify app implementing the whole service (user data API and user OAuth here, partner API
// in sandbox/partner) on fixed credentials (sandbox.env) and deterministic data, with injectable faults.
//
//   {auth_url}  = http://host:port             /oauth/oauth2/auth, /oauth/oauth2/token, /callback (https: option tls)
//   {base_url}  = http://host:port/developer   user data API, activity mapping, partner API
//   sandbox-only administration under /sandbox (admin.ts)
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAdminRoutes } from './admin.ts';
import type { SandboxContext, SandboxOptions } from './context.ts';
import { loadSandboxCredentials, type SandboxCredentials } from './credentials.ts';
import { frameworkErrorHandler, registerErrorHandling } from './errors.ts';
import { registerIdleConnectionReset } from './idle-connections.ts';
import { registerLateAnswers } from './late-answers.ts';
import { registerMethodNotAllowed, trackRoutes } from './method-not-allowed.ts';
import { registerOAuthRoutes } from './oauth/routes.ts';
import { resolveOptions, type SandboxInput } from './options.ts';
import { registerPartnerRoutes } from './partner/routes.ts';
import { FixedWindowRateLimiter, SCALED_PRODUCTION_RATE_LIMITS } from './rate-limit.ts';
import { registerRequestLog } from './request-log.ts';
import { registerResponseRewrites } from './responses.ts';
import { registerSuccessStatus } from './route-table.ts';
import { sharedRouteValidators } from './route-validators.ts';
import { registerUserRoutes } from './user/routes.ts';
import { createUserServices } from './user/services.ts';
import { createWebhookSender } from './webhooks.ts';

export const BASE_PATH = '/developer';
/** Largest accepted request body (bytes); larger ones get 413. */
export const BODY_LIMIT = 1024 * 1024;

/** Variant short-lived-tokens: how long every user and partner access token lives. */
export const SHORT_TOKEN_LIFETIME_SECONDS = 60;

export function createContext(
  given: SandboxOptions,
  credentials: SandboxCredentials = loadSandboxCredentials(),
): SandboxContext {
  const options = given.variants.has('short-lived-tokens')
    ? { ...given, tokenLifetimeSeconds: SHORT_TOKEN_LIFETIME_SECONDS }
    : given;
  const log = (line: string) => {
    if (options.logRequests) process.stdout.write(`${line}\n`);
  };
  return {
    options,
    fault: (name) => options.faults.has(name),
    variant: (name) => options.variants.has(name),
    webhooks: createWebhookSender({
      onError: (url, reason) => log(`webhook to ${url} failed: ${reason}`),
      timestamped: options.variants.has('timestamped-webhook-signatures'),
      now: options.now,
    }),
    credentials,
    ...rateLimitOf(options),
  };
}

/** The instance's limiter and header style: the options', or those of a rate-limit variant. */
function rateLimitOf(options: SandboxOptions): Pick<SandboxContext, 'rateLimiter' | 'rateLimitStyle'> {
  const production = options.variants.has('production-rate-limits');
  const windowless = options.variants.has('rate-limit-without-window');
  const policies = production || windowless ? SCALED_PRODUCTION_RATE_LIMITS : options.rateLimit;
  return {
    rateLimiter: new FixedWindowRateLimiter(
      policies,
      options.now,
      options.variants.has('clock-aligned-rate-limit'),
    ),
    rateLimitStyle: options.variants.has('ietf-rate-limit-headers')
      ? 'ietf'
      : production
        ? 'production'
        : windowless
          ? 'windowless'
          : options.rateLimitHeaders,
  };
}

export async function buildSandbox(options: SandboxInput = {}): Promise<FastifyInstance> {
  const ctx = createContext(resolveOptions(options));
  const app = Fastify({
    // Option tls: HTTPS (its own certificate, e.g. from a private CA); typed as the HTTP server it wraps.
    ...(ctx.options.tls ? { https: ctx.options.tls } : {}),
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: frameworkErrorHandler,
    schemaController: { compilersFactory: { buildValidator: sharedRouteValidators } },
  });
  if (ctx.options.logRequests) {
    app.addHook('onResponse', async (request, reply) => {
      const ms = reply.elapsedTime.toFixed(1);
      process.stdout.write(
        `${new Date().toISOString()} ${request.method} ${request.url} ${reply.statusCode} ${ms}ms\n`,
      );
    });
  }
  registerErrorHandling(app);
  registerRequestLog(app, ctx.rateLimiter);
  registerSuccessStatus(app);
  registerResponseRewrites(app, ctx);
  registerLateAnswers(app, ctx, BASE_PATH);
  if (ctx.variant('idle-connection-reset')) registerIdleConnectionReset(app);
  const routes = trackRoutes(app);
  await app.register(formbody);

  const services = createUserServices(ctx);
  await app.register(async (root) => {
    await registerOAuthRoutes(root, services);
    await registerAdminRoutes(root, services);
  });
  await app.register(async (developer) => registerUserRoutes(developer, services), { prefix: BASE_PATH });
  await app.register(async (developer) => registerPartnerRoutes(developer, ctx), { prefix: BASE_PATH });
  await app.register(async (root) => registerMethodNotAllowed(root, routes));
  return app;
}

export interface RunningSandbox {
  /** {base_url}, e.g. http://127.0.0.1:4010/developer */
  baseUrl: string;
  /** {auth_url}, e.g. http://127.0.0.1:4010 */
  authUrl: string;
  port: number;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the sandbox and listens (port 0 picks a free port). Unknown fault or variant names throw. */
export async function startSandbox(options: SandboxInput = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options);
  const app = await buildSandbox(resolved);
  await app.listen({ host: resolved.host, port: resolved.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const authUrl = `${resolved.tls ? 'https' : 'http'}://${host}:${port}`;
  return { baseUrl: `${authUrl}${BASE_PATH}`, authUrl, port, app, close: () => app.close() };
}
