/**
 * Arbitraries of query/path parameter values. Parameters travel as strings, so values are
 * serialised with `String()`, and invalid cases that a string rendering would make valid (a number
 * for a string parameter, '42' for an integer one) are left out.
 */
import fc from 'fast-check';
import { type InvalidCase, mutationsAt } from './invalid-arbitraries.ts';
import { standaloneAt } from './schema-refs.ts';
import type { JsonSchema } from './schemas.ts';
import { arbitraryAt } from './valid-arbitraries.ts';

/** Valid values of a scalar parameter schema, as the strings a client sends. */
export function validParameterValues(schema: JsonSchema, rootName?: string): fc.Arbitrary<string> {
  return arbitraryAt(standaloneAt(schema, rootName)).map(parameterString);
}

/**
 * Labelled invalid values of a scalar parameter schema, as strings (e.g. for
 * `{type: integer, format: int32, maximum: 25}`: '26' maximum, '1.5' / 'abc' / '' type,
 * '-2147483649' format). Undefined when every string is valid (a plain string parameter).
 */
export function invalidParameterValues(
  schema: JsonSchema,
  rootName?: string,
): fc.Arbitrary<InvalidCase<string>> | undefined {
  const mutations = mutationsAt(standaloneAt(schema, rootName)).filter((m) => m.asParameter);
  if (mutations.length === 0) return undefined;
  return fc.oneof(
    ...mutations.map(({ rule, pointer, description, arbitrary }) =>
      arbitrary.map((value) => ({ value: parameterString(value), rule, pointer, description })),
    ),
  );
}

/** The string a scalar travels as in a URL. */
export function parameterString(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new Error(`a parameter value must be a scalar, got ${JSON.stringify(value)}`);
}
