// The sandbox's route table (sandbox/route-table.ts) against specs/openapi.yaml: the same operations, methods,
// paths, required scopes and success statuses. The sandbox shares no code with the suite (issue 12), so
// this comparison is what catches drift between the oracle and the contract; it reads the OpenAPI document
// directly, not through the suite's catalogue.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { BASE_PATH, buildSandbox } from '../../sandbox/app.ts';
import { READ_SCOPES, type ReadScope } from '../../sandbox/oauth/scopes.ts';
import { fastifyPath, type Route, routeTable } from '../../sandbox/route-table.ts';

type Security = Route['auth'] | 'unspecified';

interface SpecOperation {
  method: string;
  path: string;
  security: Security;
  /** Every 2xx status the document declares. */
  successStatuses: number[];
}

interface OpenApiOperation {
  operationId: string;
  security?: Record<string, string[]>[];
  'x-security'?: string;
  responses: Record<string, unknown>;
}

const openapi = parse(readFileSync(new URL('../../specs/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: { userOAuth: { flows: { authorizationCode: { scopes: object } } } } };
};

function securityOf(operation: OpenApiOperation): Security {
  if (operation.security === undefined) {
    if (operation['x-security'] === 'unspecified') return 'unspecified';
    throw new Error(`${operation.operationId} declares no security`);
  }
  const [requirement, ...more] = operation.security;
  if (requirement === undefined) return 'none';
  const [[scheme, scopes = []] = [], ...others] = Object.entries(requirement);
  if (more.length > 0 || others.length > 0 || scopes.length > 1)
    throw new Error(`${operation.operationId}: a security this comparison does not read`);
  if (scheme === 'partnerBearer') return 'partner';
  if (scheme === 'userOAuth') return { user: (scopes[0] ?? 'any') as ReadScope | 'any' };
  throw new Error(`${operation.operationId}: unknown security scheme ${scheme}`);
}

const specOperations = new Map<string, SpecOperation>(
  Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, SpecOperation] => [
      operation.operationId,
      {
        method: method.toUpperCase(),
        path,
        security: securityOf(operation),
        successStatuses: Object.keys(operation.responses)
          .map(Number)
          .filter((status) => status >= 200 && status < 300),
      },
    ]),
  ),
);

/** Every difference between a route table and the contract's operations, one line each. */
function routeDrift(
  table: Readonly<Record<string, Route>>,
  contract: ReadonlyMap<string, SpecOperation>,
): string[] {
  const drift: string[] = [];
  for (const [operationId, spec] of contract) {
    const route = table[operationId];
    if (!route) {
      drift.push(`${operationId}: in the contract, not in the sandbox's table`);
      continue;
    }
    if (route.method !== spec.method)
      drift.push(`${operationId}: method ${route.method}, contract ${spec.method}`);
    if (route.path !== spec.path) drift.push(`${operationId}: path ${route.path}, contract ${spec.path}`);
    // Where the contract does not show the security requirement, the sandbox's choice is its own.
    if (spec.security !== 'unspecified' && JSON.stringify(route.auth) !== JSON.stringify(spec.security))
      drift.push(
        `${operationId}: auth ${JSON.stringify(route.auth)}, contract ${JSON.stringify(spec.security)}`,
      );
    if (!spec.successStatuses.includes(route.success))
      drift.push(`${operationId}: success ${route.success}, contract ${spec.successStatuses.join(' or ')}`);
  }
  for (const operationId of Object.keys(table))
    if (!contract.has(operationId)) drift.push(`${operationId}: in the sandbox's table, not in the contract`);
  return drift;
}

test('the route table has every operation of specs/openapi.yaml with its method, path, scope and success status', () => {
  expect(specOperations.size).toBe(20);
  expect(routeDrift(routeTable, specOperations)).toEqual([]);
});

test("the sandbox's read scopes are the contract's", () => {
  expect([...READ_SCOPES]).toEqual(
    Object.keys(openapi.components.securitySchemes.userOAuth.flows.authorizationCode.scopes),
  );
});

test('a table with one changed entry is caught, naming the operation and the difference', () => {
  const changed = (operationId: keyof typeof routeTable, change: Partial<Route>) =>
    routeDrift({ ...routeTable, [operationId]: { ...routeTable[operationId], ...change } }, specOperations);
  expect(changed('listCycles', { method: 'POST' })).toEqual(['listCycles: method POST, contract GET']);
  expect(changed('getSleepById', { path: '/v2/sleep/{sleepId}' })).toEqual([
    'getSleepById: path /v2/sleep/{sleepId}, contract /v2/activity/sleep/{sleepId}',
  ]);
  expect(changed('listWorkouts', { auth: { user: 'read:sleep' } })).toEqual([
    'listWorkouts: auth {"user":"read:sleep"}, contract {"user":"read:workout"}',
  ]);
  expect(changed('revokeUserAccess', { auth: { user: 'read:profile' } })).toEqual([
    'revokeUserAccess: auth {"user":"read:profile"}, contract {"user":"any"}',
  ]);
  expect(changed('getRequisition', { auth: 'none' })).toEqual([
    'getRequisition: auth "none", contract "partner"',
  ]);
  expect(changed('createServiceRequestResults', { success: 200 })).toEqual([
    'createServiceRequestResults: success 200, contract 201',
  ]);
  const { getBasicProfile: _, ...withoutProfile } = routeTable;
  expect(routeDrift(withoutProfile, specOperations)).toEqual([
    "getBasicProfile: in the contract, not in the sandbox's table",
  ]);
  expect(
    routeDrift({ ...routeTable, listNaps: { ...routeTable.listSleeps, path: '/v2/nap' } }, specOperations),
  ).toEqual(["listNaps: in the sandbox's table, not in the contract"]);
});

test('the sandbox serves every route of its table', async () => {
  const app = await buildSandbox();
  try {
    await app.ready();
    const missing = Object.entries(routeTable).filter(
      ([, route]) => !app.hasRoute({ method: route.method, url: `${BASE_PATH}${fastifyPath(route.path)}` }),
    );
    expect(missing.map(([operationId]) => operationId)).toEqual([]);
  } finally {
    await app.close();
  }
});
