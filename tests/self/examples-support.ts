// The pipeline templates under examples/: their files, parsed, and the validators that lint them. The
// schemas are vendored (no network at test time), each taken from the linter that also checks the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { parseDocument } from 'yaml';
import { packageRoot } from '../../src/run-state/package.ts';

export const examplesDir = join(packageRoot, 'examples');

export interface Example {
  path: string;
  kind: 'github' | 'gitlab';
  text: string;
  data: unknown;
}

/** A template, parsed strictly: a YAML error or warning throws, naming the file. */
export function loadExample(path: string, kind: Example['kind']): Example {
  const text = readFileSync(join(examplesDir, path), 'utf8');
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) throw new Error(`${path}: ${problems.map((p) => p.message).join('\n')}`);
  return { path, kind, text, data: doc.toJS() };
}

export const EXAMPLES: readonly Example[] = [
  loadExample('github/pr-gate.yml', 'github'),
  loadExample('github/nightly-smoke.yml', 'github'),
  loadExample('github/certification.yml', 'github'),
  loadExample('github/sharded-gate.yml', 'github'),
  loadExample('gitlab/pr-gate.gitlab-ci.yml', 'gitlab'),
];

const validators = new Map<Example['kind'], ValidateFunction>();

/** The draft-07 validator of a kind's vendored schema (examples/schemas/README.md says where each is from). */
export function schemaValidator(kind: Example['kind']): ValidateFunction {
  const file = kind === 'github' ? 'github-workflow.json' : 'gitlab-ci.json';
  let validate = validators.get(kind);
  if (!validate) {
    // Not strict: both schemas carry editor keywords (markdownDescription, deprecationMessage...).
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(examplesDir, 'schemas', file), 'utf8')));
    validators.set(kind, validate);
  }
  return validate;
}

/** The env files a template names with --env-file=FILE (relative to its conformance/ folder). */
export const envFilesOf = (text: string): string[] =>
  [...text.matchAll(/--env-file[= ](\S+)/g)].map((match) => match[1] ?? '');

/** Every CONFORMANCE_* name a text mentions. */
export const conformanceNames = (text: string): string[] => [
  ...new Set(text.match(/\bCONFORMANCE_[A-Z0-9_]+/g) ?? []),
];
