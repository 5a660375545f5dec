// A collection as a walk read it (its pages, each with its exchange, and every record in the order
// served), and where a record of it was served: what a check names when it finds a record wrong.
import { describeRecordProblem, type RecordProblem } from '../../checks/invariants.ts';
import type { Operation } from '../../contract/operation-model.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Attempt } from '../verdict/attempt.ts';
import type { Page } from './collections.ts';
import type { DataRecord } from './records.ts';

export interface LoadedCollection {
  operation: Operation;
  pages: Page<DataRecord>[];
  /** Every record of every page, in the order served. */
  records: DataRecord[];
  /** Whether the walk reached the last page (false: it stopped at the plan's page bound). */
  complete: boolean;
  /** The walk stopped past what its start can select (collections.ts `cut`). */
  cut?: true;
}

/** A collection's walk, or the error that stopped it (with the finding of a check's failure). */
export type CollectionOutcome = Attempt<LoadedCollection>;

/** Where a record of a walk was served: page (0-based), index on that page, and that page's exchange. */
export function servedAt(
  collection: LoadedCollection,
  index: number,
): { page: number; onPage: number; exchange: Exchange } {
  let offset = 0;
  for (const [page, served] of collection.pages.entries()) {
    if (index < offset + served.records.length)
      return { page, onPage: index - offset, exchange: served.exchange };
    offset += served.records.length;
  }
  const last = collection.pages.at(-1) as Page<DataRecord>;
  return { page: collection.pages.length - 1, onPage: last.records.length, exchange: last.exchange };
}

/**
 * The problems an oracle of src/checks/invariants.ts found in a collection's records, each naming the page
 * that served its record ("record 57 (page 2, #7) (id …): …"), and the exchange of the first offending page,
 * for the failure message.
 */
export function onPages(
  collection: LoadedCollection,
  problems: readonly RecordProblem[],
): { problems: string[]; exchange?: Exchange } {
  let exchange: Exchange | undefined;
  const located = problems.map((problem) => {
    const where = servedAt(collection, problem.index);
    exchange ??= where.exchange;
    return describeRecordProblem(problem, ` (page ${where.page}, #${where.onPage})`);
  });
  return { problems: located, exchange: exchange ?? collection.pages[0]?.exchange };
}
