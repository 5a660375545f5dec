// The faults that only change a response, as data: per fault, which responses it rewrites and how
// (responses.ts applies them). The wrong-success-status faults come from their own table (faults/status.ts).
import type { SandboxContext } from './context.ts';
import type { FaultName } from './faults/index.ts';
import { statusFaultName, statusSwapEntries } from './faults/status.ts';
import { lateOnNeverIssuedToken } from './oauth/bearer.ts';
import { firstOnly, onSuccessOf, operationOf, type ResponseRewrite } from './response-rewrite.ts';
import { routeTable } from './route-table.ts';
import { buildAccounts } from './user/accounts.ts';
import { USER_TOKEN_PATH } from './variant-responses.ts';

type Json = Record<string, unknown>;
/** A body rewrite of a JSON object (every body these faults rewrite is one). */
const edit =
  (change: (body: Json) => Json) =>
  (json: unknown): Json =>
    change(json as Json);

const withoutCode = ({ code: _, ...serviceRequest }: Json): Json => serviceRequest;

/** The operations served under the user-data rate limit (user/routes.ts): those of a user token. */
const isUserOperation = (operationId: string | undefined): boolean =>
  operationId !== undefined && typeof routeTable[operationId as keyof typeof routeTable].auth === 'object';

const statusSwaps = statusSwapEntries.map(([operationId, swap]): [FaultName, ResponseRewrite] => [
  statusFaultName(operationId),
  { applies: onSuccessOf(operationId), status: swap.to, ...(swap.body ? { body: () => swap.body } : {}) },
]);

/**
 * How late the faults late-first-copy-* answer: past any resend mark (at most 10 s, src/http/request-timeout.ts),
 * within the 30 s bound, so that the client sends the read again and goes on with the copy, which is right.
 */
export const LATE_FIRST_COPY_MS = 12_000;
/** How late first-copy-late-500 answers: past the resend mark of a target that answers in milliseconds. */
const FIRST_COPY_LATE_500_MS = 3_000;

/** Fault partner-token-503-in-run: each client's token requests after its first answer 503. */
function afterFirstTokenOfClient(): ResponseRewrite['applies'] {
  const requests = new Map<unknown, number>();
  return (request, status) => {
    if (!onSuccessOf('requestPartnerToken')(request, status)) return false;
    const client = (request.body as { client_id?: unknown } | undefined)?.client_id;
    requests.set(client, (requests.get(client) ?? 0) + 1);
    return (requests.get(client) ?? 0) > 1;
  };
}

/** The table, in the order the active rewrites apply (the wrong success statuses last). */
export function faultResponses(ctx: SandboxContext): Partial<Record<FaultName, ResponseRewrite>> {
  const lateMs = ctx.options.lateFirstCopyMs ?? LATE_FIRST_COPY_MS;
  const userB = buildAccounts(ctx.credentials)[1]?.userId;
  return {
    // ------------------------------------------------------------ user data
    'envelope-records-renamed': {
      applies: onSuccessOf('listCycles', 'listRecoveries', 'listSleeps', 'listWorkouts'),
      body: edit(({ records, ...page }) => ({ data: records, ...page })),
    },
    'cycles-without-limit-not-json': {
      applies: (request, status) =>
        onSuccessOf('listCycles')(request, status) &&
        !new URL(request.url, 'http://sandbox.invalid').searchParams.has('limit'),
      headers: () => ({ 'content-type': 'text/html; charset=utf-8' }),
      raw: () => '<html><body><h1>Cycles</h1><p>See the developer portal.</p></body></html>',
    },
    'user-b-collection-500': {
      applies: (request, status) =>
        onSuccessOf('listCycles')(request, status) && request.userGrant?.userId === userB,
      status: 500,
      body: () => ({ error: 'server_error', message: 'Internal server error' }),
    },
    // A first answer late and wrong; the copy the client sends again meanwhile, and every later one, right.
    'late-first-copy-404': {
      applies: firstOnly(onSuccessOf('getCycleById')),
      status: 404,
      body: () => ({ error: 'not_found', message: 'No resource found' }),
      lateMs,
    },
    'late-first-copy-broken-body': {
      applies: firstOnly(onSuccessOf('getSleepById')),
      body: edit((sleep) => ({ ...sleep, nap: String(sleep.nap) })),
      lateMs,
    },
    'late-first-copy-invalid-token-200': {
      applies: (request) => lateOnNeverIssuedToken.has(request),
      lateMs,
    },
    'first-copy-late-500': {
      applies: firstOnly(onSuccessOf('getBodyMeasurement')),
      status: 500,
      body: () => ({ error: 'internal_error', message: 'the first copy failed late' }),
      lateMs: FIRST_COPY_LATE_500_MS,
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
    // ------------------------------------------------------------ user OAuth
    'scope-stated-empty': {
      applies: (request, status) => status === 200 && request.routeOptions.url === USER_TOKEN_PATH,
      body: edit((token) => ({ ...token, scope: '' })),
    },
    // ------------------------------------------------------------ partner
    'partner-token-503-in-run': {
      applies: afterFirstTokenOfClient(),
      status: 503,
      body: () => ({ error: 'temporarily_unavailable', message: 'The token service is unavailable' }),
    },
    'partner-token-type-not-bearer': {
      applies: onSuccessOf('requestPartnerToken'),
      body: edit((token) => ({ ...token, token_type: 'mac' })),
    },
    'partner-token-expires-in-overflow': {
      applies: onSuccessOf('requestPartnerToken'),
      body: edit((token) => ({ ...token, expires_in: 2 ** 31 })),
    },
    // After the overflow: with both on, 0 wins.
    'partner-token-expires-in-zero': {
      applies: onSuccessOf('requestPartnerToken'),
      body: edit((token) => ({ ...token, expires_in: 0 })),
    },
    'partner-service-request-missing-code': {
      applies: onSuccessOf('getRequisition', 'getServiceRequest', 'updateServiceRequestStatus'),
      body: edit((body) =>
        Array.isArray(body.service_requests)
          ? { ...body, service_requests: (body.service_requests as Json[]).map(withoutCode) }
          : withoutCode(body),
      ),
    },
    'partner-patient-id-not-uuid': {
      applies: onSuccessOf('getRequisition'),
      body: edit((requisition) => {
        const patient = requisition.patient as Json;
        return { ...requisition, patient: { ...patient, id: `PAT-${String(patient.id).slice(0, 8)}` } };
      }),
    },
    'partner-appointment-start-time-invalid': {
      applies: onSuccessOf('getRequisition'),
      body: edit((requisition) => ({
        ...requisition,
        appointments: (requisition.appointments as Json[]).map((appointment) => ({
          ...appointment,
          start_time: 'tomorrow morning',
        })),
      })),
    },
    'partner-requisition-missing-field': {
      applies: onSuccessOf('getRequisition'),
      body: edit(({ updated_at: _, ...requisition }) => requisition),
    },
    'partner-service-request-status-204': {
      applies: onSuccessOf('updateServiceRequestStatus'),
      status: 204,
      body: () => undefined,
    },
    'partner-results-200-with-body': {
      applies: onSuccessOf('createServiceRequestResults'),
      status: 200,
      body: () => ({ status: 'created' }),
    },
    // ------------------------------------------------------------ wrong success statuses
    ...Object.fromEntries(statusSwaps),
  };
}
