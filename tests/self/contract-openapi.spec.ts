/**
 * Self-tests of the OpenAPI document (`specs/openapi.yaml`), its bundler
 * (`src/cli/bundle-openapi.ts`) and the operation catalogue (`src/contract/operations.ts`).
 *
 * The expectations below are transcribed from the contract (`shared/seed/000_807caed589bae617.txt`),
 * section by section, and compared mechanically with the document.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createRequire } from 'node:module';

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { parse } from 'yaml';
import {
  bundleOpenApi,
  externalRefs,
  type JsonValue,
  schemaIdentifierKeys,
  writeBundledOpenApi,
} from '../../src/contract/bundle.ts';
import {
  buildPath,
  buildUrl,
  OPERATION_IDS,
  type OperationId,
  operationById,
  operations,
  type UserScope,
} from '../../src/contract/operations.ts';
import { freePort } from '../../src/run/prism.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const specFile = join(repoRoot, 'specs', 'openapi.yaml');
const requireFromHere = createRequire(import.meta.url);
const cleanEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

// ---------------------------------------------------------------------------------------------
// The contract, transcribed.

/** How the contract states an operation's authentication. */
type SeedSecurity =
  | UserScope // "Read scope" column
  | 'oauth-no-scope' // DELETE /v2/user/access: "OAuth, no scope listed"
  | 'partner' // "These all use Partner authentication, except the token request."
  | 'none' // POST /v2/partner/token
  | 'unspecified'; // "Security requirement of ... : not shown."

interface SeedOperation {
  readonly id: OperationId;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly area: 'user-data' | 'utility' | 'partner';
  readonly security: SeedSecurity;
  /** Success statuses (endpoint tables) followed by error statuses (Errors table, Authentication). */
  readonly statuses: readonly number[];
  readonly pathParams: readonly { name: string; type: 'integer' | 'string'; format: 'int64' | 'uuid' }[];
  readonly collection: boolean;
}

const cycleId = [{ name: 'cycleId', type: 'integer', format: 'int64' }] as const;
const partnerId = [{ name: 'id', type: 'string', format: 'uuid' }] as const;

/**
 * Endpoints › User data operations / Utility operation / Partner operations, with the statuses of
 * Errors (400 all user data ops but body measurement and basic profile; 401 all user data ops;
 * 404 single-record reads, cycle sleep, cycle recovery, body measurement, basic profile, activity
 * mapping, partner operations by id, test data; 429 all user data ops; 500 user data ops, activity
 * mapping, test data). Partner 401 for bearer-token operations: Authentication › Partner API step 4
 * ("An expired or invalid token gets 401"). addTestData: 204 from the table, 200 from the reference
 * samples.
 */
