// Configured requisitions (CONFORMANCE_PARTNER_REQUISITION_IDS) are shared by every test of the run against
// the same target. A test that changes one (a status update) and reads its effect back claims it first, so
// no other test, in this worker or another, works on it at the same time. A claim is a directory under the
// run's directory (mkdir is atomic across processes), named after the target and the id; the fixtures
// release the claims of a test when it ends.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reportPath } from '../../run-state/reports-dir.ts';

const claimsDir = () => reportPath('.run/requisition-claims');
const held: string[] = [];

/**
 * The first id of `ids` no running test holds on the target at `baseUrl`, now held by the caller; undefined
 * when all are held.
 */
export function claimRequisition(baseUrl: string, ids: readonly string[]): string | undefined {
  mkdirSync(claimsDir(), { recursive: true });
  const target = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
  for (const id of ids) {
    const claim = `${target}-${encodeURIComponent(id)}`;
    try {
      mkdirSync(join(claimsDir(), claim));
      held.push(claim);
      return id;
    } catch {
      // held by another test
    }
  }
  return undefined;
}

/** Releases every claim of the current test (called by the fixtures after each test). */
export function releaseRequisitions(): void {
  for (const claim of held.splice(0)) rmSync(join(claimsDir(), claim), { recursive: true, force: true });
}
