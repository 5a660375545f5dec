// What a response rewrite is (responses.ts applies them; fault-responses.ts and variant-responses.ts hold
// them) and the predicates the tables share.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from './route-table.ts';

export interface ResponseRewrite {
  /** Whether it rewrites this response (given the status so far). */
  applies(request: FastifyRequest, status: number): boolean;
  /** The status to answer instead. */
  status?: number;
  /** The body to answer instead, from the JSON body so far (undefined: none); undefined answers no body. */
  body?(json: unknown, request: FastifyRequest): unknown;
  /** Headers to set, or to remove (undefined), given the reply so far. */
  headers?(reply: FastifyReply): Readonly<Record<string, string | undefined>>;
  /** A body sent as it is, not as JSON (a page that is not JSON); replaces `body`. */
  raw?(): string;
  /** Holds the answer this long before it leaves (a late answer), in ms. */
  lateMs?: number;
}

export const operationOf = (request: FastifyRequest): OperationId | undefined =>
  request.routeOptions.config.operationId;

/** `applies`, but only the first time it does on this instance (the first answer of a kind). */
export function firstOnly(applies: ResponseRewrite['applies']): ResponseRewrite['applies'] {
  let taken = false;
  return (request, status) => {
    if (taken || !applies(request, status)) return false;
    taken = true;
    return true;
  };
}

/** Applies to the success response of any of `operations` (the status its route table entry gives). */
export const onSuccessOf =
  (...operations: OperationId[]) =>
  (request: FastifyRequest, status: number): boolean => {
    const operationId = operationOf(request);
    return (
      operationId !== undefined &&
      operations.includes(operationId) &&
      status === request.routeOptions.config.successStatus
    );
  };
