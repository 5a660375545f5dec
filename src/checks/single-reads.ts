// Reads by id against the collections, as data: where a record read by id differs from the one its
// collection lists (JSON pointers, key order ignored), and what a cycle's sleep or a v1_id's mapping names
// that it should not. Ids compare as the seed writes them: a string or a number, case aside.
import { preview } from '../contract/validators.ts';

/** Whether two ids are the same (a string or a number, case aside). */
export const sameId = (a: unknown, b: unknown): boolean =>
  (typeof a === 'string' || typeof a === 'number') && String(a).toLowerCase() === String(b).toLowerCase();

/** JSON pointers at which two values differ (key order ignored). */
export function differences(inCollection: unknown, byId: unknown, at = ''): string[] {
  if (Object.is(inCollection, byId)) return [];
  if (
    inCollection !== null &&
    byId !== null &&
    typeof inCollection === 'object' &&
    typeof byId === 'object' &&
    Array.isArray(inCollection) === Array.isArray(byId)
  ) {
    const a = inCollection as Record<string, unknown>;
    const b = byId as Record<string, unknown>;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) =>
      differences(a[key], b[key], `${at}/${key}`),
    );
  }
  return [`${at || '(root)'}: ${preview(inCollection)} in the collection, ${preview(byId)} by id`];
}

/** The record read by id against the one listed (`where` in the collection): undefined when they agree. */
export function singleReadProblem(
  listed: unknown,
  byId: unknown,
  id: unknown,
  where: string,
): string | undefined {
  const found = differences(listed, byId);
  return found.length === 0
    ? undefined
    : `${String(id)} (${where} of the collection) differs at ${found.join('; ')}`;
}

/** A cycle's sleep names that cycle. */
export const cycleSleepProblem = (sleep: { id?: unknown; cycle_id?: unknown }, cycleId: unknown) =>
  sameId(sleep.cycle_id, cycleId)
    ? undefined
    : `cycle ${String(cycleId)}: the sleep ${String(sleep.id)} has cycle_id ${String(sleep.cycle_id)}`;

/** A v1_id's mapping names the record that carries it. */
export const mappingProblem = (mapped: unknown, record: { id?: unknown; v1_id?: unknown }) =>
  sameId(mapped, record.id)
    ? undefined
    : `v1_id ${String(record.v1_id)} of ${String(record.id)} maps to ${preview(mapped)}`;
