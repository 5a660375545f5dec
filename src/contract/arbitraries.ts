/**
 * fast-check arbitraries derived from the JSON Schemas in `schemas/` by one generic converter:
 * valid instances, labelled invalid instances (one broken rule each) and parameter strings.
 *
 * Usage: `fc.assert(fc.property(validArbitrary('cycle'), (cycle) => ...))`,
 * `invalidArbitrary('sleep')` yields `{ value, rule, pointer, description }`.
 */
export {
  casesOf,
  type InvalidCase,
  invalidArbitrary,
  invalidArbitraryFromSchema,
  type Mutation,
  mutationsAt,
} from './invalid-arbitraries.ts';
export { invalidParameterValues, parameterString, validParameterValues } from './parameter-arbitraries.ts';
export { arbitraryAt, arbitraryFromSchema, objectArbitrary, validArbitrary } from './valid-arbitraries.ts';
