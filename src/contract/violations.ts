// Ajv errors as contract violations: one per broken rule, with the offending value's JSON pointer, the
// keyword, a readable message and the value. A union (oneOf/anyOf) failure is Ajv's every failing branch plus
// "must match exactly one schema": those are replaced by one branch's errors, validated on its own, the
// branch a discriminator (score_state) selects, else the one with the fewest violations (explainUnion).
// Each violation keeps its evaluation path (keywords from the root to the broken rule, through `$ref`s and
// branches), so rule-requirements.ts can read the `x-requirement` of the schemas enclosing it; a violation
// restated as the rule it breaks points at that rule's keyword (a forbidden property: the `required` negated).
import type { ErrorObject } from 'ajv/dist/2020.js';
import { roundedBeside } from '../text/rounded.ts';
import { evaluationPathTo } from './evaluation-path.ts';
import { describeSchema, forbiddenProperties } from './schema-model.ts';
import { childAt, escapePointerToken, locate, type SchemaAt } from './schema-refs.ts';
import { isJsonObject, type JsonSchemaObject, loadSchema } from './schemas.ts';
import { analyseUnion, branchFor, conditionalRule, type UnionAnalysis } from './union-analysis.ts';

export interface SchemaViolation {
  /** Name of the schema the data was validated against (`paginated-cycle-response`). */
  readonly schema: string;
  /** JSON pointer into the data (`/records/3/score/strain`; `''` is the root). */
  readonly pointer: string;
  /** The broken keyword: `maximum`, `required`, `format`, `type`, `enum`, `not`, `oneOf`, ... */
  readonly rule: string;
  readonly message: string;
  /** The offending value (undefined for a missing property). */
  readonly value: unknown;
  /** Where the rule is written: `cycle-score.json#/properties/strain/maximum`. */
  readonly location?: string;
  /**
   * How the rule was reached from the root of `schema`, ending with its keyword:
   * `/properties/records/items/$ref/oneOf/0/properties/score/$ref/properties/strain/maximum`.
   */
  readonly evaluationPath: string;
}

export interface ExplainContext {
  readonly schema: string;
  /** The schema validated (the root of every evaluation path). */
  readonly root: SchemaAt;
  /** Validates data against the node at `<file>.json#<pointer>` and returns Ajv's errors. */
  readonly validateAt: (file: string, pointer: string, data: unknown) => readonly ErrorObject[];
}

/**
 * Where a set of Ajv errors comes from: the schema validated (the root, or a union branch validated on
 * its own), the instance pointer it was applied at and its evaluation path from the root.
 */
interface Origin {
  readonly at: SchemaAt;
  readonly pointer: string;
  readonly path: string;
}

export function explainErrors(
  errors: readonly ErrorObject[],
  ctx: ExplainContext,
  origin: Origin = { at: ctx.root, pointer: '', path: '' },
): SchemaViolation[] {
  const groups: SchemaViolation[][] = [];
  let k = errors.length - 1;
  while (k >= 0) {
    const error = errors[k] as ErrorObject;
    k -= 1;
    if (isUnion(error)) {
      groups.push(explainUnion(error, ctx, origin));
      while (k >= 0 && isAtOrBelow((errors[k] as ErrorObject).instancePath, error.instancePath)) k -= 1;
    } else {
      groups.push([violationOf(error, ctx.schema, origin)]);
    }
  }
  return dedupe(groups.reverse().flat());
}

/** The evaluation path of the schema node holding an error's keyword. */
function nodePath(error: ErrorObject, origin: Origin): string {
  return origin.path + evaluationPathTo(origin.at, error.instancePath, error.parentSchema);
}

export function isUnion(error: ErrorObject): boolean {
  return error.keyword === 'oneOf' || error.keyword === 'anyOf';
}

