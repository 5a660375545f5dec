/**
 * What distinguishes the branches of a oneOf/anyOf of object schemas:
 * - the discriminator: a property every branch requires, with disjoint const/enum values per branch
 *   (score_state for Cycle, Sleep and Recovery);
 * - conditional properties: required by some branches and forbidden by all others (score: "present
 *   exactly when score_state is SCORED");
 * - what all branches share (required properties, identically defined properties), the only safe
 *   place to break an anyOf whose branches overlap (PatientCore).
 */
import { describeObject, describeSchema, type ObjectNode, type UnionNode } from './schema-model.ts';

export interface Discriminator {
  readonly property: string;
  /** Allowed values per branch. */
  readonly values: readonly (readonly unknown[])[];
}

export interface ConditionalProperty {
  readonly property: string;
  readonly requiredIn: readonly number[];
  readonly forbiddenIn: readonly number[];
}

export interface UnionAnalysis {
  readonly branches: readonly ObjectNode[];
  readonly discriminator: Discriminator | undefined;
  readonly conditional: readonly ConditionalProperty[];
  /** Properties required by every branch. */
  readonly commonRequired: readonly string[];
  /** Properties every branch defines with the same schema. */
  readonly commonProperties: readonly string[];
}

/** Analyses a union of object schemas; undefined when a branch is not an object schema. */
export function analyseUnion(node: UnionNode): UnionAnalysis | undefined {
  const branches: ObjectNode[] = [];
  for (const branch of node.branches) {
    const described = describeSchema(branch);
    if (described.kind !== 'object' && described.kind !== 'any') return undefined;
    branches.push(describeObject(branch));
  }
  const [first, ...others] = branches;
  if (first === undefined) return undefined;
  const commonRequired = first.required.filter((name) => others.every((b) => b.required.includes(name)));
  const commonProperties = [...first.properties.keys()].filter((name) => {
    const text = JSON.stringify(first.properties.get(name)?.schema);
    return others.every((b) => JSON.stringify(b.properties.get(name)?.schema) === text);
  });
  return {
    branches,
    discriminator: findDiscriminator(branches, commonRequired),
    conditional: findConditional(branches),
    commonRequired,
    commonProperties,
  };
}

/** "score must be present exactly when score_state is SCORED". */
export function conditionalRule(analysis: UnionAnalysis, conditional: ConditionalProperty): string {
  const { discriminator } = analysis;
  if (discriminator === undefined) {
    return `${conditional.property} must be present in exactly the variants that require it`;
  }
  const values = conditional.requiredIn.flatMap((i) => discriminator.values[i] ?? []);
  const list = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' or ');
  return `${conditional.property} must be present exactly when ${discriminator.property} is ${list}`;
}

/** Index of the branch whose discriminator values include `value`, or undefined. */
export function branchFor(discriminator: Discriminator, value: unknown): number | undefined {
  const index = discriminator.values.findIndex((values) => values.some((v) => Object.is(v, value)));
  return index === -1 ? undefined : index;
}

function findDiscriminator(branches: readonly ObjectNode[], commonRequired: readonly string[]) {
  for (const property of commonRequired) {
    const values: unknown[][] = [];
    for (const branch of branches) {
      const at = branch.properties.get(property);
      const node = at === undefined ? undefined : describeSchema(at);
      if (node?.kind !== 'enum') break;
      values.push([...node.values]);
    }
    const all = values.flat();
    if (values.length === branches.length && new Set(all).size === all.length) return { property, values };
  }
  return undefined;
}

function findConditional(branches: readonly ObjectNode[]): ConditionalProperty[] {
  const names = new Set(branches.flatMap((b) => [...b.required, ...b.forbidden]));
  const result: ConditionalProperty[] = [];
  for (const property of names) {
    const requiredIn = indexesWhere(branches, (b) => b.required.includes(property));
    const forbiddenIn = indexesWhere(branches, (b) => b.forbidden.includes(property));
    if (
      requiredIn.length > 0 &&
      forbiddenIn.length > 0 &&
      requiredIn.length + forbiddenIn.length === branches.length
    ) {
      result.push({ property, requiredIn, forbiddenIn });
    }
  }
  return result;
}

function indexesWhere<T>(items: readonly T[], predicate: (item: T) => boolean): number[] {
  return items.flatMap((item, i) => (predicate(item) ? [i] : []));
}
