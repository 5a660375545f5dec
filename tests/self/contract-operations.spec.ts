/**
 * Self-tests of the operation catalogue (`src/contract/operations.ts`, built from the OpenAPI document)
 * against the contract's operations as transcribed from the seed, and of request construction
 * (`src/contract/request-paths.ts`).
 */
import { expect, test } from '@playwright/test';
import { READ_SCOPES } from '../../sandbox/oauth/scopes.ts';
import { USER_SCOPES } from '../../src/contract/operation-model.ts';
import { operationById, operations } from '../../src/contract/operations.ts';
import { buildPath, buildUrl } from '../../src/contract/request-paths.ts';
import { SEED_OPERATIONS, SEED_SCOPES } from './contract-seed-operations.ts';

test.describe('src/contract/operations.ts', () => {
  test('catalogues the 20 operations with the contract scopes', () => {
    expect(operations).toHaveLength(20);
    expect(operations.map((op) => op.operationId)).toEqual(SEED_OPERATIONS.map((s) => s.id));
    for (const seed of SEED_OPERATIONS) {
      const op = operationById(seed.id);
      const expected =
        seed.security === 'oauth-no-scope'
          ? { kind: 'user', scope: null }
          : seed.security === 'partner' || seed.security === 'none' || seed.security === 'unspecified'
            ? { kind: seed.security }
            : { kind: 'user', scope: seed.security };
      expect(op.security, seed.id).toEqual(expected);
      expect({ method: op.method, path: op.path, area: op.area }, seed.id).toEqual({
        method: seed.method,
        path: seed.path,
        area: seed.area,
      });
      expect(op.statuses, seed.id).toEqual([...seed.statuses].sort((a, b) => a - b));
      expect(op.isCollection, seed.id).toBe(seed.collection);
      expect(op.readOnly, seed.id).toBe(seed.method === 'GET');
      expect(op.nonProductionOnly, seed.id).toBe(seed.id === 'addTestData');
      expect(
        op.pathParams.map((p) => p.name),
        seed.id,
      ).toEqual(seed.pathParams.map((p) => p.name));
    }
    const scopes = operations.flatMap((op) =>
      op.security.kind === 'user' && op.security.scope ? [op.security.scope] : [],
    );
    expect(new Set(scopes)).toEqual(new Set(SEED_SCOPES));
    // The model's list, which the sign-ins ask for, and the sandbox's own (an independent oracle) are the seed's.
    expect(USER_SCOPES).toEqual(SEED_SCOPES);
    expect(READ_SCOPES).toEqual(SEED_SCOPES);
    const limit = operationById('listSleeps').queryParams.find((q) => q.name === 'limit');
    expect(limit?.schema).toEqual({ type: 'integer', format: 'int32', maximum: 25, default: 10 });
  });

  test('buildPath / buildUrl expand path templates and keep the base path prefix', () => {
    expect(buildPath(operationById('getCycleById'), { cycleId: 93845 })).toBe('/v2/cycle/93845');
    expect(buildPath(operationById('getSleepById'), { sleepId: 'a/b c' })).toBe(
      '/v2/activity/sleep/a%2Fb%20c',
    );
    expect(buildPath(operationById('listCycles'), {}, { limit: 5, start: undefined, nextToken: 'x+y' })).toBe(
      '/v2/cycle?limit=5&nextToken=x%2By',
    );
    expect(buildUrl('http://127.0.0.1:4010/developer/', operationById('getBasicProfile'))).toBe(
      'http://127.0.0.1:4010/developer/v2/user/profile/basic',
    );
    expect(() => buildPath(operationById('getRequisition'))).toThrow(/missing path parameter id/);
    expect(() => buildPath(operationById('listCycles'), { cycleId: 1 })).toThrow(/unknown path parameter/);
  });
});