export function isAtOrBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** One Ajv error as a violation. */
function violationOf(error: ErrorObject, schema: string, origin: Origin): SchemaViolation {
  const pointer = origin.pointer + error.instancePath;
  const base = {
    schema,
    rule: error.keyword,
    location: locationOf(error),
    evaluationPath: `${nodePath(error, origin)}/${escapePointerToken(error.keyword)}`,
    value: error.data,
  };
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = String(params.missingProperty);
      return {
        ...base,
        pointer: `${pointer}/${escapePointerToken(name)}`,
        message: `must have required property '${name}'`,
        value: undefined,
      };
    }
    case 'not': {
      const [name] = forbiddenProperties(error.schema) ?? [];
      if (name === undefined || !isJsonObject(error.data)) break;
      const at = `${pointer}/${escapePointerToken(name)}`;
      return {
        ...base,
        pointer: at,
        message: `must not have property '${name}'`,
        value: error.data[name],
        // The rule is the negated schema's: it requires the forbidden property.
        evaluationPath: `${base.evaluationPath}/required`,
      };
    }
    case 'enum':
      return { ...base, pointer, message: `must be one of ${listOf(params.allowedValues)}` };
    case 'const':
      return { ...base, pointer, message: `must be ${JSON.stringify(params.allowedValue)}` };
  }
  return { ...base, pointer, message: error.message ?? `must satisfy ${error.keyword}` };
}

/**
 * One union's failure as one branch's violations. Its branch errors are the run just before it whose instance
 * path lies at or below the union's (Ajv evaluates depth-first and reports a union after its branches). With a
 * discriminator, an unknown value is an `enum` violation of it and a conditional property in the wrong state
 * "score must be present exactly when score_state is SCORED" (rule `oneOf`).
 */
function explainUnion(error: ErrorObject, ctx: ExplainContext, origin: Origin): SchemaViolation[] {
  const pointer = origin.pointer + error.instancePath;
  const where = locate(error.parentSchema);
  const data: unknown = error.data;
  const unionPath = nodePath(error, origin);
  const generic = (message: string) => [unionFailure(ctx, error, { pointer, unionPath, message })];
  const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
  if (Array.isArray(passing))
    return generic(`must match exactly one variant, matches ${passing.length} (${passing.join(', ')})`);
  if (where === undefined || !Array.isArray(error.schema))
    return generic(error.message ?? 'matches no variant');
  const unionAt: SchemaAt = {
    schema: error.parentSchema as JsonSchemaObject,
    file: where.file,
    root: loadSchema(where.file),
  };
  const node = describeSchema(unionAt);
  const analysis = node.kind === 'union' ? analyseUnion(node) : undefined;
  const branchPath = (i: number) => `${unionPath}/${error.keyword}/${i}`;
  const branch = (i: number) =>
    explainErrors(ctx.validateAt(where.file, `${where.pointer}/${error.keyword}/${i}`, data), ctx, {
      at: childAt(unionAt, error.keyword, i),
      pointer,
      path: branchPath(i),
    });
  const discriminator = analysis?.discriminator;
  if (
    analysis !== undefined &&
    discriminator !== undefined &&
    isJsonObject(data) &&
    data[discriminator.property] !== undefined
  ) {
    const value = data[discriminator.property];
    const selected = branchFor(discriminator, value);
    if (selected === undefined)
      return [
        unknownDiscriminator(ctx, error, { pointer, unionAt, analysis, discriminator, value, branchPath }),
      ];
    const conditional = { analysis, data, pointer, error, branchPath };
    return branch(selected).map((v) => conditionalViolation(v, conditional) ?? v);
  }
  return closest(error.schema.map((_, i) => branch(i))) ?? generic(error.message ?? 'matches no variant');
}

/** The union's failure as Ajv states it, at the union's keyword (no branch explains it). */
function unionFailure(
  ctx: ExplainContext,
  error: ErrorObject,
  { pointer, unionPath, message }: { pointer: string; unionPath: string; message: string },
): SchemaViolation {
  return {
    schema: ctx.schema,
    pointer,
    rule: error.keyword,
    message,
    value: error.data,
    location: locationOf(error),
    evaluationPath: `${unionPath}/${error.keyword}`,
  };
}

