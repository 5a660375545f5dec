// fast-check arbitraries of invalid instances, derived from the schemas by one generic converter. A schema
// yields labelled mutations; each breaks exactly one rule, named by the keyword `validate()` reports (`type`,
// `minimum`, `format`, `required`, `enum`, `not`, `oneOf`, ...) at the JSON pointer of the offending value;
// nested schemas mutate under the property (or first item) that holds them, the rest stays valid.
// Unions with a discriminator (score_state): an unknown discriminator value, conditional properties (score)
// dropped or added against their branch (rule `oneOf`), and each branch's other rules broken inside it.
// Without one (PatientCore's overlapping anyOf) only what all branches share is broken: breaking one branch's
// own rule can leave the instance valid for another.
import fc from 'fast-check';
import { isNumberFormat, numberFormatRanges } from './number-formats.ts';
import {
  describeSchema,
  type NumericBounds,
  type ObjectNode,
  type SchemaNode,
  type UnionNode,
} from './schema-model.ts';
import { escapePointerToken, type SchemaAt, schemaAt, standaloneAt } from './schema-refs.ts';
import type { JsonSchema } from './schemas.ts';
import { analyseUnion, type ConditionalProperty, type UnionAnalysis } from './union-analysis.ts';
import { arbitraryAt, objectArbitrary } from './valid-arbitraries.ts';

/** An invalid instance and the one rule it breaks. */
export interface InvalidCase<T = unknown> {
  readonly value: T;
  /** The keyword `validate()` reports for it (e.g. `maximum`, `required`, `oneOf`). */
  readonly rule: string;
  /** JSON pointer of the offending location in `value` (`''` for the root). */
  readonly pointer: string;
  readonly description: string;
}

/** One labelled way to break a schema. */
export interface Mutation {
  readonly rule: string;
  readonly pointer: string;
  readonly description: string;
  readonly arbitrary: fc.Arbitrary<unknown>;
  /** Still invalid once sent as a string (a query or path parameter). */
  readonly asParameter: boolean;
}

/** Invalid instances of `schema`; `rootName` names the schema file it belongs to (for relative refs). */
export function invalidArbitraryFromSchema(schema: JsonSchema, rootName?: string): fc.Arbitrary<InvalidCase> {
  return casesOf(mutationsAt(standaloneAt(schema, rootName)));
}

/** Invalid instances of a loaded schema, by name. */
export function invalidArbitrary(schemaName: string): fc.Arbitrary<InvalidCase> {
  return casesOf(mutationsAt(schemaAt(schemaName)));
}

/** Picks a mutation, then an instance from it. Throws when there is none (the schema admits anything). */
export function casesOf(mutations: readonly Mutation[]): fc.Arbitrary<InvalidCase> {
  if (mutations.length === 0)
    throw new Error('the schema admits every value: no invalid instance to generate');
  return fc.oneof(
    ...mutations.map(({ rule, pointer, description, arbitrary }) =>
      arbitrary.map((value) => ({ value, rule, pointer, description })),
    ),
  );
}

export function mutationsAt(at: SchemaAt): Mutation[] {
  return mutationsOfNode(describeSchema(at));
}

function mutationsOfNode(node: SchemaNode): Mutation[] {
  switch (node.kind) {
    case 'any':
    case 'never':
      return [];
    case 'enum':
      return enumMutations(node.keyword, node.values);
    case 'string':
      return [...wrongType('string'), ...stringMutations(node)];
    case 'integer':
    case 'number':
      return [...wrongType(node.kind), ...numericMutations(node.kind, node.bounds, node.format)];
    case 'boolean':
    case 'null':
      return wrongType(node.kind);
    case 'array':
      return [...wrongType('array'), ...arrayMutations(node)];
    case 'object':
      return [...wrongType('object'), ...objectMutations(node)];
    case 'union':
      return unionMutations(node);
  }
}

function mutation(
  rule: string,
  description: string,
  arbitrary: fc.Arbitrary<unknown>,
  asParameter: boolean,
): Mutation {
  return { rule, pointer: '', description, arbitrary, asParameter };
}

