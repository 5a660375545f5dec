// Which requirement of specs/requirements.yaml a schema rule states, read from the `x-requirement`
// annotations of schemas/ (requirement-keyword.ts), so a report says "INV-STRAIN-RANGE failed", not "the
// cycle schema failed". A rule's requirement is the annotation nearest its keyword along the evaluation path:
// its own schema's when that names the keyword, else the nearest enclosing schema (outwards, through the
// `$ref`s that led there) that names one for all its rules. A missing property reads its own declaration
// first (a V2 uuid id is its requirement's, present or not); a forbidden property violates the `required`
// inside the `not` that forbids it (violations.ts), so the negated schema's annotation applies.
import { everySchemaFrom, followEvaluationPath, innermostChainAt, toPointer } from './evaluation-path.ts';
import type { RequirementId } from './requirement-ids.ts';
import { keywordRequirementOf, wholeRequirementOf } from './requirement-keyword.ts';
import { ANNOTATIONS, describeSchema } from './schema-model.ts';
import { childAt, parsePointer, type SchemaAt, schemaAt } from './schema-refs.ts';
import { isJsonObject } from './schemas.ts';
import { analyseUnion } from './union-analysis.ts';
import { formatViolation, type SchemaViolation } from './violations.ts';

export interface AttributedViolation extends SchemaViolation {
  requirement: RequirementId;
}

/** A violation with the requirement its rule states. Throws when no annotation encloses the rule. */
export function attributed(violation: SchemaViolation): AttributedViolation {
  const { chain, keyword } = followEvaluationPath(schemaAt(violation.schema), violation.evaluationPath);
  const property = keyword === 'required' ? parsePointer(violation.pointer).at(-1) : undefined;
  const requirement = ruleRequirement(chain, keyword, property);
  if (requirement === undefined) {
    throw new Error(`${formatViolation(violation)}: no x-requirement encloses the rule`);
  }
  return { ...violation, requirement };
}

/**
 * The requirement a location of an instance of `schemaName` belongs to when nothing is wrong there (an
 * unknown property, the body as a whole): the nearest annotation of the innermost schema applying there.
 */
export function requirementAt(schemaName: string, pointer: string): RequirementId {
  const chain = innermostChainAt(schemaAt(schemaName), pointer);
  const requirement = nearestWhole(chain);
  if (requirement === undefined) throw new Error(`${schemaName}.json ${pointer}: no x-requirement applies`);
  return requirement;
}

/**
 * The requirement of the "present exactly when" rule of the union at `pointer` (score iff SCORED), or
 * undefined when no union there has a conditional property.
 */
export function conditionalRequirementAt(schemaName: string, pointer: string): RequirementId | undefined {
  const chain = innermostChainAt(schemaAt(schemaName), pointer);
  const isUnion = ({ schema }: SchemaAt) =>
    isJsonObject(schema) && (schema.oneOf !== undefined || schema.anyOf !== undefined);
  const index = chain.length - 1 - [...chain].reverse().findIndex(isUnion);
  const union = chain[index];
  if (union === undefined || !isUnion(union)) return undefined;
  const node = describeSchema(union);
  const analysis = node.kind === 'union' ? analyseUnion(node) : undefined;
  const forbidding = analysis?.conditional[0]?.forbiddenIn[0];
  if (node.kind !== 'union' || forbidding === undefined) return undefined;
  const branch = childAt(union, node.keyword, forbidding);
  return ruleRequirement([...chain.slice(0, index + 1), branch, childAt(branch, 'not')], 'required');
}

/** One rule of a schema: a keyword of one of its (sub)schemas, and the requirement it states. */
export interface SchemaRule {
  /** Evaluation path from the schema's root, ending with the keyword (`/properties/id/$ref/format`). */
  readonly path: string;
  readonly keyword: string;
  /** For `required`: the property it requires. */
  readonly property?: string;
  readonly requirement: RequirementId | undefined;
}

/** Keywords that only lead to subschemas: their rules are the subschemas' keywords. */
const STRUCTURAL = new Set(['$ref', 'properties', 'items', 'allOf']);

/** Every rule `schemaName` applies (through its references), each with its requirement. */
export function rulesOf(schemaName: string): SchemaRule[] {
  const rules: SchemaRule[] = [];
  for (const { chain, tokens } of everySchemaFrom(schemaAt(schemaName))) {
    const { schema } = chain.at(-1) as SchemaAt;
    if (!isJsonObject(schema)) continue;
    const path = toPointer(tokens);
    for (const keyword of Object.keys(schema)) {
      if (ANNOTATIONS.has(keyword) || STRUCTURAL.has(keyword)) continue;
      const properties =
        keyword === 'required' && Array.isArray(schema.required) ? schema.required : [undefined];
      for (const property of properties) {
        const requirement = ruleRequirement(
          chain,
          keyword,
          property === undefined ? undefined : String(property),
        );
        rules.push({
          path: `${path}/${keyword}`,
          keyword,
          ...(property === undefined ? {} : { property: String(property) }),
          requirement,
        });
      }
    }
  }
  return rules;
}

/** The requirements the rules of `schemaName` state, each once, in the order the schema gives them. */
export function requirementsOf(schemaName: string): RequirementId[] {
  const found = rulesOf(schemaName).map((rule) => rule.requirement);
  return [...new Set(found.filter((id): id is RequirementId => id !== undefined))];
}

/**
 * The requirement of `keyword` in the last schema of `chain` (the schemas the evaluation passed from
 * the root); `property` is the property a `required` keyword misses.
 */
function ruleRequirement(
  chain: readonly SchemaAt[],
  keyword: string,
  property?: string,
): RequirementId | undefined {
  const { schema } = chain.at(-1) as SchemaAt;
  if (isJsonObject(schema)) {
    const declared =
      keyword === 'required' && property !== undefined && isJsonObject(schema.properties)
        ? wholeRequirementOf(schema.properties[property])
        : undefined;
    const own = declared ?? keywordRequirementOf(schema, keyword);
    if (own !== undefined) return own;
  }
  return nearestWhole(chain);
}

function nearestWhole(chain: readonly SchemaAt[]): RequirementId | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const requirement = wholeRequirementOf(chain[i]?.schema);
    if (requirement !== undefined) return requirement;
  }
  return undefined;
}
