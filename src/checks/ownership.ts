// Whose data a read reaches, as data: an answer to user A for one of user B's record ids (404 by the suite's
// reading, another refusal a warning, a record served a problem), and the owners the records of user A's
// collections name against the profile's user_id (without one, the collections may not mix users).
import { preview } from '../contract/validators.ts';

/** What an answer to user A for user B's id says: nothing (404), a refusal other than 404, or a problem. */
export type ForeignAnswer = { warning: string } | { problem: string } | undefined;

/** The answer of status `status` for user B's record at `path` (its id in place), read with user A's token. */
export function foreignAnswer(status: number, path: string): ForeignAnswer {
  if (status === 404) return undefined;
  if (status >= 400) return { warning: `user B's record refused to user A with ${status}, not 404` };
  return { problem: `${path} (user B's) answers ${status} to user A` };
}

/** A collection of user A's as the ownership check reads it: its records and where each was served. */
export interface OwnedCollection {
  path: string;
  records: readonly { [field: string]: unknown }[];
  servedAt: (index: number) => { page: number; onPage: number };
}

/**
 * The records that name another owner than the profile's user_id (a number), or, without one, collections
 * that mix owners; and the owners named. A missing user_id is a schema violation (reported there).
 */
export function ownerProblems(collections: readonly OwnedCollection[], profileUser: unknown) {
  const problems: string[] = [];
  const owners = new Set<string>();
  for (const { path, records, servedAt } of collections)
    records.forEach((record, index) => {
      if (record.user_id === undefined) return;
      owners.add(String(record.user_id));
      if (typeof profileUser !== 'number' || record.user_id === profileUser) return;
      const where = servedAt(index);
      problems.push(
        `${path} page ${where.page}, #${where.onPage}: user_id ${preview(record.user_id)}, but the profile's is ${profileUser}`,
      );
    });
  if (typeof profileUser !== 'number' && owners.size > 1)
    problems.push(`the collections mix records of users ${[...owners].join(', ')}`);
  return { problems, owners };
}
