// The faults that only change a response, as data: per fault, which responses it rewrites and how
// (responses.ts applies them). The wrong-success-status faults come from their own table (faults/status.ts).
import type { SandboxContext } from './context.ts';
import type { FaultName } from './faults/index.ts';
import { statusFaultName, statusSwapEntries } from './faults/status.ts';
import { onSuccessOf, operationOf, type ResponseRewrite } from './response-rewrite.ts';
import { routeTable } from './route-table.ts';

type Json = Record<string, unknown>;
/** A body rewrite of a JSON object (every body these faults rewrite is one). */
const edit =
  (change: (body: Json) => Json) =>
  (json: unknown): Json =>
    change(json as Json);

/** The operations served under the user-data rate limit (user/routes.ts): those of a user token. */
const isUserOperation = (operationId: string | undefined): boolean =>
  operationId !== undefined && typeof routeTable[operationId as keyof typeof routeTable].auth === 'object';

const statusSwaps = statusSwapEntries.map(([operationId, swap]): [FaultName, ResponseRewrite] => [
  statusFaultName(operationId),
  { applies: onSuccessOf(operationId), status: swap.to, ...(swap.body ? { body: () => swap.body } : {}) },
]);

/** The table, in the order the active rewrites apply (the wrong success statuses last). */
export function faultResponses(ctx: SandboxContext): Partial<Record<FaultName, ResponseRewrite>> {
  return {
    // ------------------------------------------------------------ user data
    'envelope-records-renamed': {
      applies: onSuccessOf('listCycles', 'listRecoveries', 'listSleeps', 'listWorkouts'),
      body: edit(({ records, ...page }) => ({ data: records, ...page })),
    },
    'profile-not-json': {
      applies: onSuccessOf('getBasicProfile'),
      headers: () => ({ 'content-type': 'text/plain; charset=utf-8' }),
    },
    'single-cycle-differs': {
      applies: onSuccessOf('getCycleById'),
      body: edit((cycle) => ({ ...cycle, updated_at: ctx.options.now().toISOString() })),
    },
    'activity-mapping-id-not-uuid': {
      applies: onSuccessOf('getActivityMapping'),
      body: (_json, request) => ({
        v2_activity_id: Number((request.params as { activityV1Id: string }).activityV1Id),
      }),
    },
    'revoke-answers-200-with-body': {
      applies: onSuccessOf('revokeUserAccess'),
      status: 200,
      body: () => ({ revoked: true }),
    },
    'rate-limit-429-without-headers': {
      applies: (request, status) => status === 429 && isUserOperation(operationOf(request)),
      headers: () => ({
        'retry-after': undefined,
        'x-ratelimit-limit': undefined,
        'x-ratelimit-remaining': undefined,
        'x-ratelimit-reset': undefined,
      }),
    },
    // ------------------------------------------------------------ wrong success statuses
    ...Object.fromEntries(statusSwaps),
  };
}
