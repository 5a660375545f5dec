// Checks a conformance result against the published schema (src/result/schema.ts), with Ajv in strict mode:
// the one gate every reader of a conformance.json goes through (verify-report, `render`, the baseline, the
// self tests), so a result with a field missing or a status the schema does not list is refused by name.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { type ConformanceResult, resultSchemaDocument } from './schema.ts';

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajvFormats.default(ajv);
    compiled = ajv.compile(resultSchemaDocument());
  }
  return compiled;
}

/** One line per problem: `/tests/3/outcome must be equal to one of the allowed values (pass, fail, …)`. */
const problemLine = (error: ErrorObject): string => {
  const where = error.instancePath || '/';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  return `${where} ${error.message ?? 'is invalid'}${allowed ? ` (${allowed.join(', ')})` : ''}${extra ? `: ${extra}` : ''}`;
};

/** The problems of `data` as a conformance result; empty when it is one. */
export function resultProblems(data: unknown): string[] {
  const validate = validator();
  return validate(data) ? [] : (validate.errors ?? []).map(problemLine);
}

export class InvalidResult extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    const shown = problems.slice(0, 10).map((problem) => `  ${problem}`);
    if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
    super(`${source} is not a conformance result of schema 1.x:\n${shown.join('\n')}`);
    this.name = 'InvalidResult';
  }
}

/** `data` as a conformance result, or an InvalidResult naming every problem. */
export function validResult(data: unknown, source = 'the result'): ConformanceResult {
  const problems = resultProblems(data);
  if (problems.length > 0) throw new InvalidResult(source, problems);
  return data as ConformanceResult;
}

/** Reads and validates a conformance.json. */
export const readResult = (file: string): ConformanceResult =>
  validResult(JSON.parse(readFileSync(file, 'utf8')) as unknown, file);
