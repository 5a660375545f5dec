// The partner operations of the catalogue (src/contract/operations.ts) in the views the partner checks take,
// one name per view: the operations that take the partner token, those addressed by an id (what the id
// names), the updates and status updates, add-test-data's appointment types, and a valid request for an
// id-addressed operation.
import { Tags } from '../../config/profiles.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { operationById, operations } from '../../contract/operations.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { firstServiceRequestId, type RequisitionData, validBodyFor } from './partner-resources.ts';

/** The profile tags of a check that writes partner A's data: it generates data, so never on production. */
export const PARTNER_WRITE_TAGS: readonly string[] = [Tags.partner, Tags.nonProduction, Tags.write];

/** Partner operations that take the partner bearer token (everything of the area but the token request). */
export const partnerOperations: readonly Operation[] = operations.filter(
  (op) => op.area === 'partner' && op.security.kind === 'partner',
);

/** The id-addressed partner operations (rule 1 of the partner operations: owner or 404). */
export const idAddressedOperations: readonly Operation[] = partnerOperations.filter(
  (op) => op.pathParams.length > 0,
);

/** The id-addressed operations that take a request body (status updates, results upload). */
export const updateOperations: readonly Operation[] = idAddressedOperations.filter(
  (op) => op.requestSchema !== null,
);

/** The status updates: their effect is readable (task_business_status), unlike a results upload's. */
export const statusUpdateOperations: readonly Operation[] = updateOperations.filter(
  (op) => op.requestSchema === 'service-request-status-request',
);

export const addTestDataOperation: Operation = operationById('addTestData');
export const getRequisitionOperation: Operation = operationById('getRequisition');
export const getServiceRequestOperation: Operation = operationById('getServiceRequest');

export type AddressedResource = 'requisition' | 'service-request';

/** What an id-addressed operation's `{id}` names, read from its path. */
export function addressedResource(op: Operation): AddressedResource {
  if (/\/requisition\/\{id\}/.test(op.path)) return 'requisition';
  if (/\/service-request\/\{id\}/.test(op.path)) return 'service-request';
  throw new Error(`${op.operationId}: ${op.path} addresses neither a requisition nor a service request`);
}

/** The id `op` addresses in a requisition: the requisition's own, or its first service request's. */
export function addressedId(op: Operation, owned: { id: string; requisition: RequisitionData }): string {
  if (addressedResource(op) === 'requisition') return owned.id;
  return firstServiceRequestId(owned.requisition);
}

/** add-test-data's appointmentType values and default, from the catalogue. */
const appointmentTypeParam = addTestDataOperation.queryParams.find(
  (param) => param.name === 'appointmentType',
);
export const APPOINTMENT_TYPES: readonly string[] = appointmentTypeParam?.schema.enum ?? [];
export const DEFAULT_APPOINTMENT_TYPE = String(appointmentTypeParam?.schema.default ?? 'IN_PERSON');

/** The request of an id-addressed operation on `id`, with a valid body. */
export function partnerRequestFor(op: Operation, id: string, body: unknown = validBodyFor(op)) {
  return { method: op.method, path: buildPath(op, { id }), json: body };
}
