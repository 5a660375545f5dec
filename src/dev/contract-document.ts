// The contract document itself, which the quotation self test holds the catalogue to. It lives outside the
// repository (the team's ../shared/), so its place is a setting, SELF_TESTS_CONTRACT_FILE (relative to the
// checkout); without the file the test is skipped, loudly, and `npm test`'s summary counts it, as a missing
// Chromium is; SELF_TESTS_NEED_CONTRACT=1 (.ci/run) makes a missing one a failure.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { packageRoot } from '../run-state/package.ts';

export const DEFAULT_CONTRACT_FILE = '../shared/seed/000_807caed589bae617.txt';

const contractFile = (): string =>
  resolve(packageRoot, process.env.SELF_TESTS_CONTRACT_FILE || DEFAULT_CONTRACT_FILE);

/** Why the contract document cannot be read here (undefined: it can), or throws where it is required. */
export function missingContract(): string | undefined {
  const file = contractFile();
  if (existsSync(file)) return undefined;
  const missing = `no contract document at ${file} (SELF_TESTS_CONTRACT_FILE names it)`;
  if (process.env.SELF_TESTS_NEED_CONTRACT === '1')
    throw new Error(`${missing}, and SELF_TESTS_NEED_CONTRACT=1 requires one`);
  return missing;
}

/** The contract document's text; undefined where it is missing (see missingContract). */
export const contractText = (): string | undefined =>
  missingContract() === undefined ? readFileSync(contractFile(), 'utf8') : undefined;
