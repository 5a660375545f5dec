// The one handler behind every single-record read (by id, cycle sub-resources, body measurement, profile,
// activity mapping): path parameter validation (Fastify schema), lookup, ownership (another user's record
// is "not found"), pre-serialised JSON answer.
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '../../src/contract/operation-model.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import type { FaultName } from '../faults/index.ts';
import { grantOf } from '../oauth/bearer.ts';
import type { ReadScope } from '../oauth/scopes.ts';
import type { UserServices } from './services.ts';
import type { Stored } from './store.ts';

export type IdKind = 'int64' | 'uuid';

export interface SingleOperation {
  operationId: OperationId;
  url: string;
  /** Faults that serve this operation at another path (and not at `url`). */
  urlFaults?: Partial<Record<FaultName, string>>;
  /** Omitted: any valid user token will do. */
  scope?: ReadScope;
  scopeFault?: FaultName;
  /** The path parameter naming the record; omitted for per-user resources (body, profile). */
  param?: { name: string; kind: IdKind };
  /** The record for a normalised id (int64 as a decimal string, uuid in lower case). */
  find(services: UserServices, id: string, userId: number): Stored | undefined;
  /** Media type of the answer (a fault sends one operation's JSON as text). */
  mediaType?(ctx: SandboxContext): string;
}

const patterns: Record<IdKind, string> = {
  int64: '^-?[0-9]{1,19}$',
  uuid: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The lookup key of a path id, or undefined when it cannot name any record. */
function normalise(ctx: SandboxContext, kind: IdKind, raw: string): string | undefined {
  if (kind === 'uuid') return raw.toLowerCase();
  if (!/^-?[0-9]+$/.test(raw)) return undefined; // reachable only when the pattern check is faulted away
  const value = BigInt(raw);
  if (value < INT64_MIN || value > INT64_MAX) throw badRequest('The id is not an int64');
  if (ctx.fault('server-error-on-large-cycle-id') && !Number.isSafeInteger(Number(value))) {
    throw new Error('Injected fault: id beyond 2^53');
  }
  return value.toString();
}

export function registerSingle(
  app: FastifyInstance,
  services: UserServices,
  operation: SingleOperation,
): void {
  const { ctx } = services;
  const { param } = operation;
  const paramsSchema = param && {
    type: 'object',
    properties: {
      [param.name]: ctx.fault('malformed-id-404')
        ? { type: 'string' }
        : { type: 'string', pattern: patterns[param.kind] },
    },
    required: [param.name],
  };
  const mediaType = operation.mediaType?.(ctx) ?? 'application/json; charset=utf-8';
  const url =
    Object.entries(operation.urlFaults ?? {}).find(([name]) => ctx.fault(name as FaultName))?.[1] ??
    operation.url;

  app.get(
    url,
    {
      schema: paramsSchema ? { params: paramsSchema } : {},
      config: {
        operationId: operation.operationId,
        userScope: operation.scope,
        userScopeFault: operation.scopeFault,
      },
    },
    (request, reply) => {
      const grant = grantOf(request);
      let key = '';
      if (param) {
        const raw = (request.params as Record<string, string>)[param.name] ?? '';
        const normalised = normalise(ctx, param.kind, raw);
        if (normalised === undefined) throw notFound();
        key = normalised;
      }
      const found = operation.find(services, key, grant.userId);
      if (!found || (found.userId !== grant.userId && !ctx.fault('foreign-records-visible')))
        throw notFound();
      return reply.type(mediaType).send(found.json);
    },
  );
}
