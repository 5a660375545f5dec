/**
 * A small normalised view of the JSON Schema subset our schemas use, shared by the arbitraries and
 * the error explanations: `describeSchema()` turns a schema node into one `SchemaNode` (refs followed,
 * `allOf` merged, `not: {required: [x]}` read as "x is forbidden", unions with their siblings merged
 * into each branch). Anything outside the subset throws, so nothing is silently ignored.
 */
import { REQUIREMENT_KEYWORD } from './requirement-keyword.ts';
import { childAt, describeAt, resolveRef, type SchemaAt } from './schema-refs.ts';
import { isJsonObject, type JsonSchemaObject } from './schemas.ts';

export interface NumericBounds {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
}

export type SchemaNode =
  | { readonly kind: 'any' }
  | { readonly kind: 'never' }
  | { readonly kind: 'enum'; readonly keyword: 'enum' | 'const'; readonly values: readonly unknown[] }
  | {
      readonly kind: 'string';
      readonly format?: string;
      readonly pattern?: string;
      readonly minLength?: number;
      readonly maxLength?: number;
    }
  | { readonly kind: 'integer' | 'number'; readonly format?: string; readonly bounds: NumericBounds }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'null' }
  | {
      readonly kind: 'array';
      readonly items?: SchemaAt;
      readonly minItems: number;
      readonly maxItems?: number;
    }
  | ObjectNode
  | UnionNode;

export interface ObjectNode {
  readonly kind: 'object';
  readonly properties: ReadonlyMap<string, SchemaAt>;
  readonly required: readonly string[];
  /** Properties that must be absent (`not: {required: [name]}`). */
  readonly forbidden: readonly string[];
}

export interface UnionNode {
  readonly kind: 'union';
  readonly keyword: 'oneOf' | 'anyOf';
  readonly branches: readonly SchemaAt[];
}

/** Keywords without validation effect. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  REQUIREMENT_KEYWORD,
]);

const SUPPORTED = new Set([
  ...ANNOTATIONS,
  '$ref',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'not',
  'allOf',
  'oneOf',
  'anyOf',
]);

/** The normalised node of a schema. */
export function describeSchema(at: SchemaAt): SchemaNode {
  const { schema } = at;
  if (schema === true) return { kind: 'any' };
  if (schema === false) return { kind: 'never' };
  const unsupported = Object.keys(schema).filter((keyword) => !SUPPORTED.has(keyword));
  if (unsupported.length > 0) fail(at, `unsupported keyword(s) ${unsupported.join(', ')}`);
  if (typeof schema.$ref === 'string') {
    const siblings = constraintsWithout(schema, ['$ref']);
    if (siblings === undefined) return describeSchema(resolveRef(schema.$ref, at));
    return describeSchema({ ...at, schema: { allOf: [siblings, { $ref: schema.$ref }] } });
  }
  const unionKeyword =
    schema.oneOf !== undefined ? 'oneOf' : schema.anyOf !== undefined ? 'anyOf' : undefined;
  if (unionKeyword !== undefined) return describeUnion(at, schema, unionKeyword);
  if (Array.isArray(schema.allOf)) return mergeObjects(at, schema);
  if (schema.const !== undefined) return { kind: 'enum', keyword: 'const', values: [schema.const] };
  if (Array.isArray(schema.enum)) return { kind: 'enum', keyword: 'enum', values: schema.enum };
  if (Array.isArray(schema.type)) {
    const branches = schema.type.map((type) => ({ ...at, schema: { ...schema, type } }));
    return { kind: 'union', keyword: 'anyOf', branches };
  }
  return describeTyped(at, schema, typeof schema.type === 'string' ? schema.type : inferType(at, schema));
}

/** A schema of one type (stated, or inferred from its keywords) as its node. */
function describeTyped(at: SchemaAt, schema: JsonSchemaObject, type: string): SchemaNode {
  switch (type) {
    case 'any':
      return { kind: 'any' };
    case 'string':
      return {
        kind: 'string',
        format: stringOf(schema.format),
        pattern: stringOf(schema.pattern),
        minLength: numberOf(schema.minLength),
        maxLength: numberOf(schema.maxLength),
      };
    case 'integer':
    case 'number':
      return {
        kind: type,
        format: stringOf(schema.format),
        bounds: {
          minimum: numberOf(schema.minimum),
          maximum: numberOf(schema.maximum),
          exclusiveMinimum: numberOf(schema.exclusiveMinimum),
          exclusiveMaximum: numberOf(schema.exclusiveMaximum),
        },
      };
    case 'boolean':
    case 'null':
      return { kind: type };
    case 'array':
      return {
        kind: 'array',
        items: schema.items === undefined ? undefined : childAt(at, 'items'),
        minItems: numberOf(schema.minItems) ?? 0,
        maxItems: numberOf(schema.maxItems),
      };
    case 'object':
      return objectOf(at, schema);
    default:
      return fail(at, `unsupported type ${String(type)}`);
  }
}

