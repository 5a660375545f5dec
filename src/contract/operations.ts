/**
 * Typed catalogue of the 20 operations of the contract, built at load time from `specs/openapi.yaml`.
 * The conformance tests are table-driven over `operations`.
 *
 * Loading fails loudly (throws) when the document and the fixed operation ids of the README disagree,
 * or when an operation uses a construct this loader does not understand; a silently partial
 * catalogue would make table-driven tests vacuous.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Path of the OpenAPI document the catalogue is built from. */
export const OPENAPI_PATH = fileURLToPath(new URL('../../specs/openapi.yaml', import.meta.url));

/** The fixed operation ids (README, "Conventions"), in the order of the contract's tables. */
export const OPERATION_IDS = [
  'getCycleById',
  'listCycles',
  'getSleepForCycle',
  'getRecoveryForCycle',
  'listRecoveries',
  'getSleepById',
  'listSleeps',
  'getWorkoutById',
  'listWorkouts',
  'getBodyMeasurement',
  'getBasicProfile',
  'revokeUserAccess',
  'getActivityMapping',
  'requestPartnerToken',
  'addTestData',
  'getRequisition',
  'getServiceRequest',
  'updateRequisitionStatus',
  'updateServiceRequestStatus',
  'createServiceRequestResults',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

/** OAuth scopes of the user data API. */
export const USER_SCOPES = [
  'read:cycles',
  'read:recovery',
  'read:sleep',
  'read:workout',
  'read:body_measurement',
  'read:profile',
] as const;
export type UserScope = (typeof USER_SCOPES)[number];

export const AREAS = ['user-data', 'utility', 'partner'] as const;
export type Area = (typeof AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Security requirement of an operation:
 * - `user`: user OAuth token (`scope` null = OAuth without a scope, DELETE /v2/user/access);
 * - `partner`: partner bearer token;
 * - `none`: explicitly no authentication (the partner token request);
 * - `unspecified`: the contract says the requirement is "not shown" (`x-security: unspecified`).
 */
export type OperationSecurity =
  | { readonly kind: 'user'; readonly scope: UserScope | null }
  | { readonly kind: 'partner' }
  | { readonly kind: 'none' }
  | { readonly kind: 'unspecified' };

/** The subset of JSON Schema the document uses for parameters. */
export interface ParameterSchema {
  readonly type: 'integer' | 'string' | 'number' | 'boolean';
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly default?: string | number | boolean;
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface PathParam {
  readonly name: string;
  readonly schema: ParameterSchema;
}

export interface QueryParam {
  readonly name: string;
  readonly schema: ParameterSchema;
  readonly required: boolean;
}

export interface ResponseSpec {
  readonly status: number;
  readonly description: string;
  /** Schema file name without extension (`'cycle'` for `../schemas/cycle.json`); null = no body. */
  readonly schema: string | null;
  /** True for a response known only from the contract's reference samples (`x-reference-sample-only`). */
  readonly referenceSampleOnly: boolean;
}

export interface Operation {
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** Path as written in the contract, relative to `{base_url}`, e.g. `/v2/cycle/{cycleId}`. */
  readonly path: string;
  readonly summary: string;
  readonly area: Area;
  readonly security: OperationSecurity;
  /** A paginated collection read (accepts limit / start / end / nextToken). */
  readonly isCollection: boolean;
  readonly pathParams: readonly PathParam[];
  readonly queryParams: readonly QueryParam[];
  /** The success status the contract's tables give (for addTestData: 204, not the sample-only 200). */
  readonly successStatus: number;
  /** Every declared 2xx status, ascending. */
  readonly successStatuses: readonly number[];
  /** Body schema of `successStatus` (file name without extension), null when it has no body. */
  readonly responseSchema: string | null;
  /** Request body schema (file name without extension), null when the operation takes no body. */
  readonly requestSchema: string | null;
  readonly requestBodyRequired: boolean;
  /** Every declared status, ascending. */
  readonly statuses: readonly number[];
  /** Declared responses by status. */
  readonly responses: ReadonlyMap<number, ResponseSpec>;
  /** `x-environment: non-production`: the operation exists only outside production. */
  readonly nonProductionOnly: boolean;
  /** Safe read (GET): allowed in the read-only production smoke profile. */
  readonly readOnly: boolean;
}

// ---------------------------------------------------------------------------------------------
// Loading

type Json = unknown;
type JsonRecord = Record<string, Json>;

function isRecord(value: Json): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(where: string, message: string): never {
  throw new Error(`${OPENAPI_PATH} ${where}: ${message}`);
}

function asRecord(value: Json, where: string): JsonRecord {
  if (!isRecord(value)) fail(where, 'expected an object');
  return value;
}

function asString(value: Json, where: string): string {
  if (typeof value !== 'string') fail(where, 'expected a string');
  return value;
}

/** Follows a local `#/...` reference (repeatedly); external references are returned unresolved. */
function deref(doc: JsonRecord, value: Json, where: string): JsonRecord {
  let node = asRecord(value, where);
  for (let hops = 0; typeof node.$ref === 'string' && node.$ref.startsWith('#/'); hops++) {
    if (hops > 20) fail(where, 'reference cycle');
    const pointer = node.$ref;
    let target: Json = doc;
    for (const raw of pointer.slice(2).split('/')) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isRecord(target) ? target[key] : undefined;
    }
    node = asRecord(target, `${where} -> ${pointer}`);
  }
  return node;
}

/** `../schemas/cycle.json` -> `cycle`. */
function schemaFileName(schema: Json, where: string): string {
  const ref = asString(asRecord(schema, where).$ref, `${where}.$ref`);
  const match = /^\.\.\/schemas\/([a-z0-9-]+)\.json$/.exec(ref);
  if (!match?.[1]) fail(where, `expected a reference to ../schemas/<name>.json, got ${ref}`);
  return match[1];
}

function bodySchema(doc: JsonRecord, holder: JsonRecord, where: string): string | null {
  if (holder.content === undefined) return null;
  const content = asRecord(holder.content, `${where}.content`);
  const media = content['application/json'];
  if (media === undefined) fail(where, 'only application/json bodies are supported');
  return schemaFileName(deref(doc, media, `${where}.content`).schema, `${where}.schema`);
}

function parameterSchema(value: Json, where: string): ParameterSchema {
  const schema = asRecord(value, where);
  const type = schema.type;
  if (type !== 'integer' && type !== 'string' && type !== 'number' && type !== 'boolean') {
    fail(where, `unsupported parameter type ${String(type)}`);
  }
  const out: {
    type: ParameterSchema['type'];
    format?: string;
    enum?: readonly string[];
    default?: string | number | boolean;
    minimum?: number;
    maximum?: number;
  } = { type };
  if (typeof schema.format === 'string') out.format = schema.format;
  if (Array.isArray(schema.enum)) out.enum = schema.enum.map((v, i) => asString(v, `${where}.enum[${i}]`));
  const dflt = schema.default;
  if (typeof dflt === 'string' || typeof dflt === 'number' || typeof dflt === 'boolean') out.default = dflt;
  if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
  return out;
}

function isUserScope(value: string): value is UserScope {
  return (USER_SCOPES as readonly string[]).includes(value);
}

export function isOperationId(value: string): value is OperationId {
  return (OPERATION_IDS as readonly string[]).includes(value);
}

function securityOf(operation: JsonRecord, where: string): OperationSecurity {
  if (operation.security === undefined) {
    if (operation['x-security'] === 'unspecified') return { kind: 'unspecified' };
    fail(where, 'no security and no `x-security: unspecified`');
  }
  if (!Array.isArray(operation.security)) fail(where, 'security must be an array');
  if (operation.security.length === 0) return { kind: 'none' };
  if (operation.security.length !== 1) fail(where, 'alternative security requirements are not supported');
  const requirement = asRecord(operation.security[0], `${where}.security[0]`);
  const schemes = Object.keys(requirement);
  if (schemes.length !== 1) fail(where, 'combined security schemes are not supported');
  const [scheme] = schemes;
  const scopes = requirement[scheme as string];
  if (!Array.isArray(scopes)) fail(where, 'security scopes must be an array');
  if (scheme === 'partnerBearer') return { kind: 'partner' };
  if (scheme !== 'userOAuth') fail(where, `unknown security scheme ${String(scheme)}`);
  if (scopes.length === 0) return { kind: 'user', scope: null };
  const [scope] = scopes;
  if (scopes.length !== 1 || typeof scope !== 'string' || !isUserScope(scope)) {
    fail(where, `expected exactly one known user scope, got ${JSON.stringify(scopes)}`);
  }
  return { kind: 'user', scope };
}

function buildOperation(
  doc: JsonRecord,
  path: string,
  method: HttpMethod,
  pathItem: JsonRecord,
  raw: JsonRecord,
): Operation {
  const where = `${method} ${path}`;
  const operationId = asString(raw.operationId, `${where}.operationId`);
  if (!isOperationId(operationId)) fail(where, `operationId ${operationId} is not one of the README's`);

  const tags = Array.isArray(raw.tags) ? raw.tags : [];
  const area = tags.find(
    (tag): tag is Area => typeof tag === 'string' && (AREAS as readonly string[]).includes(tag),
  );
  if (area === undefined || tags.length !== 1) fail(where, `expected exactly one tag of ${AREAS.join(', ')}`);

  const pathParams: PathParam[] = [];
  const queryParams: QueryParam[] = [];
  const declared = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(raw.parameters) ? raw.parameters : []),
  ];
  declared.forEach((entry, index) => {
    const parameter = deref(doc, entry, `${where}.parameters[${index}]`);
    const name = asString(parameter.name, `${where}.parameters[${index}].name`);
    const schema = parameterSchema(parameter.schema, `${where}.parameters.${name}.schema`);
    if (parameter.in === 'path') pathParams.push({ name, schema });
    else if (parameter.in === 'query')
      queryParams.push({ name, schema, required: parameter.required === true });
    else fail(where, `unsupported parameter location ${String(parameter.in)} for ${name}`);
  });
  const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const named = pathParams.map((p) => p.name);
  if (templated.join() !== named.join()) {
    fail(
      where,
      `path template {${templated.join('}, {')}} does not match path parameters ${named.join(', ')}`,
    );
  }

  const responsesRaw = asRecord(raw.responses, `${where}.responses`);
  const responses = new Map<number, ResponseSpec>();
  for (const [code, value] of Object.entries(responsesRaw)) {
    const status = Number(code);
    if (!Number.isInteger(status) || status < 100 || status > 599)
      fail(where, `unsupported response key ${code}`);
    const response = deref(doc, value, `${where}.responses.${code}`);
    responses.set(status, {
      status,
      description: asString(response.description, `${where}.responses.${code}.description`),
      schema: bodySchema(doc, response, `${where}.responses.${code}`),
      referenceSampleOnly: response['x-reference-sample-only'] === true,
    });
  }
  const statuses = [...responses.keys()].sort((a, b) => a - b);
  const successStatuses = statuses.filter((s) => s >= 200 && s < 300);
  const primary = successStatuses.filter((s) => responses.get(s)?.referenceSampleOnly !== true);
  const [successStatus] = primary;
  if (successStatus === undefined || primary.length !== 1) {
    fail(
      where,
      `expected exactly one 2xx response not marked x-reference-sample-only, got ${primary.join()}`,
    );
  }

  let requestSchema: string | null = null;
  let requestBodyRequired = false;
  if (raw.requestBody !== undefined) {
    const body = deref(doc, raw.requestBody, `${where}.requestBody`);
    requestSchema = bodySchema(doc, body, `${where}.requestBody`);
    requestBodyRequired = body.required === true;
  }

  const queryNames = new Set(queryParams.map((q) => q.name));
  return {
    operationId,
    method,
    path,
    summary: typeof raw.summary === 'string' ? raw.summary : '',
    area,
    security: securityOf(raw, where),
    isCollection: ['limit', 'start', 'end', 'nextToken'].every((name) => queryNames.has(name)),
    pathParams,
    queryParams,
    successStatus,
    successStatuses,
    responseSchema: responses.get(successStatus)?.schema ?? null,
    requestSchema,
    requestBodyRequired,
    statuses,
    responses,
    nonProductionOnly: raw['x-environment'] === 'non-production',
    readOnly: method === 'GET',
  };
}

