// Validation against the schemas of `schemas/`, with readable results. `validate(name, data)` returns the
// violations (rule, JSON pointer, message, value; violations.ts explains oneOf failures) and, apart, notes of
// unknown properties: the contract lets servers add fields, so they never fail, but they are worth reporting.
// Notes come from strict copies of the schemas (strict-copy.ts); where a union failed, its object's
// properties cannot be attributed, so it gets none. Validators are compiled on first use and cached by `$id`.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { contractAjv, notesAjv } from './ajv-instances.ts';
import { escapePointerToken, parsePointer, type SchemaAt, schemaAt, standaloneAt } from './schema-refs.ts';
import { type JsonSchemaObject, loadSchema, schemaIdFor, schemaNames } from './schemas.ts';
import {
  type ExplainContext,
  explainErrors,
  formatViolation,
  isUnion,
  preview,
  type SchemaViolation,
} from './violations.ts';

export { formatViolation, preview, type SchemaViolation } from './violations.ts';

/** An unknown (undeclared) property: allowed by the contract, reported for information. */
export interface UnknownPropertyNote {
  readonly schema: string;
  /** JSON pointer of the property (`/score/extra_field`). */
  readonly pointer: string;
  readonly property: string;
}

export interface ValidationResult {
  readonly valid: boolean;
  readonly errors: readonly SchemaViolation[];
  readonly notes: readonly UnknownPropertyNote[];
}

/** Validates `data` against the schema `schemaName` (e.g. `cycle`, `paginated-sleep-response`). */
export function validate(schemaName: string, data: unknown): ValidationResult {
  const validator = validatorFor(schemaName);
  const valid = validator(data) === true;
  const raw = [...(validator.errors ?? [])];
  const errors = valid ? [] : explainErrors(raw, contextFor(schemaName, schemaAt(schemaName)));
  if (!valid && errors.length === 0) {
    errors.push({
      schema: schemaName,
      pointer: '',
      rule: 'schema',
      message: 'does not match the schema',
      value: data,
      evaluationPath: '',
    });
  }
  const unattributable = raw.filter(isUnion).map((error) => error.instancePath);
  return { valid, errors, notes: unknownProperties(schemaName, data, unattributable) };
}

/**
 * Validates against a schema given by value (e.g. an OpenAPI parameter schema). Its `$ref`s, if any,
 * must be absolute (`https://conformance.example/schemas/...`). No unknown-property notes.
 */
export function validateAgainst(schema: JsonSchemaObject, data: unknown, label = 'inline'): ValidationResult {
  let validator = adHoc.get(schema);
  if (validator === undefined) {
    validator = contractAjv().compile(schema);
    adHoc.set(schema, validator);
  }
  const valid = validator(data) === true;
  const errors = valid
    ? []
    : explainErrors([...(validator.errors ?? [])], contextFor(label, standaloneAt(schema)));
  return { valid, errors, notes: [] };
}

/** Throws an Error listing every violation when `data` does not conform. */
export function assertValid(schemaName: string, data: unknown, context?: string): void {
  const { valid, errors } = validate(schemaName, data);
  if (valid) return;
  const head = `${context === undefined ? '' : `${context}: `}${preview(data, 200)} does not conform to ${schemaName}.json`;
  throw new Error(
    [`${head} (${errors.length} violation(s))`, ...errors.map((v) => `  - ${formatViolation(v)}`)].join('\n'),
  );
}

/** One line per note: `cycle.json /extra: unknown property 'extra' (allowed; note only)`. */
export function formatNote(note: UnknownPropertyNote): string {
  return `${note.schema}.json ${note.pointer}: unknown property '${note.property}' (allowed; note only)`;
}

/** Compiles every schema (both validators); throws on the first one Ajv's strict mode rejects. */
export function compileAll(): void {
  for (const name of schemaNames) {
    validatorFor(name);
    notesValidatorFor(name);
  }
}

/** The compiled validator of a schema (Ajv strict mode; throws if the schema is rejected). */
export function validatorFor(schemaName: string): ValidateFunction {
  loadSchema(schemaName); // unknown names fail with the list of known ones
  const validator = contractAjv().getSchema(schemaIdFor(schemaName));
  if (validator === undefined) throw new Error(`schema ${schemaName} is not registered`);
  return validator;
}

const adHoc = new WeakMap<object, ValidateFunction>();
const notesValidators = new Map<string, ValidateFunction>();

function notesValidatorFor(schemaName: string): ValidateFunction {
  let validator = notesValidators.get(schemaName);
  if (validator === undefined) {
    validator = notesAjv().compile({ $ref: schemaIdFor(schemaName), unevaluatedProperties: false });
    notesValidators.set(schemaName, validator);
  }
  return validator;
}

function contextFor(schema: string, root: SchemaAt): ExplainContext {
  return {
    schema,
    root,
    validateAt(file, pointer, data): readonly ErrorObject[] {
      const validator = contractAjv().getSchema(`${schemaIdFor(file)}#${pointer}`);
      if (validator === undefined) throw new Error(`no schema at ${file}.json#${pointer}`);
      return validator(data) === true ? [] : [...(validator.errors ?? [])];
    },
  };
}

/**
 * Unknown properties, from the strict copies. A nested unknown property inside a union branch makes
 * that branch (hence the union) fail in the strict copy, and a failed union leaves all properties of
 * its object "unevaluated". So notes are collected in passes: unevaluated properties of objects
 * whose union did not fail are notes; they are removed from a copy of the data and the strict
 * validation runs again, until it passes or nothing attributable is left. Objects whose union fails
 * in the contract validation itself (`unattributable`) never get notes.
 */
function unknownProperties(
  schemaName: string,
  data: unknown,
  unattributable: readonly string[],
): UnknownPropertyNote[] {
  const validator = notesValidatorFor(schemaName);
  const notes = new Map<string, UnknownPropertyNote>();
  let current = data;
  for (let pass = 0; pass < MAX_NOTE_PASSES && validator(current) !== true; pass += 1) {
    const errors = validator.errors ?? [];
    const failedUnions = new Set([
      ...unattributable,
      ...errors.filter(isUnion).map((error) => error.instancePath),
    ]);
    const fresh = errors
      .filter((error) => error.keyword === 'unevaluatedProperties' && !failedUnions.has(error.instancePath))
      .map((error) => {
        const property = String((error.params as { unevaluatedProperty?: unknown }).unevaluatedProperty);
        return {
          schema: schemaName,
          pointer: `${error.instancePath}/${escapePointerToken(property)}`,
          property,
        };
      })
      .filter((note) => !notes.has(note.pointer));
    if (fresh.length === 0) break;
    for (const note of fresh) notes.set(note.pointer, note);
    current = withoutProperties(
      current,
      fresh.map((note) => note.pointer),
    );
  }
  return [...notes.values()];
}

/** Each pass peels one level of unions; the schemas nest far fewer. */
const MAX_NOTE_PASSES = 16;

function withoutProperties(data: unknown, pointers: readonly string[]): unknown {
  const copy = structuredClone(data);
  for (const pointer of pointers) {
    const tokens = parsePointer(pointer);
    const name = tokens.pop() as string;
    let parent: unknown = copy;
    for (const token of tokens) parent = (parent as Record<string, unknown>)[token];
    delete (parent as Record<string, unknown>)[name];
  }
  return copy;
}
