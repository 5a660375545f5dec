/**
 * Typed catalogue of the 20 operations of the contract, built at load time from `specs/openapi.yaml`
 * (operation-loader.ts). The conformance tests are table-driven over `operations`.
 */
import { loadOperations } from './operation-loader.ts';
import type { Operation, OperationId } from './operation-model.ts';

/** The 20 operations, in docs/layout.md's order. */
export const operations: readonly Operation[] = loadOperations();

const byId: ReadonlyMap<OperationId, Operation> = new Map(operations.map((op) => [op.operationId, op]));

/** The operation with this id (the id type guarantees it exists). */
export function operationById(id: OperationId): Operation {
  const operation = byId.get(id);
  if (operation === undefined) throw new Error(`unknown operation ${id}`);
  return operation;
}
