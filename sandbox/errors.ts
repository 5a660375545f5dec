// Error responses of the sandbox. The seed leaves the error body unspecified; the sandbox always answers
// JSON `{ error, message }` with an OAuth-style error code. Client mistakes are 4xx, never 5xx.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, 'invalid_request', message);
export const notFound = (message = 'No resource found'): HttpError =>
  new HttpError(404, 'not_found', message);

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply
    .code(error.statusCode)
    .headers(error.headers)
    .send({ error: error.code, message: error.message });
}

const codeByStatus: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

/** Maps any error to a JSON answer: HttpError as is, validation and other client errors to 4xx. */
export function toHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  if (error.validation) return badRequest(error.message);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new HttpError(status, codeByStatus[status] ?? 'client_error', error.message);
  return new HttpError(500, 'server_error', 'Internal server error');
}

/** Root error handler, not-found handler and framework errors (bad URLs, bad content types) of the app. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    if (httpError.statusCode >= 500) request.log.error(error);
    return sendError(reply, httpError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, notFound(`No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/** Fastify `frameworkErrors` option: malformed URLs and similar errors raised before routing. */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  sendError(reply, toHttpError(error));
}
