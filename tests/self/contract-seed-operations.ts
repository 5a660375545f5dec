/**
 * The contract's operations, transcribed from the seed (`shared/seed/000_807caed589bae617.txt`): what the
 * OpenAPI document (contract-openapi.spec.ts) and the operation catalogue (contract-operations.spec.ts)
 * are compared with.
 */
import type { OperationId, UserScope } from '../../src/contract/operation-model.ts';

/** How the contract states an operation's authentication. */
export type SeedSecurity =
  | UserScope // "Read scope" column
  | 'oauth-no-scope' // DELETE /v2/user/access: "OAuth, no scope listed"
  | 'partner' // "These all use Partner authentication, except the token request."
  | 'none' // POST /v2/partner/token
  | 'unspecified'; // "Security requirement of ... : not shown."

export interface SeedOperation {
  readonly id: OperationId;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly area: 'user-data' | 'utility' | 'partner';
  readonly security: SeedSecurity;
  /** Success statuses (endpoint tables) followed by error statuses (Errors table, Authentication). */
  readonly statuses: readonly number[];
  readonly pathParams: readonly { name: string; type: 'integer' | 'string'; format: 'int64' | 'uuid' }[];
  readonly collection: boolean;
}

const cycleId = [{ name: 'cycleId', type: 'integer', format: 'int64' }] as const;
const partnerId = [{ name: 'id', type: 'string', format: 'uuid' }] as const;

/**
 * Endpoints › User data operations / Utility operation / Partner operations, with the statuses of
 * Errors (400 all user data ops but body measurement and basic profile; 401 all user data ops;
 * 404 single-record reads, cycle sleep, cycle recovery, body measurement, basic profile, activity
 * mapping, partner operations by id, test data; 429 all user data ops; 500 user data ops, activity
 * mapping, test data). Partner 401 for bearer-token operations: Authentication › Partner API step 4
 * ("An expired or invalid token gets 401"). addTestData: 204 from the table, 200 from the reference
 * samples.
 */
// biome-ignore format: one row per contract operation, in the order of the contract's tables
export const SEED_OPERATIONS: readonly SeedOperation[] = [
  { id: 'getCycleById', method: 'GET', path: '/v2/cycle/{cycleId}', area: 'user-data', security: 'read:cycles', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'listCycles', method: 'GET', path: '/v2/cycle', area: 'user-data', security: 'read:cycles', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getSleepForCycle', method: 'GET', path: '/v2/cycle/{cycleId}/sleep', area: 'user-data', security: 'unspecified', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'getRecoveryForCycle', method: 'GET', path: '/v2/cycle/{cycleId}/recovery', area: 'user-data', security: 'read:recovery', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'listRecoveries', method: 'GET', path: '/v2/recovery', area: 'user-data', security: 'read:recovery', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getSleepById', method: 'GET', path: '/v2/activity/sleep/{sleepId}', area: 'user-data', security: 'read:sleep', statuses: [200, 400, 401, 404, 429, 500], pathParams: [{ name: 'sleepId', type: 'string', format: 'uuid' }], collection: false },
  { id: 'listSleeps', method: 'GET', path: '/v2/activity/sleep', area: 'user-data', security: 'read:sleep', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getWorkoutById', method: 'GET', path: '/v2/activity/workout/{workoutId}', area: 'user-data', security: 'read:workout', statuses: [200, 400, 401, 404, 429, 500], pathParams: [{ name: 'workoutId', type: 'string', format: 'uuid' }], collection: false },
  { id: 'listWorkouts', method: 'GET', path: '/v2/activity/workout', area: 'user-data', security: 'read:workout', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getBodyMeasurement', method: 'GET', path: '/v2/user/measurement/body', area: 'user-data', security: 'read:body_measurement', statuses: [200, 401, 404, 429, 500], pathParams: [], collection: false },
  { id: 'getBasicProfile', method: 'GET', path: '/v2/user/profile/basic', area: 'user-data', security: 'read:profile', statuses: [200, 401, 404, 429, 500], pathParams: [], collection: false },
  { id: 'revokeUserAccess', method: 'DELETE', path: '/v2/user/access', area: 'user-data', security: 'oauth-no-scope', statuses: [204, 400, 401, 429, 500], pathParams: [], collection: false },
  { id: 'getActivityMapping', method: 'GET', path: '/v1/activity-mapping/{activityV1Id}', area: 'utility', security: 'unspecified', statuses: [200, 404, 500], pathParams: [{ name: 'activityV1Id', type: 'integer', format: 'int64' }], collection: false },
  { id: 'requestPartnerToken', method: 'POST', path: '/v2/partner/token', area: 'partner', security: 'none', statuses: [200, 401], pathParams: [], collection: false },
  { id: 'addTestData', method: 'POST', path: '/v2/partner/development/add-test-data', area: 'partner', security: 'partner', statuses: [204, 200, 401, 404, 500], pathParams: [], collection: false },
  { id: 'getRequisition', method: 'GET', path: '/v2/partner/requisition/{id}', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'getServiceRequest', method: 'GET', path: '/v2/partner/service-request/{id}', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'updateRequisitionStatus', method: 'PATCH', path: '/v2/partner/requisition/{id}/status', area: 'partner', security: 'partner', statuses: [204, 401, 404], pathParams: partnerId, collection: false },
  { id: 'updateServiceRequestStatus', method: 'PATCH', path: '/v2/partner/service-request/{id}/status', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'createServiceRequestResults', method: 'POST', path: '/v2/partner/service-request/{id}/results', area: 'partner', security: 'partner', statuses: [201, 401, 404], pathParams: partnerId, collection: false },
];

/** "Scopes used by operations": the "Read scope" column's scopes, in the order the tables first name them. */
export const SEED_SCOPES: readonly UserScope[] = [
  ...new Set(SEED_OPERATIONS.map((op) => op.security).filter((s): s is UserScope => s.startsWith('read:'))),
];

const USER_DATA_OPS: readonly OperationId[] = SEED_OPERATIONS.filter((op) => op.area === 'user-data').map(
  (op) => op.id,
);
const PARTNER_BY_ID: readonly OperationId[] = [
  'getRequisition',
  'getServiceRequest',
  'updateRequisitionStatus',
  'updateServiceRequestStatus',
  'createServiceRequestResults',
];
const PARTNER_BEARER_OPS: readonly OperationId[] = ['addTestData', ...PARTNER_BY_ID];

/** The Errors table of the contract ("Applies to" column), plus partner 401 (Authentication). */
export const ERRORS_TABLE: Readonly<Record<number, readonly OperationId[]>> = {
  400: USER_DATA_OPS.filter((id) => id !== 'getBodyMeasurement' && id !== 'getBasicProfile'),
  401: [...USER_DATA_OPS, 'requestPartnerToken', ...PARTNER_BEARER_OPS],
  404: [
    'getCycleById',
    'getSleepById',
    'getWorkoutById',
    'getSleepForCycle',
    'getRecoveryForCycle',
    'getBodyMeasurement',
    'getBasicProfile',
    'getActivityMapping',
    ...PARTNER_BY_ID,
    'addTestData',
  ],
  429: USER_DATA_OPS,
  500: [...USER_DATA_OPS, 'getActivityMapping', 'addTestData'],
};
