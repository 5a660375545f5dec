// The certification digest: SHA-256 over the contract artefacts, the suite version and the whole result (all
// but its digest and signature, in a canonical serialisation), so a shared result can be checked later
// against the same spec, schemas and suite. A digest shows a result unchanged since it was hashed, not who
// hashed it: the signature does (src/runner/report/certificate.ts).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { packageVersion, packageRoot as root } from '../../run-state/package.ts';

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

/** `value` as JSON with every object's keys sorted and no spaces (undefined members left out, as JSON does). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}

/** What a digest covers: the whole result but the digest and the signature themselves. */
export const certifiedPart = ({
  digest: _digest,
  signature: _signature,
  ...result
}: Record<string, unknown>): Record<string, unknown> => result;

/** The digest of a result: its contract's files, the suite's version and everything it states. */
export function computeDigest(result: object): Digest {
  const suiteVersion = packageVersion();
  const specHash = filesHash(contractFiles());
  const resultsHash = sha256(canonicalJson(certifiedPart(result as Record<string, unknown>)));
  return {
    algorithm: 'sha256',
    spec: specHash,
    suiteVersion,
    results: resultsHash,
    combined: sha256(`${specHash}\n${suiteVersion}\n${resultsHash}`),
  };
}