/** Describes a node that must be an object schema (e.g. a union branch or an allOf member). */
export function describeObject(at: SchemaAt): ObjectNode {
  const node = describeSchema(at);
  if (node.kind === 'any') return { kind: 'object', properties: new Map(), required: [], forbidden: [] };
  if (node.kind !== 'object') fail(at, `expected an object schema, found ${node.kind}`);
  return node;
}

/** The property names of `not: {required: [name]}` (with optional trivially-true `properties`). */
export function forbiddenProperties(not: unknown): string[] | undefined {
  if (!isJsonObject(not) || !Array.isArray(not.required) || not.required.length !== 1) return undefined;
  const extra = Object.keys(not).filter(
    (key) => !ANNOTATIONS.has(key) && key !== 'required' && key !== 'properties',
  );
  const properties = not.properties === undefined ? {} : not.properties;
  if (extra.length > 0 || !isJsonObject(properties)) return undefined;
  const trivial = Object.values(properties).every((p) => p === true || (isJsonObject(p) && isTrivial(p)));
  return trivial ? [String(not.required[0])] : undefined;
}

function describeUnion(at: SchemaAt, schema: JsonSchemaObject, keyword: 'oneOf' | 'anyOf'): UnionNode {
  if (schema.oneOf !== undefined && schema.anyOf !== undefined) fail(at, 'oneOf together with anyOf');
  const list = schema[keyword];
  if (!Array.isArray(list)) fail(at, `${keyword} must be an array`);
  const siblings = constraintsWithout(schema, [keyword]);
  const branches = list.map((_, i) => {
    const branch = childAt(at, keyword, i);
    return siblings === undefined ? branch : { ...at, schema: { allOf: [siblings, branch.schema] } };
  });
  return { kind: 'union', keyword, branches };
}

/** An object node from `allOf` members (each an object schema) plus the node's own object keywords. */
function mergeObjects(at: SchemaAt, schema: JsonSchemaObject): ObjectNode {
  const members = (schema.allOf as unknown[]).map((_, i) => describeObject(childAt(at, 'allOf', i)));
  const own = constraintsWithout(schema, ['allOf']);
  if (own !== undefined) members.push(describeObject({ ...at, schema: own }));
  const properties = new Map<string, SchemaAt>();
  for (const member of members) {
    for (const [name, property] of member.properties) {
      const previous = properties.get(name);
      if (previous !== undefined && JSON.stringify(previous.schema) !== JSON.stringify(property.schema)) {
        fail(at, `allOf members define property '${name}' differently`);
      }
      properties.set(name, property);
    }
  }
  return {
    kind: 'object',
    properties,
    required: [...new Set(members.flatMap((m) => m.required))],
    forbidden: [...new Set(members.flatMap((m) => m.forbidden))],
  };
}

function objectOf(at: SchemaAt, schema: JsonSchemaObject): ObjectNode {
  const properties = new Map<string, SchemaAt>();
  if (isJsonObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) properties.set(name, childAt(at, 'properties', name));
  }
  let forbidden: string[] = [];
  if (schema.not !== undefined) {
    forbidden = forbiddenProperties(schema.not) ?? fail(at, 'only `not: {required: [name]}` is supported');
  }
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  return { kind: 'object', properties, required, forbidden };
}

function inferType(at: SchemaAt, schema: JsonSchemaObject): string {
  if (schema.properties !== undefined || schema.required !== undefined || schema.not !== undefined)
    return 'object';
  if (schema.items !== undefined) return 'array';
  if (isTrivial(schema)) return 'any';
  return fail(at, 'a schema with constraints must declare its type');
}

/** The node's validation keywords minus `without`, or undefined when none remain. */
function constraintsWithout(schema: JsonSchemaObject, without: string[]): JsonSchemaObject | undefined {
  const rest = Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key) && !without.includes(key));
  return rest.length === 0 ? undefined : Object.fromEntries(rest);
}

function isTrivial(schema: JsonSchemaObject): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function fail(at: SchemaAt, message: string): never {
  throw new Error(`${describeAt(at)}: ${message}`);
}
