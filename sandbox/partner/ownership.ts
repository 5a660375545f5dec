// Rule 1 of the partner operations: the requesting partner must own the requisition or service request for
// any read or update on it, otherwise 404 (also for unknown ids). The one guard of all five id-addressed
// operations.
import type { SandboxContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import type { FaultName } from '../faults/index.ts';
import type { Owned } from './store.ts';

export type IdAddressedOperation =
  | 'getRequisition'
  | 'getServiceRequest'
  | 'updateRequisitionStatus'
  | 'updateServiceRequestStatus'
  | 'createServiceRequestResults';

const ownershipFault: Record<IdAddressedOperation, FaultName> = {
  getRequisition: 'partner-get-requisition-no-ownership',
  getServiceRequest: 'partner-get-service-request-no-ownership',
  updateRequisitionStatus: 'partner-update-requisition-no-ownership',
  updateServiceRequestStatus: 'partner-update-service-request-no-ownership',
  createServiceRequestResults: 'partner-create-results-no-ownership',
};

/** Updates whose refusal must leave the data untouched (fault `partner-non-owner-update-applied`). */
const statusUpdates: ReadonlySet<IdAddressedOperation> = new Set([
  'updateRequisitionStatus',
  'updateServiceRequestStatus',
]);

/**
 * Runs `action` on the resource when `caller` owns it and returns its result; throws 404 when the resource
 * is unknown or owned by another partner.
 */
export function withOwned<T, R>(
  ctx: SandboxContext,
  operation: IdAddressedOperation,
  caller: string,
  entry: Owned<T> | undefined,
  action: (value: T, owner: string) => R,
): R {
  if (!entry) {
    if (ctx.fault('partner-unknown-id-400')) throw badRequest('Unknown id');
    throw notFound(notOwned);
  }
  if (entry.owner === caller || ctx.fault(ownershipFault[operation])) return action(entry.value, entry.owner);
  if (statusUpdates.has(operation) && ctx.fault('partner-non-owner-update-applied'))
    action(entry.value, entry.owner);
  throw notFound(notOwned);
}

const notOwned = 'Not found or caller not an owner';
