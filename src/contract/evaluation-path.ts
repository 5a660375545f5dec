/**
 * Walks the schemas along an instance location, the way a validator evaluates them: `$ref`s, the
 * members of allOf/anyOf/oneOf and the schema a `not` negates apply in place; `properties/<name>` and
 * `items` descend one token of the instance pointer. Ajv reports where a failing keyword is written (its schema node), not the
 * path it was reached by; these walks recover that path (the evaluation path, e.g.
 * `/properties/records/items/$ref/oneOf/1/properties/created_at/$ref/format`), so that the schemas
 * enclosing a rule can be read, and they follow an evaluation path back to its schema nodes.
 */
import { childAt, escapePointerToken, parsePointer, resolveRef, type SchemaAt } from './schema-refs.ts';
import { isJsonObject } from './schemas.ts';

/** The schemas our files nest are far shallower; a longer path means a reference cycle. */
const MAX_STEPS = 64;

/** Applicators whose members apply to the same instance. */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf'] as const;

interface Step {
  readonly at: SchemaAt;
  /** The evaluation path tokens this step adds (`['$ref']`, `['oneOf', '1']`, `['properties', 'id']`). */
  readonly tokens: readonly string[];
  /** True when the step descends into the instance (consumes one token of its pointer). */
  readonly descends: boolean;
}

/** Any instance token: every property and the items. */
const ANY_TOKEN = Symbol('any token');

/** The schemas one step away from `at`, in place or one instance token (`next`) deeper. */
function stepsFrom(at: SchemaAt, next: string | typeof ANY_TOKEN | undefined): Step[] {
  const { schema } = at;
  if (!isJsonObject(schema)) return [];
  const steps: Step[] = [];
  if (typeof schema.$ref === 'string') {
    steps.push({ at: resolveRef(schema.$ref, at), tokens: ['$ref'], descends: false });
  }
  for (const keyword of IN_PLACE) {
    const members = schema[keyword];
    if (!Array.isArray(members)) continue;
    members.forEach((_, i) => {
      steps.push({ at: childAt(at, keyword, i), tokens: [keyword, String(i)], descends: false });
    });
  }
  if (schema.not !== undefined) steps.push({ at: childAt(at, 'not'), tokens: ['not'], descends: false });
  if (next === undefined) return steps;
  if (isJsonObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      if (next !== ANY_TOKEN && next !== name) continue;
      steps.push({ at: childAt(at, 'properties', name), tokens: ['properties', name], descends: true });
    }
  }
  if (schema.items !== undefined && (next === ANY_TOKEN || /^(0|[1-9]\d*)$/.test(next))) {
    steps.push({ at: childAt(at, 'items'), tokens: ['items'], descends: true });
  }
  return steps;
}

/** A schema reached by a walk: the schemas from the start to it, and the evaluation path tokens. */
export interface Reached {
  readonly chain: readonly SchemaAt[];
  readonly tokens: readonly string[];
  /** How many tokens of the instance pointer were consumed. */
  readonly depth: number;
  /** True below a `not`: what the instance must NOT match. */
  readonly negated: boolean;
}

/**
 * Every schema reachable from `from` along the instance pointer `pointer` (every instance location
 * when `pointer` is undefined), depth first.
 */
function* walk(from: SchemaAt, pointer: string | undefined): Generator<Reached> {
  const instance = pointer === undefined ? undefined : parsePointer(pointer);
  const visit = function* (reached: Reached): Generator<Reached> {
    yield reached;
    if (reached.chain.length > MAX_STEPS) throw new Error(`schema walk deeper than ${MAX_STEPS} steps`);
    const at = reached.chain.at(-1) as SchemaAt;
    for (const step of stepsFrom(at, instance === undefined ? ANY_TOKEN : instance[reached.depth])) {
      yield* visit({
        chain: [...reached.chain, step.at],
        tokens: [...reached.tokens, ...step.tokens],
        depth: reached.depth + (step.descends ? 1 : 0),
        negated: reached.negated || step.tokens[0] === 'not',
      });
    }
  };
  yield* visit({ chain: [from], tokens: [], depth: 0, negated: false });
}

/** Every schema `from` applies to any part of an instance, each with the chain and path it is reached by. */
export function everySchemaFrom(from: SchemaAt): Generator<Reached> {
  return walk(from, undefined);
}

/**
 * The evaluation path from `from` to the schema node `target`, evaluated at `pointer` (relative to
 * `from`'s instance), as a JSON pointer. Throws when `target` is not evaluated there.
 */
export function evaluationPathTo(from: SchemaAt, pointer: string, target: unknown): string {
  const length = parsePointer(pointer).length;
  for (const reached of walk(from, pointer)) {
    if (reached.depth === length && reached.chain.at(-1)?.schema === target) return toPointer(reached.tokens);
  }
  throw new Error(`no schema evaluated at ${pointer || '(root)'} is the failing rule's node`);
}

/**
 * The schemas that apply at `pointer`, from `from` to the innermost one: among the chains that reach
 * deepest into the instance (a location the schemas do not declare, such as an unknown property, stops
 * at the deepest schema that does), one that declares it rather than forbids it, the longest.
 */
export function innermostChainAt(from: SchemaAt, pointer: string): readonly SchemaAt[] {
  const rank = (reached: Reached) => [reached.depth, reached.negated ? 0 : 1, reached.chain.length];
  let best: Reached | undefined;
  for (const reached of walk(from, pointer)) {
    if (best === undefined || isGreater(rank(reached), rank(best))) best = reached;
  }
  return (best as Reached).chain;
}

/** Lexicographic comparison of two ranks of the same length. */
function isGreater(a: readonly number[], b: readonly number[]): boolean {
  const i = a.findIndex((value, k) => value !== b[k]);
  return i !== -1 && (a[i] as number) > (b[i] as number);
}

/** An evaluation path as a JSON pointer. */
export function toPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/**
 * The schema nodes an evaluation path passes through, from `from`, and the keyword it ends with
 * (`''` for the empty path):
 * `/properties/score/$ref/properties/strain/maximum` → [root, score, cycle-score root, strain], `maximum`.
 */
export function followEvaluationPath(
  from: SchemaAt,
  path: string,
): { chain: readonly SchemaAt[]; keyword: string } {
  const tokens = parsePointer(path);
  // '' is the schema as a whole (no single keyword failed).
  const keyword = tokens.pop() ?? '';
  const chain: SchemaAt[] = [from];
  let at = from;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === '$ref') {
      if (!isJsonObject(at.schema) || typeof at.schema.$ref !== 'string')
        throw new Error(`no $ref at ${path}`);
      at = resolveRef(at.schema.$ref, at);
    } else if (token === 'items' || token === 'not') {
      at = childAt(at, token);
    } else {
      i += 1;
      at = childAt(at, token, tokens[i] as string);
    }
    chain.push(at);
  }
  return { chain, keyword };
}
