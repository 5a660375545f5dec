/**
 * fast-check arbitraries of valid instances, derived from the schemas by one generic converter
 * (no per-resource code). Supports the subset described by `schema-model.ts`.
 *
 * Choices: optional properties are sometimes present, never extra properties; arrays hold 0-3 items
 * (at least minItems); date-times lie in 1971-2099, in any UTC offset; integers without format stay in the safe range.
 * Branches of a oneOf are assumed mutually exclusive (ours are, by score_state); the self-tests check
 * that every generated instance validates.
 */
import fc from 'fast-check';
import { writeInstant } from './date-time-forms.ts';
import { isNumberFormat, numberFormatRanges } from './number-formats.ts';
import { describeSchema, type NumericBounds, type ObjectNode, type SchemaNode } from './schema-model.ts';
import { describeAt, type SchemaAt, schemaAt, standaloneAt } from './schema-refs.ts';
import type { JsonSchema } from './schemas.ts';

/** Valid instances of `schema`; `rootName` names the schema file it belongs to (for relative refs). */
export function arbitraryFromSchema(schema: JsonSchema, rootName?: string): fc.Arbitrary<unknown> {
  return arbitraryAt(standaloneAt(schema, rootName));
}

/** Valid instances of a loaded schema, by name (`validArbitrary('cycle')`). */
export function validArbitrary(schemaName: string): fc.Arbitrary<unknown> {
  return arbitraryAt(schemaAt(schemaName));
}

export function arbitraryAt(at: SchemaAt): fc.Arbitrary<unknown> {
  return arbitraryOfNode(describeSchema(at), at);
}

/** Valid instances of an object node, with the listed properties always present. */
export function objectArbitrary(
  node: ObjectNode,
  alsoRequired: readonly string[] = [],
): fc.Arbitrary<object> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of node.properties) {
    if (!node.forbidden.includes(name)) model[name] = arbitraryAt(property);
  }
  const required = [...new Set([...node.required, ...alsoRequired])];
  for (const name of required) model[name] ??= fc.jsonValue({ maxDepth: 1 });
  return fc.record(model, { requiredKeys: required, noNullPrototype: true });
}

function arbitraryOfNode(node: SchemaNode, at: SchemaAt): fc.Arbitrary<unknown> {
  switch (node.kind) {
    case 'any':
      return fc.jsonValue({ maxDepth: 1 });
    case 'never':
      throw new Error(`${describeAt(at)}: the schema admits no value`);
    case 'enum':
      return fc.constantFrom(...node.values);
    case 'string':
      return stringArbitrary(node, at);
    case 'integer':
      return integerArbitrary(node.bounds, node.format, at);
    case 'number':
      return numberArbitrary(node.bounds, node.format);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = node.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : arbitraryAt(node.items);
      const maxLength = Math.min(node.maxItems ?? Number.POSITIVE_INFINITY, node.minItems + 3);
      return fc.array(items, { minLength: node.minItems, maxLength });
    }
    case 'object':
      return objectArbitrary(node);
    case 'union':
      return fc.oneof(...node.branches.map(arbitraryAt));
  }
}

/** UTC offsets a date-time is written in: zero both ways, and whole and part hours of both signs to ±14:00. */
const offsetArbitrary = fc.oneof(
  fc.constantFrom('Z', '+00:00'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
    .filter(([, hours, minutes]) => hours < 14 || minutes === 0)
    .map(
      ([sign, hours, minutes]) =>
        `${sign}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`,
    ),
);

/** An instant in 1970-2100, written in any offset with 0, 3 or 6 fraction digits (./date-time-forms.ts). */
const dateTimeArbitrary = fc
  .tuple(
    fc.date({
      min: new Date('1971-01-01T00:00:00.000Z'),
      max: new Date('2099-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    }),
    offsetArbitrary,
    fc.constantFrom(0, 3, 6) as fc.Arbitrary<0 | 3 | 6>,
  )
  .map(([date, offset, digits]) => {
    const ms = digits === 0 ? Math.floor(date.getTime() / 1000) * 1000 : date.getTime();
    return writeInstant(ms, { offset, digits });
  });

const formatArbitraries: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  'date-time': dateTimeArbitrary,
  date: dateTimeArbitrary.map((iso) => iso.slice(0, 10)),
};

function stringArbitrary(node: Extract<SchemaNode, { kind: 'string' }>, at: SchemaAt): fc.Arbitrary<string> {
  const { format, pattern } = node;
  if ([format, pattern, node.minLength ?? node.maxLength].filter((k) => k !== undefined).length > 1) {
    throw new Error(`${describeAt(at)}: combining format, pattern and length limits is not supported`);
  }
  if (format !== undefined) {
    return formatArbitraries[format] ?? fail(at, `no generator for string format '${format}'`);
  }
  if (pattern !== undefined) return fc.stringMatching(new RegExp(pattern));
  return fc.string({ minLength: node.minLength ?? 0, maxLength: node.maxLength ?? 20 });
}

/** Inclusive integer range of the bounds intersected with the format (safe range by default). */
export function integerRange(
  bounds: NumericBounds,
  format: string | undefined,
): { min: number; max: number } {
  const range = isNumberFormat(format) ? numberFormatRanges[format] : numberFormatRanges.int64;
  const lower = [
    range.min,
    bounds.minimum,
    bounds.exclusiveMinimum === undefined ? undefined : bounds.exclusiveMinimum + 1,
  ];
  const upper = [
    range.max,
    bounds.maximum,
    bounds.exclusiveMaximum === undefined ? undefined : bounds.exclusiveMaximum - 1,
  ];
  return {
    min: Math.ceil(Math.max(...lower.filter((v) => v !== undefined))),
    max: Math.floor(Math.min(...upper.filter((v) => v !== undefined))),
  };
}

function integerArbitrary(
  bounds: NumericBounds,
  format: string | undefined,
  at: SchemaAt,
): fc.Arbitrary<number> {
  if (format !== undefined && !isNumberFormat(format))
    fail(at, `no generator for integer format '${format}'`);
  const { min, max } = integerRange(bounds, format);
  if (min > max) fail(at, 'the integer range is empty');
  return fc.integer({ min, max });
}

function numberArbitrary(bounds: NumericBounds, format: string | undefined): fc.Arbitrary<number> {
  const range = isNumberFormat(format) ? numberFormatRanges[format] : numberFormatRanges.double;
  const min = Math.max(range.min, bounds.minimum ?? bounds.exclusiveMinimum ?? range.min);
  const max = Math.min(range.max, bounds.maximum ?? bounds.exclusiveMaximum ?? range.max);
  return fc.double({
    min,
    max,
    minExcluded: bounds.minimum === undefined && bounds.exclusiveMinimum !== undefined,
    maxExcluded: bounds.maximum === undefined && bounds.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function fail(at: SchemaAt, message: string): never {
  throw new Error(`${describeAt(at)}: ${message}`);
}
