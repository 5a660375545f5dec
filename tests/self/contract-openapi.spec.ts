/**
 * Self-tests of the OpenAPI document (`specs/openapi.yaml`). The expectations are transcribed from the
 * contract (contract-seed-operations.ts), section by section, and compared mechanically with the document.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { parse } from 'yaml';
import { OPERATION_IDS, type OperationId } from '../../src/contract/operation-model.ts';
import { operationById, operations } from '../../src/contract/operations.ts';
import { requirementKeyword } from '../../src/contract/requirement-keyword.ts';
import { binOf, get, repoRoot, runNode } from './contract-openapi-support.ts';
import { ERRORS_TABLE, SEED_OPERATIONS, SEED_SCOPES, type SeedSecurity } from './contract-seed-operations.ts';

const specFile = join(repoRoot, 'specs', 'openapi.yaml');

type Doc = Record<string, unknown>;

function loadDoc(): Doc {
  return parse(readFileSync(specFile, 'utf8')) as Doc;
}

/** Resolves a local `#/...` reference of the document. */
function local(doc: Doc, node: unknown): Record<string, unknown> {
  const ref = get(node, '$ref');
  const resolved =
    typeof ref === 'string' && ref.startsWith('#/') ? get(doc, ...ref.slice(2).split('/')) : node;
  return resolved as Record<string, unknown>;
}

/** The OpenAPI `security` value expected for a contract security statement. */
function securityRequirementOf(security: SeedSecurity): unknown {
  switch (security) {
    case 'oauth-no-scope':
      return [{ userOAuth: [] }];
    case 'partner':
      return [{ partnerBearer: [] }];
    case 'none':
      return [];
    case 'unspecified':
      return undefined;
    default:
      return [{ userOAuth: [security] }];
  }
}

