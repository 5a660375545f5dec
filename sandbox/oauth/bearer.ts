// Bearer-token authentication of the user data API (RFC 6750). A route declares what it needs in its
// config: `userScope` (the OAuth scope, omitted for "any valid user token"), `userScopeFault` (the fault
// that skips the scope check of that operation) and `userScopeNotFoundFault` (the fault that answers a
// token lacking the scope 404).
//
//   no Authorization header               401  WWW-Authenticate: Bearer
//   malformed, unknown, expired, revoked  401  WWW-Authenticate: Bearer error="invalid_token"
//   valid token without the scope         401  WWW-Authenticate: Bearer error="insufficient_scope", scope="…"
//                                         (403, RFC 6750's status, with variant other-refusal-statuses)
//
// The seed lists 401 (not RFC 6750's 403) as the only authorization failure status, so a missing scope
// is a 401 too by default.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { HttpError, notFound } from '../errors.ts';
import type { FaultName } from '../faults/index.ts';
import type { UserServices } from '../user/services.ts';
import { READ_SCOPES } from './scopes.ts';
import type { Grant } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The grant behind the request's bearer token (set by the user-data authentication hook). */
    userGrant: Grant | null;
  }
  interface FastifyContextConfig {
    userScope?: string;
    userScopeFault?: FaultName;
    userScopeNotFoundFault?: FaultName;
  }
}

const invalidToken = (description: string): HttpError =>
  new HttpError(401, 'invalid_token', description, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

const insufficientScope = (scope: string, status: 401 | 403): HttpError =>
  new HttpError(status, 'insufficient_scope', `This operation requires the scope ${scope}`, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });

/** RFC 6750 §2.1: "Bearer" 1*SP b64token. */
const bearerPattern = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Fault late-first-copy-invalid-token-200: the request the instance served on a never-issued token, which
 * leaves late (sandbox/fault-responses.ts).
 */
export const lateOnNeverIssuedToken = new WeakSet<FastifyRequest>();

export function bearerAuthHook(services: UserServices): onRequestAsyncHookHandler {
  const { ctx, tokens, accounts, clients } = services;
  // Served in place of a real grant by the faults that accept missing or invalid tokens.
  const fallback: Grant = {
    userId: accounts[0]?.userId ?? 0,
    clientId: [...clients.keys()][0] ?? '',
    scopes: READ_SCOPES,
  };

  let neverIssuedServed = false;
  /**
   * Fault late-first-copy-invalid-token-200: the instance's first read of a scope (a declared security
   * requirement) with a well-formed token it never issued.
   */
  const servedOnceLate = (request: FastifyRequest, token: string | undefined): boolean => {
    const declared = request.method === 'GET' && request.routeOptions.config.userScope !== undefined;
    if (neverIssuedServed || token === undefined || !declared) return false;
    if (!ctx.fault('late-first-copy-invalid-token-200')) return false;
    neverIssuedServed = true;
    lateOnNeverIssuedToken.add(request);
    return true;
  };

  const authenticate = (request: FastifyRequest): Grant => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      if (ctx.fault('auth-missing-token-accepted')) return fallback;
      throw new HttpError(401, 'invalid_token', 'A bearer token is required', {
        'www-authenticate': 'Bearer',
      });
    }
    const token = bearerPattern.exec(header.trim())?.[1];
    const check = token === undefined ? ({ status: 'unknown' } as const) : tokens.checkAccessToken(token);
    switch (check.status) {
      case 'valid':
        return check.grant;
      case 'expired':
        if (ctx.fault('auth-expired-token-accepted')) return check.grant;
        throw invalidToken('The access token expired');
      case 'revoked':
        if (ctx.fault('revoke-tokens-still-valid')) return check.grant;
        throw invalidToken('The access token was revoked');
      default:
        if (ctx.fault('auth-invalid-token-accepted') || servedOnceLate(request, token)) return fallback;
        throw invalidToken('The access token is malformed or unknown');
    }
  };

  return async (request: FastifyRequest) => {
    const grant = authenticate(request);
    request.userGrant = grant;
    const { userScope, userScopeFault, userScopeNotFoundFault } = request.routeOptions.config;
    if (userScope && !grant.scopes.includes(userScope) && !(userScopeFault && ctx.fault(userScopeFault))) {
      if (userScopeNotFoundFault && ctx.fault(userScopeNotFoundFault)) throw notFound();
      throw insufficientScope(userScope, ctx.variant('other-refusal-statuses') ? 403 : 401);
    }
  };
}

/** The grant of an authenticated request (the hook has run). */
export function grantOf(request: FastifyRequest): Grant {
  if (!request.userGrant) throw new HttpError(401, 'invalid_token', 'Not authenticated');
  return request.userGrant;
}