/** Of the branches' violations, the fewest that are some (the closest variant); undefined when none has any. */
const closest = (branches: SchemaViolation[][]): SchemaViolation[] | undefined =>
  branches
    .filter((violations) => violations.length > 0)
    .reduce<SchemaViolation[] | undefined>(
      (best, violations) => (best === undefined || violations.length < best.length ? violations : best),
      undefined,
    );

/**
 * A discriminator value no branch names: an `enum` violation of the discriminator, at the `const`/`enum` of the
 * first branch's discriminator.
 */
function unknownDiscriminator(
  ctx: ExplainContext,
  error: ErrorObject,
  union: {
    pointer: string;
    unionAt: SchemaAt;
    analysis: UnionAnalysis;
    discriminator: NonNullable<UnionAnalysis['discriminator']>;
    value: unknown;
    branchPath: (i: number) => string;
  },
): SchemaViolation {
  const { analysis, discriminator, unionAt, branchPath } = union;
  const property = escapePointerToken(discriminator.property);
  const firstBranch = childAt(unionAt, error.keyword, 0);
  const valueRule = analysis.branches[0]?.properties.get(discriminator.property);
  const described = valueRule === undefined ? undefined : describeSchema(valueRule);
  const keyword = described?.kind === 'enum' ? described.keyword : 'enum';
  return {
    schema: ctx.schema,
    pointer: `${union.pointer}/${property}`,
    rule: 'enum',
    message: `must be one of ${listOf(discriminator.values.flat())}`,
    value: union.value,
    location: locationOf(error),
    evaluationPath: `${branchPath(0)}${evaluationPathTo(firstBranch, `/${property}`, valueRule?.schema)}/${keyword}`,
  };
}

/** A missing/forbidden conditional property, restated as the rule it breaks. */
function conditionalViolation(
  violation: SchemaViolation,
  union: {
    analysis: UnionAnalysis;
    data: Record<string, unknown>;
    pointer: string;
    error: ErrorObject;
    branchPath: (i: number) => string;
  },
): SchemaViolation | undefined {
  const { analysis, data, pointer, error } = union;
  if (violation.rule !== 'required' && violation.rule !== 'not') return undefined;
  const conditional = analysis.conditional.find(
    (c) => violation.pointer === `${pointer}/${escapePointerToken(c.property)}`,
  );
  const discriminator = analysis.discriminator;
  if (conditional === undefined || discriminator === undefined) return undefined;
  const state = data[discriminator.property];
  const presence = data[conditional.property] === undefined ? 'absent' : 'present';
  return {
    schema: violation.schema,
    pointer,
    rule: error.keyword,
    message: `${conditionalRule(analysis, conditional)}; here ${discriminator.property} is ${JSON.stringify(state)} and ${conditional.property} is ${presence}`,
    value: state,
    location: locationOf(error),
    // The rule is written where a branch forbids the property (the `required` its `not` negates).
    evaluationPath: `${union.branchPath(conditional.forbiddenIn[0] ?? 0)}/not/required`,
  };
}

function locationOf(error: ErrorObject): string | undefined {
  const where = locate(error.parentSchema);
  return where === undefined ? undefined : `${where.file}.json#${where.pointer}/${error.keyword}`;
}

function listOf(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(values);
}

function dedupe(violations: SchemaViolation[]): SchemaViolation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.pointer}\u0000${v.rule}\u0000${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One line: `cycle.json /records/3/score/strain: must be <= 21 (maximum), got 22.5 [where]`. */
/** The value as the message quotes it: a number compared with a limit rounded as far as it stays beside it. */
function quoted({ value, message }: SchemaViolation): string {
  const limit = /^must be [<>]=? (-?[\d.e+-]+)$/.exec(message)?.[1];
  return typeof value === 'number' && limit !== undefined
    ? roundedBeside(value, Number(limit))
    : preview(value);
}

export function formatViolation(violation: SchemaViolation): string {
  const where = violation.location === undefined ? '' : ` [${violation.location}]`;
  const at = violation.pointer === '' ? '(root)' : violation.pointer;
  return `${violation.schema}.json ${at}: ${violation.message} (${violation.rule}), got ${quoted(violation)}${where}`;
}

export function preview(value: unknown, max = 80): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
