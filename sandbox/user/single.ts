// The one handler behind every single-record read (by id, cycle sub-resources, body measurement, profile,
// activity mapping): path parameter validation (Fastify schema), lookup, ownership (another user's record
// is "not found"), pre-serialised JSON answer.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import type { FaultName } from '../faults/index.ts';
import { grantOf } from '../oauth/bearer.ts';
import { type OperationId, routeOptions, routeTable } from '../route-table.ts';
import type { UserServices } from './services.ts';
import type { Stored } from './store.ts';

export type IdKind = 'int64' | 'uuid';

export interface SingleOperation {
  operationId: OperationId;
  /** Faults that serve this operation at another path (and not at the route table's). */
  pathFaults?: Partial<Record<FaultName, string>>;
  /** The fault that skips this operation's scope check (when it has a scope). */
  scopeFault?: FaultName;
  /** The fault that answers a token lacking this operation's scope 404 (as if nothing were found). */
  scopeNotFoundFault?: FaultName;
  /** The kind of id the path parameter holds; omitted for per-user resources (body, profile). */
  idKind?: IdKind;
  /** The record for a normalised id (int64 as a decimal string, uuid in lower case). */
  find(services: UserServices, id: string, userId: number): Stored | undefined;
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
  if (value < INT64_MIN || value > INT64_MAX) {
    // Variant int64-overflow-404: an integer beyond the range names no record.
    if (ctx.variant('int64-overflow-404')) return undefined;
    throw badRequest('The id is not an int64');
  }
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
  // The path parameter naming the record: the one parameter of the route table's path, if any.
  const name = /\{(\w+)\}/.exec(routeTable[operation.operationId].path)?.[1];
  const param =
    name === undefined || operation.idKind === undefined ? undefined : { name, kind: operation.idKind };
  const paramsSchema = param && {
    type: 'object',
    properties: {
      [param.name]: ctx.fault('malformed-id-404')
        ? { type: 'string' }
        : {
            type: 'string',
            // Variant int64-overflow-404: any run of digits passes; normalise() answers those beyond int64.
            pattern:
              param.kind === 'int64' && ctx.variant('int64-overflow-404')
                ? '^-?[0-9]+$'
                : patterns[param.kind],
          },
    },
    required: [param.name],
  };
  const path = Object.entries(operation.pathFaults ?? {}).find(([fault]) =>
    ctx.fault(fault as FaultName),
  )?.[1];
  const route = routeOptions(operation.operationId, path);

  app.route({
    ...route,
    schema: paramsSchema ? { params: paramsSchema } : {},
    config: {
      ...route.config,
      userScopeFault: operation.scopeFault,
      userScopeNotFoundFault: operation.scopeNotFoundFault,
    },
    handler: (request, reply) => {
      const grant = grantOf(request);
      let key = '';
      if (param) {
        const raw = (request.params as Record<string, string>)[param.name] ?? '';
        const normalised = normalise(ctx, param.kind, raw);
        if (normalised === undefined) throw notFound();
        key = normalised;
      }
      const found = operation.find(services, key, grant.userId);
      if (!found) throw notFound();
      if (found.userId !== grant.userId && !ctx.fault('foreign-records-visible'))
        throw ctx.variant('other-refusal-statuses')
          ? new HttpError(403, 'forbidden', 'The record belongs to another user')
          : notFound();
      return reply.type('application/json; charset=utf-8').send(found.json);
    },
  });
}
