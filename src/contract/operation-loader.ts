/**
 * Builds the catalogue of operations from `specs/openapi.yaml` (or another OpenAPI document).
 *
 * Loading fails loudly (throws) when the document and the fixed operation ids of docs/layout.md disagree,
 * or when an operation uses a construct this loader does not understand; a silently partial
 * catalogue would make table-driven tests vacuous.
 */
import { join } from 'node:path';
import { packageRoot } from '../run-state/package.ts';
import {
  AREAS,
  type Area,
  type HttpMethod,
  isOperationId,
  OPERATION_IDS,
  type Operation,
  type OperationSecurity,
  type ParameterSchema,
  type PathParam,
  type QueryParam,
  type ResponseSpec,
  USER_SCOPES,
  type UserScope,
} from './operation-model.ts';
import { readYamlFile } from './yaml-file.ts';

/** Path of the OpenAPI document the catalogue is built from. */
export const OPENAPI_PATH = join(packageRoot, 'specs', 'openapi.yaml');

const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

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

/** The operation's one area, its only tag. */
function areaOf(raw: JsonRecord, where: string): Area {
  const tags = Array.isArray(raw.tags) ? raw.tags : [];
  const area = tags.find(
    (tag): tag is Area => typeof tag === 'string' && (AREAS as readonly string[]).includes(tag),
  );
  if (area === undefined || tags.length !== 1) fail(where, `expected exactly one tag of ${AREAS.join(', ')}`);
  return area;
}

/** The path's and the operation's parameters, the path's named as its template names them. */
function parametersOf(doc: JsonRecord, path: string, pathItem: JsonRecord, raw: JsonRecord, where: string) {
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
  return { pathParams, queryParams };
}

/** The responses by status, and the one 2xx that is not a reference sample only: the success status. */
function responsesOf(doc: JsonRecord, raw: JsonRecord, where: string) {
  const responses = new Map<number, ResponseSpec>();
  for (const [code, value] of Object.entries(asRecord(raw.responses, `${where}.responses`))) {
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
  return { responses, statuses, successStatuses, successStatus };
}

/** The request body's schema (null: none) and whether it is required. */
function requestBodyOf(doc: JsonRecord, raw: JsonRecord, where: string) {
  if (raw.requestBody === undefined) return { requestSchema: null, requestBodyRequired: false };
  const body = deref(doc, raw.requestBody, `${where}.requestBody`);
  return {
    requestSchema: bodySchema(doc, body, `${where}.requestBody`),
    requestBodyRequired: body.required === true,
  };
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
  if (!isOperationId(operationId)) fail(where, `operationId ${operationId} is not one of docs/layout.md's`);
  const area = areaOf(raw, where);
  const { pathParams, queryParams } = parametersOf(doc, path, pathItem, raw, where);
  const { responses, statuses, successStatuses, successStatus } = responsesOf(doc, raw, where);
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
    ...requestBodyOf(doc, raw, where),
    statuses,
    responses,
    nonProductionOnly: raw['x-environment'] === 'non-production',
    readOnly: method === 'GET',
  };
}

/** Builds the catalogue from an OpenAPI document on disk (default: `specs/openapi.yaml`). */
export function loadOperations(file: string = OPENAPI_PATH): readonly Operation[] {
  const doc = asRecord(readYamlFile(file) as Json, 'document');
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
  // Catalogue order = docs/layout.md order, independent of the document's path order.
  return OPERATION_IDS.map((id) => found.find((op) => op.operationId === id) as Operation);
}
