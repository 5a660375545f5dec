// Configured requisitions (CONFORMANCE_PARTNER_REQUISITION_IDS) are shared by every test of the run. A test
// that changes one (a status update) and reads its effect back claims it first, so no other test, in this
// worker or another, works on it at the same time. A claim is a directory under the run's directory
// (mkdir is atomic across processes); the fixtures release the claims of a test when it ends.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reportPath } from '../run/reports-dir.ts';

const claimsDir = () => reportPath('.run/requisition-claims');
const held: string[] = [];

/** The first id of `ids` no running test holds, now held by the caller; undefined when all are held. */
export function claimRequisition(ids: readonly string[]): string | undefined {
  mkdirSync(claimsDir(), { recursive: true });
  for (const id of ids) {
    try {
      mkdirSync(join(claimsDir(), id));
      held.push(id);
      return id;
    } catch {
      // held by another test
    }
  }
  return undefined;
}

/** Releases every claim of the current test (called by the fixtures after each test). */
export function releaseRequisitions(): void {
  for (const id of held.splice(0)) rmSync(join(claimsDir(), id), { recursive: true, force: true });
}
