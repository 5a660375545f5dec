/**
 * The two Ajv (JSON Schema 2020-12) instances of the suite, created lazily:
 * - `contractAjv()`: the validator. Strict mode, all errors, verbose (errors carry the failing schema
 *   node and data, used to explain them); ajv-formats plus our int32/int64/float/double ranges; every
 *   schema of `schemas/` registered under its `$id`, compiled on first use. Both know the
 *   `x-requirement` annotation (requirement-keyword.ts).
 * - `notesAjv()`: the same schemas as strict copies (`strict-copy.ts`), only to find unknown
 *   properties. Ajv's strictTypes is off there, because `unevaluatedProperties` sits next to `$ref`s
 *   without a `type`.
 */
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { addNumberFormats } from './number-formats.ts';
import { requirementKeyword } from './requirement-keyword.ts';
import { type JsonSchemaObject, loadSchemas } from './schemas.ts';
import { withUnevaluatedPropertiesFalse } from './strict-copy.ts';

let contract: Ajv2020 | undefined;
let notes: Ajv2020 | undefined;

export function contractAjv(): Ajv2020 {
  contract ??= createAjv({ verbose: true }, (schema) => schema);
  return contract;
}

export function notesAjv(): Ajv2020 {
  notes ??= createAjv({ strictTypes: false }, withUnevaluatedPropertiesFalse);
  return notes;
}

function createAjv(options: Options, prepare: (schema: JsonSchemaObject) => JsonSchemaObject): Ajv2020 {
  // No pass over the generated code: every worker compiles the validators it uses, and the pass cost more
  // (about 0.5 s of a ci-gate run) than the few thousand validations of a run gain from it.
  const ajv = new Ajv2020({ strict: true, allErrors: true, code: { optimize: false }, ...options });
  ajvFormats.default(ajv);
  addNumberFormats(ajv);
  ajv.addKeyword(requirementKeyword);
  for (const schema of Object.values(loadSchemas())) ajv.addSchema(prepare(schema));
  return ajv;
}