/** Builds the catalogue from an OpenAPI document on disk (default: `specs/openapi.yaml`). */
export function loadOperations(file: string = OPENAPI_PATH): readonly Operation[] {
  const doc = asRecord(parse(readFileSync(file, 'utf8')) as Json, 'document');
  const paths = asRecord(doc.paths, 'paths');
  const found: Operation[] = [];
  for (const [path, value] of Object.entries(paths)) {
    const pathItem = asRecord(value, path);
    for (const [key, operation] of Object.entries(pathItem)) {
      const method = key.toUpperCase() as HttpMethod;
      if (!HTTP_METHODS.includes(method)) continue;
      found.push(buildOperation(doc, path, method, pathItem, asRecord(operation, `${key} ${path}`)));
    }
  }
  const ids = found.map((op) => op.operationId);
  const duplicated = ids.filter((id, index) => ids.indexOf(id) !== index);
  const missing = OPERATION_IDS.filter((id) => !ids.includes(id));
  if (duplicated.length > 0 || missing.length > 0) {
    fail('paths', `duplicated operationIds [${duplicated.join(', ')}], missing [${missing.join(', ')}]`);
  }
  // Catalogue order = README order, independent of the document's path order.
  return OPERATION_IDS.map((id) => found.find((op) => op.operationId === id) as Operation);
}