// biome-ignore format: one row per contract operation, in the order of the contract's tables
const SEED_OPERATIONS: readonly SeedOperation[] = [
  { id: 'getCycleById', method: 'GET', path: '/v2/cycle/{cycleId}', area: 'user-data', security: 'read:cycles', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'listCycles', method: 'GET', path: '/v2/cycle', area: 'user-data', security: 'read:cycles', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getSleepForCycle', method: 'GET', path: '/v2/cycle/{cycleId}/sleep', area: 'user-data', security: 'unspecified', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'getRecoveryForCycle', method: 'GET', path: '/v2/cycle/{cycleId}/recovery', area: 'user-data', security: 'read:recovery', statuses: [200, 400, 401, 404, 429, 500], pathParams: cycleId, collection: false },
  { id: 'listRecoveries', method: 'GET', path: '/v2/recovery', area: 'user-data', security: 'read:recovery', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getSleepById', method: 'GET', path: '/v2/activity/sleep/{sleepId}', area: 'user-data', security: 'read:sleep', statuses: [200, 400, 401, 404, 429, 500], pathParams: [{ name: 'sleepId', type: 'string', format: 'uuid' }], collection: false },
  { id: 'listSleeps', method: 'GET', path: '/v2/activity/sleep', area: 'user-data', security: 'read:sleep', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getWorkoutById', method: 'GET', path: '/v2/activity/workout/{workoutId}', area: 'user-data', security: 'read:workout', statuses: [200, 400, 401, 404, 429, 500], pathParams: [{ name: 'workoutId', type: 'string', format: 'uuid' }], collection: false },
  { id: 'listWorkouts', method: 'GET', path: '/v2/activity/workout', area: 'user-data', security: 'read:workout', statuses: [200, 400, 401, 429, 500], pathParams: [], collection: true },
  { id: 'getBodyMeasurement', method: 'GET', path: '/v2/user/measurement/body', area: 'user-data', security: 'read:body_measurement', statuses: [200, 401, 404, 429, 500], pathParams: [], collection: false },
  { id: 'getBasicProfile', method: 'GET', path: '/v2/user/profile/basic', area: 'user-data', security: 'read:profile', statuses: [200, 401, 404, 429, 500], pathParams: [], collection: false },
  { id: 'revokeUserAccess', method: 'DELETE', path: '/v2/user/access', area: 'user-data', security: 'oauth-no-scope', statuses: [204, 400, 401, 429, 500], pathParams: [], collection: false },
  { id: 'getActivityMapping', method: 'GET', path: '/v1/activity-mapping/{activityV1Id}', area: 'utility', security: 'unspecified', statuses: [200, 404, 500], pathParams: [{ name: 'activityV1Id', type: 'integer', format: 'int64' }], collection: false },
  { id: 'requestPartnerToken', method: 'POST', path: '/v2/partner/token', area: 'partner', security: 'none', statuses: [200, 401], pathParams: [], collection: false },
  { id: 'addTestData', method: 'POST', path: '/v2/partner/development/add-test-data', area: 'partner', security: 'partner', statuses: [204, 200, 401, 404, 500], pathParams: [], collection: false },
  { id: 'getRequisition', method: 'GET', path: '/v2/partner/requisition/{id}', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'getServiceRequest', method: 'GET', path: '/v2/partner/service-request/{id}', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'updateRequisitionStatus', method: 'PATCH', path: '/v2/partner/requisition/{id}/status', area: 'partner', security: 'partner', statuses: [204, 401, 404], pathParams: partnerId, collection: false },
  { id: 'updateServiceRequestStatus', method: 'PATCH', path: '/v2/partner/service-request/{id}/status', area: 'partner', security: 'partner', statuses: [200, 401, 404], pathParams: partnerId, collection: false },
  { id: 'createServiceRequestResults', method: 'POST', path: '/v2/partner/service-request/{id}/results', area: 'partner', security: 'partner', statuses: [201, 401, 404], pathParams: partnerId, collection: false },
];

const USER_DATA_OPS: readonly OperationId[] = SEED_OPERATIONS.filter((op) => op.area === 'user-data').map(
  (op) => op.id,
);
const PARTNER_BY_ID: readonly OperationId[] = [
  'getRequisition',
  'getServiceRequest',
  'updateRequisitionStatus',
  'updateServiceRequestStatus',
  'createServiceRequestResults',
];
const PARTNER_BEARER_OPS: readonly OperationId[] = ['addTestData', ...PARTNER_BY_ID];

/** The Errors table of the contract ("Applies to" column), plus partner 401 (Authentication). */
const ERRORS_TABLE: Readonly<Record<number, readonly OperationId[]>> = {
  400: USER_DATA_OPS.filter((id) => id !== 'getBodyMeasurement' && id !== 'getBasicProfile'),
  401: [...USER_DATA_OPS, 'requestPartnerToken', ...PARTNER_BEARER_OPS],
  404: [
    'getCycleById',
    'getSleepById',
    'getWorkoutById',
    'getSleepForCycle',
    'getRecoveryForCycle',
    'getBodyMeasurement',
    'getBasicProfile',
    'getActivityMapping',
    ...PARTNER_BY_ID,
    'addTestData',
  ],
  429: USER_DATA_OPS,
  500: [...USER_DATA_OPS, 'getActivityMapping', 'addTestData'],
};

// ---------------------------------------------------------------------------------------------
// Helpers

type Doc = Record<string, unknown>;

function loadDoc(): Doc {
  return parse(readFileSync(specFile, 'utf8')) as Doc;
}

function get(node: unknown, ...keys: string[]): unknown {
  let current = node;
  for (const key of keys) {
    current =
      current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** Resolves a local `#/...` reference of the document. */
function local(doc: Doc, node: unknown): Record<string, unknown> {
  const ref = get(node, '$ref');
  const resolved =
    typeof ref === 'string' && ref.startsWith('#/') ? get(doc, ...ref.slice(2).split('/')) : node;
  return resolved as Record<string, unknown>;
}

function runNode(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: cleanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

function binOf(pkg: string, bin: string): string {
  return join(dirname(requireFromHere.resolve(`${pkg}/package.json`)), bin);
}

function waitForOutput(child: ChildProcess, marker: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${marker}; output:\n${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (marker.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before ${marker}; output:\n${seen}`));
    });
  });
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

/** Starts Prism 5 (`prism <args> -p <free port> -h 127.0.0.1`) and waits until it listens. */
async function startPrism(args: readonly string[]): Promise<{ base: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [binOf('@stoplight/prism-cli', 'dist/index.js'), ...args, '-p', String(port), '-h', '127.0.0.1'],
    { cwd: repoRoot, env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    await waitForOutput(child, /Prism is listening/, 15_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, stop };
}

/** A cycle record without its timezone_offset (filled in by the tests). */
const cycleRecord = {
  id: 93846,
  user_id: 10129,
  created_at: '2025-10-14T03:41:02.000Z',
  updated_at: '2025-10-14T03:41:02.000Z',
  start: '2025-10-14T03:40:00.000Z',
  score_state: 'PENDING_SCORE',
};

// ---------------------------------------------------------------------------------------------
// Tests

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
    expect(Object.keys(flow.scopes as object).sort()).toEqual([
      'read:body_measurement',
      'read:cycles',
      'read:profile',
      'read:recovery',
      'read:sleep',
      'read:workout',
    ]);
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

test.describe('src/cli/bundle-openapi.ts', () => {
  test('as a script, writes a bundle without $id, nested $schema or external $ref', async () => {
    const testInfo = test.info();
    const output = testInfo.outputPath('openapi.bundled.json');
    const { code, stdout, stderr } = await runNode([
      binOf('tsx', 'dist/cli.mjs'),
      join(repoRoot, 'src', 'cli', 'bundle-openapi.ts'),
      output,
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(output);
    const bundled = JSON.parse(readFileSync(output, 'utf8')) as JsonValue & Record<string, unknown>;
    expect(schemaIdentifierKeys(bundled)).toEqual([]);
    expect(externalRefs(bundled)).toEqual([]);
    expect(bundled.openapi).toBe('3.1.0');
    // Every internal reference resolves inside the bundle.
    const refs = JSON.stringify(bundled).match(/"\$ref":"#[^"]*"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1);
      const target = get(
        bundled,
        ...pointer.split('/').map((k) => decodeURIComponent(k).replaceAll('~1', '/').replaceAll('~0', '~')),
      );
      expect(target, ref).toBeDefined();
    }
    const schemas = get(bundled, 'components', 'schemas') as Record<string, unknown>;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['cycle', 'paginated-cycle-response', 'lab-requisition']),
    );
  });

  test('Prism 5 mocks the bundled document: 200 with a body for a collection, 400 for limit > 25', async () => {
    const testInfo = test.info();
    const started = Date.now();
    const file = await writeBundledOpenApi(testInfo.outputPath('openapi.bundled.json'));
    const prism = await startPrism(['mock', file]);
    try {
      const headers = { authorization: 'Bearer conformance-self-test' };
      const list = operationById('listCycles');
      const ok = await fetch(buildUrl(prism.base, list, {}, { limit: 2 }), { headers });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { records?: unknown[] };
      expect(Array.isArray(body.records)).toBe(true);
      expect(body.records?.length).toBeGreaterThan(0);
      // The parameter rules are effective: limit above the maximum is a client error (declared 400).
      const tooMany = await fetch(buildUrl(prism.base, list, {}, { limit: 26 }), { headers });
      expect(tooMany.status).toBe(400);
      expect(tooMany.headers.get('sl-violations') ?? '').toContain('limit');
      await tooMany.body?.cancel();
    } finally {
      prism.stop();
    }
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('Prism 5 proxy validates responses against the inlined schemas (violations are detected)', async () => {
    const testInfo = test.info();
    const started = Date.now();
    const valid = { ...cycleRecord, timezone_offset: '-05:00' };
    const invalid = { ...cycleRecord, timezone_offset: '5 hours' };
    const upstream = createHttpServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      const record = request.url?.includes('nextToken=invalid') ? invalid : valid;
      response.end(JSON.stringify({ records: [record] }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const file = await writeBundledOpenApi(testInfo.outputPath('openapi.bundled.json'));
    const prism = await startPrism(['proxy', file, upstreamUrl, '--errors']);
    try {
      const headers = { authorization: 'Bearer conformance-self-test' };
      const list = operationById('listCycles');
      const ok = await fetch(buildUrl(prism.base, list, {}, { nextToken: 'valid' }), { headers });
      expect(ok.status, ok.headers.get('sl-violations') ?? '').toBe(200);
      await ok.body?.cancel();
      const bad = await fetch(buildUrl(prism.base, list, {}, { nextToken: 'invalid' }), { headers });
      expect(bad.status).toBe(500);
      expect(bad.headers.get('sl-violations') ?? '').toContain('timezone_offset');
      await bad.body?.cancel();
    } finally {
      prism.stop();
      upstream.close();
    }
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('bundleOpenApi() inlines every schema file referenced by the document', async () => {
    const bundled = await bundleOpenApi();
    expect(externalRefs(bundled)).toEqual([]);
    expect(schemaIdentifierKeys(bundled)).toEqual([]);
    expect(bundled.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});

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
    expect(new Set(scopes)).toEqual(
      new Set([
        'read:cycles',
        'read:recovery',
        'read:sleep',
        'read:workout',
        'read:body_measurement',
        'read:profile',
      ]),
    );
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