/** Wrong-type values: those that stay wrong as a parameter string, and JSON-only ones. */
const WRONG_TYPE: Record<string, { parameter: unknown[]; jsonOnly: unknown[] }> = {
  string: { parameter: [], jsonOnly: [42, true, null] },
  integer: { parameter: ['abc', '', 1.5], jsonOnly: ['42', null] },
  number: { parameter: ['abc', ''], jsonOnly: ['4.2', null] },
  boolean: { parameter: ['maybe'], jsonOnly: ['true', 1, null] },
  null: { parameter: [], jsonOnly: [0, 'null'] },
  array: { parameter: [], jsonOnly: ['not-an-array', {}, null] },
  object: { parameter: [], jsonOnly: ['not-an-object', [], null] },
};

function wrongType(type: string): Mutation[] {
  const { parameter, jsonOnly } = WRONG_TYPE[type] ?? { parameter: [], jsonOnly: [] };
  const description = `not ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  return [
    ...(parameter.length > 0 ? [mutation('type', description, fc.constantFrom(...parameter), true)] : []),
    ...(jsonOnly.length > 0 ? [mutation('type', description, fc.constantFrom(...jsonOnly), false)] : []),
  ];
}

/** Values outside `values`, of the same JSON type as the allowed values. */
function valuesOutside(values: readonly unknown[]): unknown[] {
  const candidates =
    typeof values[0] === 'number' ? [-987654321, 0.5, 123456789] : ['NOT_AN_ALLOWED_VALUE', 'x', ''];
  return candidates.filter((c) => !values.includes(c));
}

function enumMutations(keyword: 'enum' | 'const', values: readonly unknown[]): Mutation[] {
  const allowed = values.map((v) => JSON.stringify(v)).join(', ');
  return [mutation(keyword, `not one of ${allowed}`, fc.constantFrom(...valuesOutside(values)), true)];
}

const INVALID_FORMAT_VALUES: Record<string, string[]> = {
  uuid: ['abc', '', '123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000', '42'],
  'date-time': [
    'not-a-date',
    '',
    '2024-13-01T00:00:00Z',
    '2024-01-01T00:00Z',
    '2024-01-01T00:00:00',
    '2024-01-01',
  ],
  date: ['not-a-date', '', '2024-02-30', '01/02/2024', '2024-1-1', '2024-01-01T00:00:00Z'],
};

const PATTERN_CANDIDATES = [
  '',
  'abc',
  'z',
  'UTC',
  '+5:00',
  '+05:0',
  '+0500',
  '05:00',
  '+24:00',
  '+05:60',
  ' Z',
];

function stringMutations(node: Extract<SchemaNode, { kind: 'string' }>): Mutation[] {
  const result: Mutation[] = [];
  if (node.format !== undefined) {
    const values = INVALID_FORMAT_VALUES[node.format];
    if (values === undefined) throw new Error(`no invalid values known for string format '${node.format}'`);
    result.push(mutation('format', `not a ${node.format}`, fc.constantFrom(...values), true));
  }
  if (node.pattern !== undefined) {
    const regex = new RegExp(node.pattern, 'u');
    const values = PATTERN_CANDIDATES.filter((candidate) => !regex.test(candidate));
    if (values.length > 0) {
      result.push(mutation('pattern', `does not match ${node.pattern}`, fc.constantFrom(...values), true));
    }
  }
  if (node.minLength !== undefined && node.minLength > 0) {
    result.push(mutation('minLength', 'too short', fc.constant('x'.repeat(node.minLength - 1)), true));
  }
  if (node.maxLength !== undefined) {
    result.push(mutation('maxLength', 'too long', fc.constant('x'.repeat(node.maxLength + 1)), true));
  }
  return result;
}

/** Out-of-range values: each below/above an explicit bound, or beyond the format where unbounded. */
function numericMutations(
  kind: 'integer' | 'number',
  bounds: NumericBounds,
  format: string | undefined,
): Mutation[] {
  const result: Mutation[] = [];
  // Out-of-range values stay inside the format's range, so that they break one rule only.
  const range = isNumberFormat(format)
    ? numberFormatRanges[format]
    : numberFormatRanges[kind === 'integer' ? 'int64' : 'double'];
  const outside = (rule: string, side: 'below' | 'above', limit: number, inclusive: boolean) => {
    const step = kind === 'integer' && !inclusive ? 1 : 0;
    const [min, max] =
      side === 'below'
        ? [Math.max(range.min, limit - 1000), limit - step]
        : [limit + step, Math.min(range.max, limit + 1000)];
    if (min > max) return;
    const broken = (v: number) =>
      side === 'below' ? v < limit || (inclusive && v === limit) : v > limit || (inclusive && v === limit);
    const arbitrary = kind === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
    result.push(
      mutation(rule, `${side} ${limit}${inclusive ? ' or equal' : ''}`, arbitrary.filter(broken), true),
    );
  };
  if (bounds.minimum !== undefined) outside('minimum', 'below', bounds.minimum, false);
  if (bounds.exclusiveMinimum !== undefined)
    outside('exclusiveMinimum', 'below', bounds.exclusiveMinimum, true);
  if (bounds.maximum !== undefined) outside('maximum', 'above', bounds.maximum, false);
  if (bounds.exclusiveMaximum !== undefined)
    outside('exclusiveMaximum', 'above', bounds.exclusiveMaximum, true);
  if (isNumberFormat(format) && format !== 'double') {
    const { min, max } = numberFormatRanges[format];
    const beyond =
      format === 'int32' ? [max + 1, max + 1000] : format === 'int64' ? [2 ** 53, 2 ** 60] : [1e39, 1e300];
    if (bounds.maximum === undefined && bounds.exclusiveMaximum === undefined) {
      result.push(mutation('format', `above the ${format} range (${max})`, fc.constantFrom(...beyond), true));
    }
    if (bounds.minimum === undefined && bounds.exclusiveMinimum === undefined) {
      const negative = beyond.map((v) => (format === 'int32' ? min - (v - max) : -v));
      result.push(
        mutation('format', `below the ${format} range (${min})`, fc.constantFrom(...negative), true),
      );
    }
  }
  return result;
}

function arrayMutations(node: Extract<SchemaNode, { kind: 'array' }>): Mutation[] {
  const result: Mutation[] = [];
  if (node.items !== undefined) {
    const itemArbitrary = arbitraryAt(node.items);
    for (const m of mutationsAt(node.items)) {
      result.push({
        ...m,
        pointer: `/0${m.pointer}`,
        description: `first item: ${m.description}`,
        arbitrary: fc
          .tuple(m.arbitrary, fc.array(itemArbitrary, { maxLength: 2 }))
          .map(([bad, rest]) => [bad, ...rest]),
        asParameter: false,
      });
    }
  }
  const item = node.items === undefined ? fc.constant(null) : arbitraryAt(node.items);
  if (node.minItems > 0) {
    const short = fc.array(item, { minLength: node.minItems - 1, maxLength: node.minItems - 1 });
    result.push(mutation('minItems', `fewer than ${node.minItems} items`, short, false));
  }
  if (node.maxItems !== undefined) {
    const long = fc.array(item, { minLength: node.maxItems + 1, maxLength: node.maxItems + 1 });
    result.push(mutation('maxItems', `more than ${node.maxItems} items`, long, false));
  }
  return result;
}

/** What an object's mutations leave alone (used inside union branches). */
interface Skip {
  readonly properties?: ReadonlySet<string>;
  readonly presence?: ReadonlySet<string>;
}

function objectMutations(node: ObjectNode, skip: Skip = {}): Mutation[] {
  const base = objectArbitrary(node);
  const result: Mutation[] = [];
  for (const name of node.required) {
    if (skip.presence?.has(name)) continue;
    result.push(missing(base, name));
  }
  for (const name of node.forbidden) {
    if (skip.presence?.has(name)) continue;
    result.push({
      ...mutation(
        'not',
        `${name} present`,
        base.map((o) => ({ ...o, [name]: {} })),
        false,
      ),
      pointer: `/${escapePointerToken(name)}`,
    });
  }
  for (const [name, at] of node.properties) {
    if (node.forbidden.includes(name) || skip.properties?.has(name)) continue;
    result.push(...nested(base, name, mutationsAt(at)));
  }
  return result;
}

/** Otherwise valid objects without the required property `name`. */
function missing(base: fc.Arbitrary<object>, name: string): Mutation {
  return {
    ...mutation(
      'required',
      `${name} missing`,
      base.map((o) => without(o, name)),
      false,
    ),
    pointer: `/${escapePointerToken(name)}`,
  };
}

/** Mutations of a property's schema, placed in otherwise valid objects. */
function nested(base: fc.Arbitrary<object>, name: string, mutations: readonly Mutation[]): Mutation[] {
  return mutations.map((m) => ({
    ...m,
    pointer: `/${escapePointerToken(name)}${m.pointer}`,
    description: `${name}: ${m.description}`,
    arbitrary: fc.tuple(base, m.arbitrary).map(([o, value]) => ({ ...o, [name]: value })),
    asParameter: false,
  }));
}

/** Mutations of a union without a discriminator: only what every branch shares is broken. */
function sharedMutations(analysis: UnionAnalysis): Mutation[] {
  const { branches } = analysis;
  const base = fc.oneof(...branches.map((branch) => objectArbitrary(branch)));
  const [first] = branches;
  const result = analysis.commonRequired.map((name) => missing(base, name));
  for (const name of analysis.commonProperties) {
    const at = first?.properties.get(name);
    if (at !== undefined) result.push(...nested(base, name, mutationsAt(at)));
  }
  return result;
}

/** A conditional property absent from the branches that require it, present in those that forbid it. */
function conditionalMutations(
  branches: readonly ObjectNode[],
  c: ConditionalProperty,
  label: (i: number) => string,
): Mutation[] {
  const source = branches[c.requiredIn[0] ?? 0]?.properties.get(c.property);
  const absent = c.requiredIn.map((i) =>
    mutation(
      'oneOf',
      `${c.property} absent while ${label(i)}`,
      objectArbitrary(branches[i] as ObjectNode).map((o) => without(o, c.property)),
      false,
    ),
  );
  if (source === undefined) return absent;
  const present = c.forbiddenIn.map((i) => {
    const arbitrary = fc
      .tuple(objectArbitrary(branches[i] as ObjectNode), arbitraryAt(source))
      .map(([o, value]) => ({ ...o, [c.property]: value }));
    return mutation('oneOf', `${c.property} present while ${label(i)}`, arbitrary, false);
  });
  return [...absent, ...present];
}

function unionMutations(node: UnionNode): Mutation[] {
  const analysis = analyseUnion(node);
  if (analysis === undefined) return [];
  const { branches, discriminator, conditional } = analysis;
  const result = wrongType('object');
  if (discriminator === undefined) return [...result, ...sharedMutations(analysis)];
  const d = discriminator.property;
  const allValues = discriminator.values.flat();
  const anyBranch = fc.oneof(...branches.map((branch) => objectArbitrary(branch)));
  const badValue = fc.tuple(anyBranch, fc.constantFrom(...valuesOutside(allValues)));
  result.push({
    ...mutation(
      'enum',
      `${d} not one of ${allValues.join(', ')}`,
      badValue.map(([o, v]) => ({ ...o, [d]: v })),
      false,
    ),
    pointer: `/${escapePointerToken(d)}`,
  });
  const label = (i: number) => `${d} ${(discriminator.values[i] ?? []).join('/')}`;
  for (const c of conditional) result.push(...conditionalMutations(branches, c, label));
  const skip: Skip = { properties: new Set([d]), presence: new Set(conditional.map((c) => c.property)) };
  branches.forEach((branch, i) => {
    for (const m of objectMutations(branch, skip))
      result.push({ ...m, description: `${label(i)}, ${m.description}` });
  });
  return result;
}

function without(object: object, name: string): object {
  const { [name]: _removed, ...rest } = object as Record<string, unknown>;
  return rest;
}