/** The 20 operations, in the README's order. */
export const operations: readonly Operation[] = loadOperations();

const byId: ReadonlyMap<OperationId, Operation> = new Map(operations.map((op) => [op.operationId, op]));

/** The operation with this id (the id type guarantees it exists). */
export function operationById(id: OperationId): Operation {
  const operation = byId.get(id);
  if (operation === undefined) throw new Error(`unknown operation ${id}`);
  return operation;
}

// ---------------------------------------------------------------------------------------------
// Request construction

export type PathParamValue = string | number | bigint;
export type QueryValue = string | number | boolean | bigint | null | undefined;

/**
 * Expands the path template of `op` with `params` (each value URI-encoded) and appends `query`
 * (entries whose value is `undefined` or `null` are skipped; values are sent as given, so invalid
 * values can be sent on purpose). Returns a path relative to `{base_url}`, e.g.
 * `buildPath(operationById('getCycleById'), { cycleId: 93845 })` → `/v2/cycle/93845`.
 * Throws when a path parameter is missing or an unknown path parameter is given.
 */
export function buildPath(
  op: Operation,
  params: Readonly<Record<string, PathParamValue>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  const expected = new Set(op.pathParams.map((p) => p.name));
  const unknown = Object.keys(params).filter((name) => !expected.has(name));
  if (unknown.length > 0)
    throw new Error(`${op.operationId}: unknown path parameter(s) ${unknown.join(', ')}`);
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const queryString = search.toString();
  return queryString === '' ? path : `${path}?${queryString}`;
}

/**
 * Absolute URL of a request: `baseUrl` (the service root, e.g. `http://host/developer`, with or
 * without a trailing slash) joined with `buildPath(op, params, query)`. Unlike `new URL(path, base)`
 * it keeps the base's path prefix.
 */
export function buildUrl(
  baseUrl: string,
  op: Operation,
  params: Readonly<Record<string, PathParamValue>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  return `${baseUrl.replace(/\/+$/, '')}${buildPath(op, params, query)}`;
}
