// Wrong success statuses, one fault per operation, generated from one table: operationId → the OP-*
// requirement it breaks, the status the operation answers and the one the fault answers instead. The
// operation ids are those the routes carry in their config (sandbox/user/operations.ts for the user-data
// reads, the partner routes for the rest); sandbox/status-faults.ts swaps the status in an onSend hook.
//
// Fault names come from the requirement: OP-GET-CYCLE → status-get-cycle.
import type { OperationId } from '../../src/contract/operation-model.ts';
import type { FaultDefinition } from './types.ts';

export interface StatusSwap {
  requirement: `OP-${string}`;
  area: FaultDefinition['area'];
  /** The status the operation answers on success. */
  from: number;
  /** The status the fault answers instead (with the same body, unless `body` is given). */
  to: number;
  /** Sent as the JSON body of the wrong status (for a `from` without a body). */
  body?: Readonly<Record<string, unknown>>;
}

export const statusSwaps = {
  getCycleById: { requirement: 'OP-GET-CYCLE', area: 'user-data', from: 200, to: 203 },
  listCycles: { requirement: 'OP-LIST-CYCLES', area: 'user-data', from: 200, to: 203 },
  getSleepForCycle: { requirement: 'OP-GET-CYCLE-SLEEP', area: 'user-data', from: 200, to: 203 },
  getRecoveryForCycle: { requirement: 'OP-GET-CYCLE-RECOVERY', area: 'user-data', from: 200, to: 203 },
  listRecoveries: { requirement: 'OP-LIST-RECOVERIES', area: 'user-data', from: 200, to: 203 },
  getSleepById: { requirement: 'OP-GET-SLEEP', area: 'user-data', from: 200, to: 203 },
  listSleeps: { requirement: 'OP-LIST-SLEEPS', area: 'user-data', from: 200, to: 203 },
  getWorkoutById: { requirement: 'OP-GET-WORKOUT', area: 'user-data', from: 200, to: 203 },
  listWorkouts: { requirement: 'OP-LIST-WORKOUTS', area: 'user-data', from: 200, to: 203 },
  getBodyMeasurement: { requirement: 'OP-GET-BODY-MEASUREMENT', area: 'user-data', from: 200, to: 203 },
  getBasicProfile: { requirement: 'OP-GET-BASIC-PROFILE', area: 'user-data', from: 200, to: 203 },
  getActivityMapping: { requirement: 'OP-GET-ACTIVITY-MAPPING', area: 'utility', from: 200, to: 203 },
  requestPartnerToken: { requirement: 'OP-PARTNER-TOKEN', area: 'partner', from: 200, to: 201 },
  addTestData: { requirement: 'OP-ADD-TEST-DATA', area: 'partner', from: 200, to: 202 },
  getRequisition: { requirement: 'OP-GET-REQUISITION', area: 'partner', from: 200, to: 203 },
  getServiceRequest: { requirement: 'OP-GET-SERVICE-REQUEST', area: 'partner', from: 200, to: 203 },
  updateRequisitionStatus: {
    requirement: 'OP-PATCH-REQUISITION-STATUS',
    area: 'partner',
    from: 204,
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
    .map(([operationId, { requirement, area, from, to, body }]): [string, FaultDefinition] => [
      statusFaultName(operationId),
      {
        requirement,
        area,
        description: `${operationId} answers ${to} instead of ${from}, ${body ? 'with a JSON body' : 'with the same body'}`,
      },
    ]);
  return Object.fromEntries(definitions) as StatusFaultsIn<A>;
}

/** The status faults of the user-data API and the activity mapping (spread into userFaults). */
export const userStatusFaults = statusFaultsIn(['user-data', 'utility']);
/** The status faults of the partner API (spread into partnerFaults). */
export const partnerStatusFaults = statusFaultsIn(['partner']);
