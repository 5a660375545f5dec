// Partner bearer authentication (onRequest hook): `Authorization: Bearer <token>` with a token issued by
// POST /v2/partner/token and not expired; otherwise 401 (no token at all: 403, as API gateways answer, with
// variant other-refusal-statuses). Sets request.partnerClientId.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';
import { invalidToken } from './errors.ts';
import type { PartnerRuntime } from './runtime.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Client id of the authenticated partner (partner scope only). */
    partnerClientId: string | null;
  }
}

export function addPartnerAuthentication(scope: FastifyInstance, runtime: PartnerRuntime): void {
  scope.decorateRequest('partnerClientId', null);
  scope.addHook('onRequest', async (request) => {
    request.partnerClientId = authenticate(runtime, request.headers.authorization);
  });
}

/** The authenticated partner's client id (only valid after the authentication hook ran). */
export function callerOf(request: FastifyRequest): string {
  if (request.partnerClientId === null) throw invalidToken('Missing bearer token');
  return request.partnerClientId;
}

function authenticate({ ctx, tokens, partners }: PartnerRuntime, header: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  const token = match?.[1];
  if (token === undefined) {
    if (header === undefined && ctx.fault('partner-missing-token-accepted')) return partners.first.clientId;
    if (header === undefined && ctx.variant('other-refusal-statuses'))
      throw new HttpError(403, 'forbidden', 'Missing Authentication Token');
    throw invalidToken('Missing bearer token');
  }
  const grant = tokens.lookup(token);
  if (!grant) {
    if (ctx.fault('partner-garbage-token-accepted')) return partners.first.clientId;
    throw invalidToken('Invalid token');
  }
  if (tokens.isExpired(grant) && !ctx.fault('partner-expired-token-accepted'))
    throw invalidToken('Token expired');
  return grant.clientId;
}
