// The certification digest: SHA-256 over the contract artefacts, the suite version and the results, so a
// shared report can be checked later against the same spec, schemas and suite.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { packageVersion, packageRoot as root } from '../run-state/package.ts';

/** The spec and the schemas: what the contract's shape is. */
function specFiles(): string[] {
  const schemas = readdirSync(`${root}schemas`)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `schemas/${name}`);
  return ['specs/openapi.yaml', ...schemas];
}

const CATALOGUE = 'specs/requirements.yaml';

/** Every file of the contract a digest covers, in a fixed order. */
const contractFiles = (): string[] => {
  const [openapi = '', ...schemas] = specFiles();
  return [openapi, CATALOGUE, ...schemas];
};

const filesHash = (files: readonly string[]): string => {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(root + file));
  return hash.digest('hex');
};

/** What the run judged against, so that a comparison with another run can tell a change of contract. */
export const contractDigests = (): { spec: string; catalogue: string } => ({
  spec: filesHash(specFiles()),
  catalogue: filesHash([CATALOGUE]),
});

export interface Digest {
  algorithm: 'sha256';
  spec: string;
  suiteVersion: string;
  results: string;
  combined: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function computeDigest(results: unknown): Digest {
  const suiteVersion = packageVersion();
  const specHash = filesHash(contractFiles());
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
