// The faults that only change a response, as data: per fault, which responses it rewrites and how
// (responses.ts applies them). The wrong-success-status faults come from their own table (faults/status.ts).
import type { FaultName } from './faults/index.ts';
import { statusFaultName, statusSwapEntries } from './faults/status.ts';
import { onSuccessOf, type ResponseRewrite } from './response-rewrite.ts';

const statusSwaps = statusSwapEntries.map(([operationId, swap]): [FaultName, ResponseRewrite] => [
  statusFaultName(operationId),
  { applies: onSuccessOf(operationId), status: swap.to, ...(swap.body ? { body: () => swap.body } : {}) },
]);

export const faultResponses: Partial<Record<FaultName, ResponseRewrite>> = {
  ...Object.fromEntries(statusSwaps),
};
