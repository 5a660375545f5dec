// Partner-specific errors (built on the sandbox's HttpError) and the partner scope's error handler, which
// only adds the `partner-invalid-body-server-error` fault to the sandbox's common error mapping.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { HttpError, sendError, toHttpError } from '../errors.ts';

export const invalidToken = (message: string): HttpError =>
  new HttpError(401, 'invalid_token', message, { 'www-authenticate': 'Bearer error="invalid_token"' });

export const invalidClient = (): HttpError =>
  new HttpError(401, 'invalid_client', 'Invalid client credentials');

export function partnerErrorHandler(ctx: SandboxContext) {
  return (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!(error instanceof HttpError) && error.validationContext === 'body') {
      if (ctx.fault('partner-invalid-body-server-error'))
        return sendError(reply, new HttpError(500, 'server_error', 'Internal server error'));
    }
    const httpError = toHttpError(error);
    if (httpError.statusCode >= 500) request.log.error(error);
    return sendError(reply, httpError);
  };
}
