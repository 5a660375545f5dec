// References between records, as data: the values of a reference field that name no record of the known
// ones (each with the first record naming it), and the problem of one that does not resolve by id either.
// A missing reference is a schema violation (the schema tests report it), not a dangling one.

/**
 * The references (`field` of each record `within` reach) and those `known` does not hold (lower-cased ids),
 * each with the index of the first record naming it.
 */
export function missingReferences(
  records: readonly { [field: string]: unknown }[],
  field: string,
  known: ReadonlySet<string>,
  within: (record: { [field: string]: unknown }) => boolean,
) {
  const missing = new Map<string, number>();
  let references = 0;
  records.forEach((record, index) => {
    if (record[field] === undefined || record[field] === null || !within(record)) return;
    references++;
    const value = String(record[field]);
    if (!known.has(value.toLowerCase()) && !missing.has(value)) missing.set(value, index);
  });
  return { missing, references };
}

/** Where a dangling reference stands, and what its read by id answered. */
export interface Dangling {
  index: number;
  /** "page 2, #7" */
  where: string;
  from: string;
  field: string;
  value: string;
  /** The read by id, its value in place. */
  read: string;
  status: number;
}

export const danglingProblem = ({ index, where, from, field, value, read, status }: Dangling): string =>
  `record ${index} (${where}) of ${from}: ${field} ${value} is in no record of the collection and ${read} answers ${status}`;
