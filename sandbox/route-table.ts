// The sandbox's own table of the contract's 20 operations: method, path under {base_url}, the authentication
// it requires and the status it answers on success. The sandbox is independent of the suite by decision
// (issue 12: the oracle shares no code with the checker), so it states these facts itself, once, here;
// tests/self/sandbox-routes.spec.ts compares the table with specs/openapi.yaml, so drift is caught without
// shared code. Every route is registered through `routeOptions`, which also gives the route its config.
import type { FastifyInstance } from 'fastify';
import type { ReadScope } from './oauth/scopes.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What a request must carry: a user token (with a scope, or `any` valid one: the contract lists no scope, or
 * does not show the security requirement), a partner token, or nothing.
 */
export type RouteAuth = { user: ReadScope | 'any' } | 'partner' | 'none';

export interface Route {
  method: HttpMethod;
  /** As the contract writes it, e.g. /v2/cycle/{cycleId}. */
  path: string;
  auth: RouteAuth;
  /** The status of a successful answer. */
  success: number;
}

const userRead = (path: string, scope: ReadScope | 'any'): Route => ({
  method: 'GET',
  path,
  auth: { user: scope },
  success: 200,
});
const partner = (method: HttpMethod, path: string, success: number): Route => ({
  method,
  path,
  auth: 'partner',
  success,
});

export const routeTable = {
  getCycleById: userRead('/v2/cycle/{cycleId}', 'read:cycles'),
  listCycles: userRead('/v2/cycle', 'read:cycles'),
  getSleepForCycle: userRead('/v2/cycle/{cycleId}/sleep', 'any'),
  getRecoveryForCycle: userRead('/v2/cycle/{cycleId}/recovery', 'read:recovery'),
  listRecoveries: userRead('/v2/recovery', 'read:recovery'),
  getSleepById: userRead('/v2/activity/sleep/{sleepId}', 'read:sleep'),
  listSleeps: userRead('/v2/activity/sleep', 'read:sleep'),
  getWorkoutById: userRead('/v2/activity/workout/{workoutId}', 'read:workout'),
  listWorkouts: userRead('/v2/activity/workout', 'read:workout'),
  getBodyMeasurement: userRead('/v2/user/measurement/body', 'read:body_measurement'),
  getBasicProfile: userRead('/v2/user/profile/basic', 'read:profile'),
  revokeUserAccess: { method: 'DELETE', path: '/v2/user/access', auth: { user: 'any' }, success: 204 },
  getActivityMapping: userRead('/v1/activity-mapping/{activityV1Id}', 'any'),
  requestPartnerToken: { method: 'POST', path: '/v2/partner/token', auth: 'none', success: 200 },
  // The contract's table gives 204; the sandbox answers as its reference samples show (variant test-data-204).
  addTestData: partner('POST', '/v2/partner/development/add-test-data', 200),
  getRequisition: partner('GET', '/v2/partner/requisition/{id}', 200),
  getServiceRequest: partner('GET', '/v2/partner/service-request/{id}', 200),
  updateRequisitionStatus: partner('PATCH', '/v2/partner/requisition/{id}/status', 204),
  updateServiceRequestStatus: partner('PATCH', '/v2/partner/service-request/{id}/status', 200),
  createServiceRequestResults: partner('POST', '/v2/partner/service-request/{id}/results', 201),
} as const satisfies Record<string, Route>;

export type OperationId = keyof typeof routeTable;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's operationId of the route (docs/layout.md, Conventions). */
    operationId?: OperationId;
    /** The status the route answers on success (set before its handler runs: registerSuccessStatus). */
    successStatus?: number;
  }
}

/** A contract path in Fastify's syntax: /v2/cycle/{cycleId} → /v2/cycle/:cycleId. */
export const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The method, url and config of an operation's route (spread into Fastify's `route` options); `path` serves
 * it elsewhere (a fault). The config names the operation, its success status and its user scope, if any.
 */
export function routeOptions(operationId: OperationId, path: string = routeTable[operationId].path) {
  const { method, auth, success } = routeTable[operationId] as Route;
  const userScope = typeof auth === 'object' && auth.user !== 'any' ? auth.user : undefined;
  return { method, url: fastifyPath(path), config: { operationId, successStatus: success, userScope } };
}

/**
 * Sets each operation's success status before its handler runs, so handlers only send a body; an error or
 * a fault that answers another status sets its own. Call it on the root instance before registering routes.
 */
export function registerSuccessStatus(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const { successStatus } = request.routeOptions.config;
    if (successStatus !== undefined) reply.code(successStatus);
  });
}
