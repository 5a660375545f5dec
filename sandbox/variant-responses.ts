// The conforming variants that only rewrite a success response (status or body), as data: responses.ts
// applies them after the faults'. Variants that change what the sandbox does (filters, cursors,
// validation, data) live where that behaviour lives.
import { responseShapes, withNulls } from './nulls.ts';
import { operationOf, type ResponseRewrite } from './response-rewrite.ts';
import type { VariantName } from './variants.ts';

/** Path of the user OAuth token endpoint (oauth/routes.ts), which has no operationId of the contract. */
export const USER_TOKEN_PATH = '/oauth/oauth2/token';

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export const variantResponses: Partial<Record<VariantName, ResponseRewrite>> = {
  'nulls-for-absent': {
    applies: (request, status) =>
      isSuccess(status) && responseShapes[operationOf(request) ?? ''] !== undefined,
    body: (json, request) => withNulls(responseShapes[operationOf(request) ?? ''] ?? 'cycle', json),
  },
  'user-token-minimal': {
    applies: (request, status) => isSuccess(status) && request.routeOptions.url === USER_TOKEN_PATH,
    body: (json) => ({ access_token: (json as { access_token?: unknown }).access_token }),
  },
  'test-data-204': {
    applies: (request, status) => operationOf(request) === 'addTestData' && status === 200,
    status: 204,
    body: () => undefined,
  },
};
