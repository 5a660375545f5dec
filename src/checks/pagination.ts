// Walks of a collection by next_token judged against each other, as data: each walk visits a record once and
// only records the reference walk visited (PAG-NEXT-TOKEN), and the same query walked at two page sizes
// visits the same records. A walk is its name and the identities of the records it visited, in order.
import { describeRecordProblem, duplicateProblems } from './invariants.ts';

/** A walk as the judgements see it: what it was (`limit 7 over …`) and the identities it visited, in order. */
export interface WalkIds {
  what: string;
  ids: readonly string[];
}

/** Repeated records and records the reference walk (`known`) never visited (a gap), walk by walk. */
export function walkProblems(walks: readonly WalkIds[], known: ReadonlySet<string>): string[] {
  return walks.flatMap(({ what, ids }) => [
    ...duplicateProblems(ids.map((id) => ({ id }))).map(
      (problem) => `${what}: ${describeRecordProblem(problem)}`,
    ),
    ...ids.flatMap((id) =>
      known.has(id) ? [] : [`${what}: record ${id} was never visited by the reference walk (a gap)`],
    ),
  ]);
}

/** The same query walked with different page sizes visits the same records: each one only one of them visits. */
export function pageSizeProblems(pairs: readonly { small: WalkIds; whole: WalkIds }[]): string[] {
  return pairs.flatMap(({ small, whole }) => {
    const setSmall = new Set(small.ids);
    const setWhole = new Set(whole.ids);
    return [
      ...[...setSmall].flatMap((id) =>
        setWhole.has(id) ? [] : [`${id} is visited with ${small.what} but not with ${whole.what}`],
      ),
      ...[...setWhole].flatMap((id) =>
        setSmall.has(id) ? [] : [`${id} is visited with ${whole.what} but not with ${small.what}`],
      ),
    ];
  });
}
