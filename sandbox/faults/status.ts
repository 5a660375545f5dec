// Wrong success statuses, one fault per operation, generated from one table: operationId → the OP-*
// requirement it breaks and the status the fault answers instead of the operation's success status (the
// route table's, sandbox/route-table.ts); sandbox/fault-responses.ts turns them into response rewrites.
//
// Fault names come from the requirement: OP-GET-CYCLE → status-get-cycle.
import { type OperationId, routeTable } from '../route-table.ts';
import type { FaultDefinition } from './types.ts';

export interface StatusSwap {
  requirement: `OP-${string}`;
  area: FaultDefinition['area'];
  /** The status the fault answers instead of the success status (with the same body, unless `body` is given). */
  to: number;
  /** Sent as the JSON body of the wrong status (when the success status has no body). */
  body?: Readonly<Record<string, unknown>>;
}

export const statusSwaps = {
  getCycleById: { requirement: 'OP-GET-CYCLE', area: 'user-data', to: 203 },
  listCycles: { requirement: 'OP-LIST-CYCLES', area: 'user-data', to: 203 },
  getSleepForCycle: { requirement: 'OP-GET-CYCLE-SLEEP', area: 'user-data', to: 203 },
  getRecoveryForCycle: { requirement: 'OP-GET-CYCLE-RECOVERY', area: 'user-data', to: 203 },
  listRecoveries: { requirement: 'OP-LIST-RECOVERIES', area: 'user-data', to: 203 },
  getSleepById: { requirement: 'OP-GET-SLEEP', area: 'user-data', to: 203 },
  listSleeps: { requirement: 'OP-LIST-SLEEPS', area: 'user-data', to: 203 },
  getWorkoutById: { requirement: 'OP-GET-WORKOUT', area: 'user-data', to: 203 },
  listWorkouts: { requirement: 'OP-LIST-WORKOUTS', area: 'user-data', to: 203 },
  getBodyMeasurement: { requirement: 'OP-GET-BODY-MEASUREMENT', area: 'user-data', to: 203 },
  getBasicProfile: { requirement: 'OP-GET-BASIC-PROFILE', area: 'user-data', to: 203 },
  getActivityMapping: { requirement: 'OP-GET-ACTIVITY-MAPPING', area: 'utility', to: 203 },
  requestPartnerToken: { requirement: 'OP-PARTNER-TOKEN', area: 'partner', to: 201 },
  addTestData: { requirement: 'OP-ADD-TEST-DATA', area: 'partner', to: 202 },
  getRequisition: { requirement: 'OP-GET-REQUISITION', area: 'partner', to: 203 },
  getServiceRequest: { requirement: 'OP-GET-SERVICE-REQUEST', area: 'partner', to: 203 },
  updateRequisitionStatus: {
    requirement: 'OP-PATCH-REQUISITION-STATUS',
    area: 'partner',
    to: 200,
    body: { updated: true },
  },
} as const satisfies Partial<Record<OperationId, StatusSwap>>;

type Swaps = typeof statusSwaps;
export type StatusOperationId = keyof Swaps;

type NameOf<Requirement> = Requirement extends `OP-${infer Rest}` ? `status-${Lowercase<Rest>}` : never;
/** The fault of one operation (or, without an argument, of any): `status-` and its requirement's name. */
export type StatusFaultName<Id extends StatusOperationId = StatusOperationId> = NameOf<
  Swaps[Id]['requirement']
>;

export function statusFaultName<Id extends StatusOperationId>(operationId: Id): StatusFaultName<Id> {
  return `status-${statusSwaps[operationId].requirement.slice('OP-'.length).toLowerCase()}` as StatusFaultName<Id>;
}

export const statusSwapEntries = Object.entries(statusSwaps) as [StatusOperationId, StatusSwap][];

type Area = FaultDefinition['area'];
/** The operations of the table in the areas `A`. */
export type StatusOperationIdIn<A extends Area> = {
  [Id in StatusOperationId]: Swaps[Id]['area'] extends A ? Id : never;
}[StatusOperationId];
type StatusFaultsIn<A extends Area> = {
  [Id in StatusOperationIdIn<A> as StatusFaultName<Id>]: FaultDefinition & { area: A };
};

function statusFaultsIn<A extends Area>(areas: readonly A[]): StatusFaultsIn<A> {
  const inAreas = (area: Area): area is A => (areas as readonly Area[]).includes(area);
  const definitions = statusSwapEntries
    .filter(([, swap]) => inAreas(swap.area))
    .map(([operationId, { requirement, area, to, body }]): [string, FaultDefinition] => [
      statusFaultName(operationId),
      {
        requirement,
        area,
        description: `${operationId} answers ${to} instead of ${routeTable[operationId].success}, ${body ? 'with a JSON body' : 'with the same body'}`,
      },
    ]);
  return Object.fromEntries(definitions) as StatusFaultsIn<A>;
}

/** The status faults of the user-data API and the activity mapping (spread into userFaults). */
export const userStatusFaults = statusFaultsIn(['user-data', 'utility']);
/** The status faults of the partner API (spread into partnerFaults). */
export const partnerStatusFaults = statusFaultsIn(['partner']);
