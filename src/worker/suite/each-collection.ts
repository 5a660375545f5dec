// Checks table-driven over the four user-data collections: one describe block per collection, titled by its
// operation (`GET /v2/cycle (listCycles)`, which every test title of the block carries).
import type { Operation } from '../../contract/operation-model.ts';
import { describeOperation, userCollections } from '../user-data/user-catalogue.ts';
import { needing } from './needs.ts';
import { test } from './test.ts';

/**
 * Declares `checks` once per collection, each time in a block of its own. The checks read real, persistent
 * data (a mock answers with fixed examples): a target that keeps none leaves them not verified.
 */
export function describeEachCollection(checks: (op: Operation, name: string) => void): void {
  for (const op of userCollections) {
    const name = describeOperation(op);
    test.describe(name, needing('stateful'), () => checks(op, name));
  }
}
