// The certification digest: SHA-256 over the contract artefacts, the suite version and the results, so a
// shared report can be checked later against the same spec, schemas and suite.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { packageVersion, packageRoot as root } from '../run-state/package.ts';

function contractFiles(): string[] {
  const schemas = readdirSync(`${root}schemas`)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `schemas/${name}`);
  return ['specs/openapi.yaml', 'specs/requirements.yaml', ...schemas];
}

export interface Digest {
  algorithm: 'sha256';
  spec: string;
  suiteVersion: string;
  results: string;
  combined: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** SHA-256 of the contract a run judges by: the spec, the requirement catalogue and the schemas. */
export function contractDigest(): string {
  const spec = createHash('sha256');
  for (const file of contractFiles()) spec.update(file).update(readFileSync(root + file));
  return spec.digest('hex');
}

export function computeDigest(results: unknown): Digest {
  const suiteVersion = packageVersion();
  const specHash = contractDigest();
  const resultsHash = sha256(JSON.stringify(results));
  return {
    algorithm: 'sha256',
    spec: specHash,
    suiteVersion,
    results: resultsHash,
    combined: sha256(`${specHash}\n${suiteVersion}\n${resultsHash}`),
  };
}

/**
 * What a certification digest certifies: the verdict, its completeness, what narrowed the run (so that no
 * selection can be edited out of a report) and every requirement's result.
 */
export const certifiedResults = (report: {
  verdict: unknown;
  incomplete: unknown;
  selection?: unknown;
  requirements: unknown;
}): unknown => ({
  verdict: report.verdict,
  incomplete: report.incomplete,
  selection: report.selection,
  requirements: report.requirements,
});