test.describe('specs/openapi.yaml', () => {
  test('passes redocly lint (recommended-strict, redocly.yaml) with zero problems', async () => {
    const { code, stdout, stderr } = await runNode([
      binOf('@redocly/cli', 'bin/cli.js'),
      'lint',
      specFile,
      '--config',
      join(repoRoot, 'redocly.yaml'),
      '--format',
      'json',
    ]);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
    };
    const problems = report.problems.map(
      (p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? '?'}`,
    );
    expect(problems, stderr).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(code).toBe(0);
  });

  test('is OpenAPI 3.1 with a {base_url} server, two security schemes and the three tags', () => {
    const doc = loadDoc();
    expect(doc.openapi).toBe('3.1.0');
    expect(get(doc, 'servers', '0', 'url')).toBe('{base_url}');
    expect(String(get(doc, 'servers', '0', 'variables', 'base_url', 'default'))).toMatch(
      /^https?:\/\/.+\/developer$/,
    );
    const schemes = get(doc, 'components', 'securitySchemes') as Record<string, unknown>;
    expect(Object.keys(schemes).sort()).toEqual(['partnerBearer', 'userOAuth']);
    expect(get(schemes, 'partnerBearer')).toMatchObject({ type: 'http', scheme: 'bearer' });
    const flow = get(schemes, 'userOAuth', 'flows', 'authorizationCode') as Record<string, unknown>;
    expect(get(schemes, 'userOAuth', 'type')).toBe('oauth2');
    expect(String(flow.authorizationUrl)).toMatch(/\/oauth\/oauth2\/auth$/);
    expect(String(flow.tokenUrl)).toMatch(/\/oauth\/oauth2\/token$/);
    expect(Object.keys(flow.scopes as object).sort()).toEqual([...SEED_SCOPES].sort());
    expect((doc.tags as { name: string }[]).map((t) => t.name)).toEqual(['user-data', 'utility', 'partner']);
  });

  test('declares exactly the contract operations, with their method, path, area, security and statuses', () => {
    const doc = loadDoc();
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const declared = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) =>
          ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method),
        )
        .map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as Record<string, unknown> })),
    );
    expect(declared.map((d) => `${d.method} ${d.path}`).sort()).toEqual(
      SEED_OPERATIONS.map((s) => `${s.method} ${s.path}`).sort(),
    );
    expect(SEED_OPERATIONS.map((s) => s.id)).toEqual([...OPERATION_IDS]);

    for (const seed of SEED_OPERATIONS) {
      const op = paths[seed.path]?.[seed.method.toLowerCase()] as Record<string, unknown>;
      const label = `${seed.method} ${seed.path}`;
      expect(op.operationId, label).toBe(seed.id);
      expect(op.tags, label).toEqual([seed.area]);
      expect(
        Object.keys(op.responses as object)
          .map(Number)
          .sort((a, b) => a - b),
        label,
      ).toEqual([...seed.statuses].sort((a, b) => a - b));

      const expectedSecurity = securityRequirementOf(seed.security);
      expect(op.security, label).toEqual(expectedSecurity);
      expect(op['x-security'], label).toBe(seed.security === 'unspecified' ? 'unspecified' : undefined);

      const params = ((op.parameters ?? []) as unknown[]).map((p) => local(doc, p));
      expect(
        params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, type: get(p, 'schema', 'type'), format: get(p, 'schema', 'format') })),
        label,
      ).toEqual(seed.pathParams);
      expect(
        params.filter((p) => p.in === 'query').map((p) => p.name),
        label,
      ).toEqual(
        seed.collection
          ? ['limit', 'start', 'end', 'nextToken']
          : seed.id === 'addTestData'
            ? ['appointmentType']
            : [],
      );
      expect(op['x-environment'], label).toBe(seed.id === 'addTestData' ? 'non-production' : undefined);
    }
  });

  test('every error status of the Errors table is declared on exactly the operations it applies to', () => {
    const declaring = (status: number) =>
      operations.filter((op) => op.statuses.includes(status)).map((op) => op.operationId);
    for (const [status, appliesTo] of Object.entries(ERRORS_TABLE)) {
      expect(declaring(Number(status)).sort(), `status ${status}`).toEqual([...new Set(appliesTo)].sort());
    }
    // No other error status is declared anywhere.
    const errorStatuses = new Set(operations.flatMap((op) => op.statuses.filter((s) => s >= 400)));
    expect([...errorStatuses].sort()).toEqual(Object.keys(ERRORS_TABLE).map(Number).sort());
  });

  test('parameters follow the contract rules (collection query, appointmentType)', () => {
    const doc = loadDoc();
    const limit = local(doc, { $ref: '#/components/parameters/Limit' });
    // "limit | integer int32 | maximum 25, default 10" — no minimum is stated, so none is declared.
    expect(limit.schema).toEqual({ type: 'integer', format: 'int32', maximum: 25, default: 10 });
    expect(get(local(doc, { $ref: '#/components/parameters/Start' }), 'schema')).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(get(local(doc, { $ref: '#/components/parameters/End' }), 'schema')).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(get(local(doc, { $ref: '#/components/parameters/NextToken' }), 'schema')).toEqual({
      type: 'string',
    });
    for (const op of operations.filter((o) => o.isCollection)) {
      expect(
        op.queryParams.every((q) => !q.required),
        op.operationId,
      ).toBe(true);
    }
    const appointmentType = operationById('addTestData').queryParams[0];
    expect(appointmentType).toEqual({
      name: 'appointmentType',
      required: false,
      schema: { type: 'string', enum: ['IN_PERSON', 'MOBILE', 'VIRTUAL'], default: 'IN_PERSON' },
    });
  });

  test('bodies reference the schema files; error responses have no body ("not shown")', () => {
    const expectedBodies: Readonly<Record<OperationId, { response: string | null; request: string | null }>> =
      {
        getCycleById: { response: 'cycle', request: null },
        listCycles: { response: 'paginated-cycle-response', request: null },
        getSleepForCycle: { response: 'sleep', request: null },
        getRecoveryForCycle: { response: 'recovery', request: null },
        listRecoveries: { response: 'recovery-collection', request: null },
        getSleepById: { response: 'sleep', request: null },
        listSleeps: { response: 'paginated-sleep-response', request: null },
        getWorkoutById: { response: 'workout', request: null },
        listWorkouts: { response: 'workout-collection', request: null },
        getBodyMeasurement: { response: 'user-body-measurement', request: null },
        getBasicProfile: { response: 'user-basic-profile', request: null },
        revokeUserAccess: { response: null, request: null },
        getActivityMapping: { response: 'activity-id-mapping-response', request: null },
        requestPartnerToken: { response: 'partner-token-response', request: 'partner-token-request' },
        addTestData: { response: null, request: null },
        getRequisition: { response: 'lab-requisition', request: null },
        getServiceRequest: { response: 'service-request', request: null },
        updateRequisitionStatus: { response: null, request: 'service-request-status-request' },
        updateServiceRequestStatus: {
          response: 'service-request',
          request: 'service-request-status-request',
        },
        createServiceRequestResults: { response: null, request: 'diagnostic-report-create-request' },
      };
    for (const op of operations) {
      expect({ response: op.responseSchema, request: op.requestSchema }, op.operationId).toEqual(
        expectedBodies[op.operationId],
      );
      for (const response of op.responses.values()) {
        if (response.status >= 400)
          expect(response.schema, `${op.operationId} ${response.status}`).toBeNull();
        if (response.schema !== null) {
          expect(existsSync(join(repoRoot, 'schemas', `${response.schema}.json`)), response.schema).toBe(
            true,
          );
        }
      }
    }
    // addTestData: 204 per the table, 200 with the test-data body per the reference samples.
    const addTestData = operationById('addTestData');
    expect(addTestData.successStatus).toBe(204);
    expect(addTestData.responses.get(200)).toMatchObject({
      schema: 'test-data-response',
      referenceSampleOnly: true,
    });
  });

  test('every example validates against its schema file (Ajv 2020-12 with formats)', () => {
    const doc = loadDoc();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: under ES modules its plugin function is the `default` property.
    ajvFormats.default(ajv);
    ajv.addKeyword(requirementKeyword);
    const idByFile = new Map<string, string>();
    for (const file of readdirSync(join(repoRoot, 'schemas')).filter((f) => f.endsWith('.json'))) {
      const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', file), 'utf8')) as { $id: string };
      ajv.addSchema(schema);
      idByFile.set(file, schema.$id);
    }
    const checked: string[] = [];
    const failures: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const media = node as Record<string, unknown>;
      const ref = get(media, 'schema', '$ref');
      if (typeof ref === 'string' && ref.startsWith('../schemas/') && media.examples !== undefined) {
        const validate = ajv.getSchema(idByFile.get(ref.slice('../schemas/'.length)) ?? ref);
        if (validate === undefined) throw new Error(`${at}: schema ${ref} not loaded`);
        for (const [name, example] of Object.entries(media.examples as Record<string, unknown>)) {
          const value = get(local(doc, example), 'value');
          checked.push(`${at} ${name}`);
          if (!validate(value)) failures.push(`${at} ${name}: ${ajv.errorsText(validate.errors)}`);
          // Sleep.v1_id does not exist past 2025-09-01; the examples keep v1_id to older records.
          for (const record of [value, ...((get(value, 'records') as unknown[] | undefined) ?? [])]) {
            const start = get(record, 'start');
            if (get(record, 'v1_id') !== undefined && typeof start === 'string' && start >= '2025-09-01') {
              failures.push(`${at} ${name}: v1_id on a record starting ${start}`);
            }
          }
        }
      }
      for (const [key, child] of Object.entries(media)) visit(child, `${at}/${key}`);
    };
    visit(doc, '#');
    expect(failures).toEqual([]);
    // Every response body and request body of the document carries at least one example.
    for (const op of operations) {
      const prefix = `#/paths/${op.path}/${op.method.toLowerCase()}`;
      for (const response of op.responses.values()) {
        if (response.schema === null) continue;
        const where = `${prefix}/responses/${response.status}/`;
        expect(
          checked.some((c) => c.startsWith(where)),
          `${op.operationId} ${response.status}`,
        ).toBe(true);
      }
      if (op.requestSchema !== null) {
        const requestExamples = checked.filter((c) => c.startsWith(`${prefix}/requestBody/`));
        const sharedBody = get(doc, 'paths', op.path, op.method.toLowerCase(), 'requestBody', '$ref');
        expect(requestExamples.length > 0 || typeof sharedBody === 'string', op.operationId).toBe(true);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(24);
  });
});
