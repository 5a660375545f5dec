/**
 * The model of the contract's operations: the fixed operation ids of docs/layout.md, the user scopes and
 * areas, and the shape of one operation as the catalogue (operations.ts) holds it.
 */

/** The fixed operation ids (docs/layout.md, "Conventions"), in the order of the contract's tables. */
export const OPERATION_IDS = [
  'getCycleById',
  'listCycles',
  'getSleepForCycle',
  'getRecoveryForCycle',
  'listRecoveries',
  'getSleepById',
  'listSleeps',
  'getWorkoutById',
  'listWorkouts',
  'getBodyMeasurement',
  'getBasicProfile',
  'revokeUserAccess',
  'getActivityMapping',
  'requestPartnerToken',
  'addTestData',
  'getRequisition',
  'getServiceRequest',
  'updateRequisitionStatus',
  'updateServiceRequestStatus',
  'createServiceRequestResults',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

/** OAuth scopes of the user data API. */
export const USER_SCOPES = [
  'read:cycles',
  'read:recovery',
  'read:sleep',
  'read:workout',
  'read:body_measurement',
  'read:profile',
] as const;
export type UserScope = (typeof USER_SCOPES)[number];

export const AREAS = ['user-data', 'utility', 'partner'] as const;
export type Area = (typeof AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Security requirement of an operation:
 * - `user`: user OAuth token (`scope` null = OAuth without a scope, DELETE /v2/user/access);
 * - `partner`: partner bearer token;
 * - `none`: explicitly no authentication (the partner token request);
 * - `unspecified`: the contract says the requirement is "not shown" (`x-security: unspecified`).
 */
export type OperationSecurity =
  | { readonly kind: 'user'; readonly scope: UserScope | null }
  | { readonly kind: 'partner' }
  | { readonly kind: 'none' }
  | { readonly kind: 'unspecified' };

/** The subset of JSON Schema the document uses for parameters. */
export interface ParameterSchema {
  readonly type: 'integer' | 'string' | 'number' | 'boolean';
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly default?: string | number | boolean;
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface PathParam {
  readonly name: string;
  readonly schema: ParameterSchema;
}

export interface QueryParam {
  readonly name: string;
  readonly schema: ParameterSchema;
  readonly required: boolean;
}

export interface ResponseSpec {
  readonly status: number;
  readonly description: string;
  /** Schema file name without extension (`'cycle'` for `../schemas/cycle.json`); null = no body. */
  readonly schema: string | null;
  /** True for a response known only from the contract's reference samples (`x-reference-sample-only`). */
  readonly referenceSampleOnly: boolean;
}

export interface Operation {
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** Path as written in the contract, relative to `{base_url}`, e.g. `/v2/cycle/{cycleId}`. */
  readonly path: string;
  readonly summary: string;
  readonly area: Area;
  readonly security: OperationSecurity;
  /** A paginated collection read (accepts limit / start / end / nextToken). */
  readonly isCollection: boolean;
  readonly pathParams: readonly PathParam[];
  readonly queryParams: readonly QueryParam[];
  /** The success status the contract's tables give (for addTestData: 204, not the sample-only 200). */
  readonly successStatus: number;
  /** Every declared 2xx status, ascending. */
  readonly successStatuses: readonly number[];
  /** Body schema of `successStatus` (file name without extension), null when it has no body. */
  readonly responseSchema: string | null;
  /** Request body schema (file name without extension), null when the operation takes no body. */
  readonly requestSchema: string | null;
  readonly requestBodyRequired: boolean;
  /** Every declared status, ascending. */
  readonly statuses: readonly number[];
  /** Declared responses by status. */
  readonly responses: ReadonlyMap<number, ResponseSpec>;
  /** `x-environment: non-production`: the operation exists only outside production. */
  readonly nonProductionOnly: boolean;
  /** Safe read (GET): allowed in the read-only production smoke profile. */
  readonly readOnly: boolean;
}

export function isOperationId(value: string): value is OperationId {
  return (OPERATION_IDS as readonly string[]).includes(value);
}
