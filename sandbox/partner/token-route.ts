// POST /v2/partner/token: OAuth 2.0 client credentials for trusted partners. Invalid client credentials
// (wrong secret, unknown client, missing client_id/client_secret) get 401 invalid_client; a body that is
// not a JSON object, or a wrong grant_type/scope, gets 400. grant_type and scope may be omitted.
// Variant token-400: a missing client_id or client_secret gets 400. Variant other-refusal-statuses: a body
// that is not a JSON object gets 422. Fault partner-token-429: every token request gets 429 (option
// partnerTokenRefusals: each client's first n).
//
// Sandbox-only extension: `sandbox_expires_in` (integer seconds, 0–86400) sets the token lifetime; 0 issues
// an already-expired token (expires_in 0) for expired-token tests. Default lifetime: the option tokenLifetimeSeconds.
// Variant short-partner-tokens: every token lives SHORT_PARTNER_TOKEN_SECONDS, sandbox_expires_in ignored.
import type { FastifyInstance } from 'fastify';
import { badRequest, HttpError } from '../errors.ts';
import { routeOptions } from '../route-table.ts';
import { invalidClient } from './errors.ts';
import { PartnerRegistry } from './partners.ts';
import type { PartnerRuntime } from './runtime.ts';
import { partnerTokenRequestSchema } from './schemas.ts';
import type { Partner, PartnerTokenRequest } from './types.ts';

export const partnerGrantType = 'client_credentials';
export const partnerScope = 'service-partner/token';
/** Variant short-partner-tokens: the lifetime of every partner token. */
export const SHORT_PARTNER_TOKEN_SECONDS = 20;

/** The lifetime of a token issued for `body`: the variant's, the extension's, else the instance's. */
const lifetimeOf = ({ ctx }: PartnerRuntime, body: PartnerTokenRequest): number =>
  ctx.variant('short-partner-tokens')
    ? SHORT_PARTNER_TOKEN_SECONDS
    : (body.sandbox_expires_in ?? ctx.options.tokenLifetimeSeconds);

export function registerTokenRoute(scope: FastifyInstance, runtime: PartnerRuntime): void {
  const refused = new Map<string, number>();
  /**
   * Fault partner-token-429: this request is refused, every one, or (option partnerTokenRefusals) each known
   * client's first n with its right secret (a check's request with wrong credentials is answered as ever).
   */
  const rateLimited = (body: PartnerTokenRequest | undefined): boolean => {
    if (!runtime.ctx.fault('partner-token-429')) return false;
    const limit = runtime.ctx.options.partnerTokenRefusals;
    if (limit === undefined) return true;
    const partner = runtime.partners.find(body?.client_id ?? '');
    if (!partner || !PartnerRegistry.secretMatches(partner, body?.client_secret ?? '')) return false;
    const count = (refused.get(partner.clientId) ?? 0) + 1;
    refused.set(partner.clientId, count);
    return count <= limit;
  };
  scope.route<{ Body: PartnerTokenRequest }>({
    ...routeOptions('requestPartnerToken'),
    schema: { body: partnerTokenRequestSchema },
    attachValidation: true,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (rateLimited(request.body))
        throw new HttpError(429, 'rate_limited', 'Over the rate limit: try again later', {
          'retry-after': '1',
        });
      if (request.validationError)
        throw rejection(request.body, {
          missingIs400: runtime.ctx.variant('token-400'),
          notAnObjectIs422: runtime.ctx.variant('other-refusal-statuses'),
        });
      const body = request.body;
      const partner = authenticateClient(runtime, body);
      if (body.grant_type !== undefined && body.grant_type !== partnerGrantType) {
        throw new HttpError(400, 'unsupported_grant_type', `grant_type must be ${partnerGrantType}`);
      }
      if (body.scope !== undefined && body.scope !== partnerScope) {
        throw new HttpError(400, 'invalid_scope', `scope must be ${partnerScope}`);
      }
      const lifetime = lifetimeOf(runtime, body);
      return {
        access_token: runtime.tokens.issue(partner.clientId, lifetime),
        token_type: 'bearer',
        expires_in: lifetime,
      };
    },
  });
}

/**
 * Why a body that failed the schema is refused: missing or non-string credentials are invalid_client;
 * with variant token-400 a missing one is a malformed request (400).
 */
function rejection(
  body: unknown,
  { missingIs400, notAnObjectIs422 }: { missingIs400: boolean; notAnObjectIs422: boolean },
): HttpError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return notAnObjectIs422
      ? new HttpError(422, 'invalid_request', 'The body must be a JSON object')
      : badRequest('The body must be a JSON object');
  }
  const { client_id, client_secret } = body as Record<string, unknown>;
  if (missingIs400 && (client_id === undefined || client_secret === undefined)) {
    return badRequest('client_id and client_secret are required');
  }
  if (typeof client_id !== 'string' || typeof client_secret !== 'string') return invalidClient();
  return badRequest('Invalid token request parameters');
}

function authenticateClient({ ctx, partners }: PartnerRuntime, body: PartnerTokenRequest): Partner {
  const partner = partners.find(body.client_id);
  if (!partner) {
    if (ctx.fault('partner-token-unknown-client-accepted')) return partners.first;
    throw invalidClient();
  }
  if (
    !PartnerRegistry.secretMatches(partner, body.client_secret) &&
    !ctx.fault('partner-token-wrong-secret-accepted')
  ) {
    throw invalidClient();
  }
  return partner;
}
