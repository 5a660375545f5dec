// "Strict copies" of the schemas, used only to report unknown properties (notes, never failures).
// `unevaluatedProperties: false` goes at every value position whose schema can describe an object (next to
// `type: object`, `properties`, a `$ref` or a union), never on a oneOf/anyOf/allOf branch: a strict branch
// would reject what only its sibling declares (PatientCore's extended variant as a plain Patient) and fail
// the union instead of giving a note. At the enclosing position it sees what the passing branches evaluated.
// Roots are made strict by the wrapper `{ $ref: <id>, unevaluatedProperties: false }` compiled per schema.
import { isJsonObject, type JsonSchema, type JsonSchemaObject } from './schemas.ts';

/** Keywords whose value is a map of name → subschema in a value position. */
const VALUE_MAPS = ['properties', 'patternProperties'];
/** Keywords whose value is a subschema in a value position. */
const VALUE_SCHEMAS = ['items', 'additionalProperties', 'contains'];
/** Keywords whose value is a list of branch subschemas (applicators on the same instance). */
const BRANCH_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
/** Keywords whose value is a map of definitions or a single applicator subschema. */
const OTHER_SUBSCHEMAS = ['$defs', 'not', 'if', 'then', 'else'];

export function withUnevaluatedPropertiesFalse(schema: JsonSchemaObject): JsonSchemaObject {
  return copy(schema, false) as JsonSchemaObject;
}

function copy(schema: JsonSchema, valuePosition: boolean): JsonSchema {
  if (!isJsonObject(schema)) return schema;
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (VALUE_MAPS.includes(keyword) && isJsonObject(value)) {
      result[keyword] = mapValues(value, (child) => copy(child, true));
    } else if (VALUE_SCHEMAS.includes(keyword)) {
      result[keyword] = copy(value as JsonSchema, true);
    } else if (BRANCH_LISTS.includes(keyword) && Array.isArray(value)) {
      result[keyword] = value.map((child: JsonSchema) => copy(child, keyword === 'prefixItems'));
    } else if (keyword === '$defs' && isJsonObject(value)) {
      result[keyword] = mapValues(value, (child) => copy(child, false));
    } else if (OTHER_SUBSCHEMAS.includes(keyword)) {
      result[keyword] = copy(value as JsonSchema, false);
    } else {
      result[keyword] = value;
    }
  }
  if (valuePosition && canDescribeObject(schema) && !('unevaluatedProperties' in schema)) {
    result.unevaluatedProperties = false;
  }
  return result;
}

function canDescribeObject(schema: JsonSchemaObject): boolean {
  const type = schema.type;
  if (type !== undefined) return type === 'object' || (Array.isArray(type) && type.includes('object'));
  return ['properties', '$ref', 'oneOf', 'anyOf', 'allOf'].some((keyword) => keyword in schema);
}

function mapValues(map: JsonSchemaObject, f: (child: JsonSchema) => JsonSchema): JsonSchemaObject {
  return Object.fromEntries(Object.entries(map).map(([key, child]) => [key, f(child as JsonSchema)]));
}
