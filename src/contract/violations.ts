/**
 * Turns Ajv errors into contract violations: one entry per broken rule, with the JSON pointer of
 * the offending value, the keyword, a readable message and the value itself.
 *
 * Unions (oneOf/anyOf) get special care, because Ajv reports every failing branch's errors plus a
 * bare "must match exactly one schema in oneOf". The branch errors are dropped and replaced by the
 * errors of one branch, re-validated on its own:
 * - with a discriminator (score_state), the branch its value selects; an unknown value is reported as
 *   an `enum` violation of the discriminator, and a conditional property in the wrong state as
 *   "score must be present exactly when score_state is SCORED" (rule `oneOf`);
 * - otherwise the branch with the fewest violations (the closest variant).
 * Branch errors are recognised as the run of errors just before the union error whose instance path
 * lies at or below the union's (Ajv evaluates depth-first and reports a union after its branches).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeSchema, forbiddenProperties } from './schema-model.ts';
import { escapePointerToken, locate } from './schema-refs.ts';
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
}

export interface ExplainContext {
  readonly schema: string;
  /** Validates data against the node at `<file>.json#<pointer>` and returns Ajv's errors. */
  readonly validateAt: (file: string, pointer: string, data: unknown) => readonly ErrorObject[];
}

export function explainErrors(
  errors: readonly ErrorObject[],
  ctx: ExplainContext,
  prefix = '',
): SchemaViolation[] {
  const groups: SchemaViolation[][] = [];
  let k = errors.length - 1;
  while (k >= 0) {
    const error = errors[k] as ErrorObject;
    k -= 1;
    if (isUnion(error)) {
      groups.push(explainUnion(error, ctx, prefix));
      while (k >= 0 && isAtOrBelow((errors[k] as ErrorObject).instancePath, error.instancePath)) k -= 1;
    } else {
      groups.push([violationOf(error, ctx.schema, prefix)]);
    }
  }
  return dedupe(groups.reverse().flat());
}

export function isUnion(error: ErrorObject): boolean {
  return error.keyword === 'oneOf' || error.keyword === 'anyOf';
}

export function isAtOrBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** One Ajv error as a violation. */
function violationOf(error: ErrorObject, schema: string, prefix: string): SchemaViolation {
  const pointer = prefix + error.instancePath;
  const base = { schema, rule: error.keyword, location: locationOf(error), value: error.data };
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
      return { ...base, pointer: at, message: `must not have property '${name}'`, value: error.data[name] };
    }
    case 'enum':
      return { ...base, pointer, message: `must be one of ${listOf(params.allowedValues)}` };
    case 'const':
      return { ...base, pointer, message: `must be ${JSON.stringify(params.allowedValue)}` };
  }
  return { ...base, pointer, message: error.message ?? `must satisfy ${error.keyword}` };
}

function explainUnion(error: ErrorObject, ctx: ExplainContext, prefix: string): SchemaViolation[] {
  const pointer = prefix + error.instancePath;
  const where = locate(error.parentSchema);
  const data: unknown = error.data;
  const generic = (message: string): SchemaViolation[] => [
    { schema: ctx.schema, pointer, rule: error.keyword, message, value: data, location: locationOf(error) },
  ];
  const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
  if (Array.isArray(passing))
    return generic(`must match exactly one variant, matches ${passing.length} (${passing.join(', ')})`);
  if (where === undefined || !Array.isArray(error.schema))
    return generic(error.message ?? 'matches no variant');
  const node = describeSchema({
    schema: error.parentSchema as JsonSchemaObject,
    file: where.file,
    root: loadSchema(where.file),
  });
  const analysis = node.kind === 'union' ? analyseUnion(node) : undefined;
  const branch = (i: number) =>
    explainErrors(ctx.validateAt(where.file, `${where.pointer}/${error.keyword}/${i}`, data), ctx, pointer);
  const discriminator = analysis?.discriminator;
  if (
    analysis !== undefined &&
    discriminator !== undefined &&
    isJsonObject(data) &&
    data[discriminator.property] !== undefined
  ) {
    const value = data[discriminator.property];
    const selected = branchFor(discriminator, value);
    if (selected === undefined) {
      return [
        {
          schema: ctx.schema,
          pointer: `${pointer}/${escapePointerToken(discriminator.property)}`,
          rule: 'enum',
          message: `must be one of ${listOf(discriminator.values.flat())}`,
          value,
          location: locationOf(error),
        },
      ];
    }
    return branch(selected).map((v) => conditionalViolation(v, analysis, data, pointer, error) ?? v);
  }
  const candidates = error.schema.map((_, i) => branch(i)).filter((violations) => violations.length > 0);
  const closest = candidates.reduce<SchemaViolation[] | undefined>(
    (best, violations) => (best === undefined || violations.length < best.length ? violations : best),
    undefined,
  );
  return closest ?? generic(error.message ?? 'matches no variant');
}

/** A missing/forbidden conditional property, restated as the rule it breaks. */
function conditionalViolation(
  violation: SchemaViolation,
  analysis: UnionAnalysis,
  data: Record<string, unknown>,
  pointer: string,
  error: ErrorObject,
): SchemaViolation | undefined {
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
export function formatViolation(violation: SchemaViolation): string {
  const where = violation.location === undefined ? '' : ` [${violation.location}]`;
  const at = violation.pointer === '' ? '(root)' : violation.pointer;
  return `${violation.schema}.json ${at}: ${violation.message} (${violation.rule}), got ${preview(violation.value)}${where}`;
}

export function preview(value: unknown, max = 80): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
