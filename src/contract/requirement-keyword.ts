/**
 * `x-requirement`: the annotation by which a schema rule names the requirement of
 * specs/requirements.yaml it states. Two forms:
 * - a requirement ID (`"x-requirement": "SCH-CYCLE"`): every rule of that schema, and of the schemas
 *   it encloses that name none of their own;
 * - an object from keywords to IDs, for a schema whose rules state different requirements
 *   (`"x-requirement": { "maximum": "INV-STRAIN-RANGE" }`): only the keywords it names.
 * It has no validation effect; Ajv instances register it (`requirementKeyword`) so that strict mode
 * accepts it and a malformed annotation fails to compile.
 */
import type { KeywordDefinition } from 'ajv/dist/2020.js';
import type { RequirementId } from './requirement-ids.ts';
import { isJsonObject } from './schemas.ts';

export const REQUIREMENT_KEYWORD = 'x-requirement';

const REQUIREMENT_ID = { type: 'string', pattern: '^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$' };

export const requirementKeyword: KeywordDefinition = {
  keyword: REQUIREMENT_KEYWORD,
  schemaType: ['string', 'object'],
  metaSchema: {
    anyOf: [REQUIREMENT_ID, { type: 'object', minProperties: 1, additionalProperties: REQUIREMENT_ID }],
  },
};

/** The requirement a schema names for all its rules (the string form), if any. */
export function wholeRequirementOf(schema: unknown): RequirementId | undefined {
  const annotation = isJsonObject(schema) ? schema[REQUIREMENT_KEYWORD] : undefined;
  return typeof annotation === 'string' ? (annotation as RequirementId) : undefined;
}

/** The requirement a schema names for its rule `keyword`: the object form's entry, else the string form. */
export function keywordRequirementOf(schema: unknown, keyword: string): RequirementId | undefined {
  const annotation = isJsonObject(schema) ? schema[REQUIREMENT_KEYWORD] : undefined;
  if (isJsonObject(annotation)) {
    const id = annotation[keyword];
    return typeof id === 'string' ? (id as RequirementId) : undefined;
  }
  return typeof annotation === 'string' ? (annotation as RequirementId) : undefined;
}
