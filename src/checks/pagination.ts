// Pages and walks of a collection by next_token, as data: the first page holds the newest records, with
// and without end (PAG-FIRST-PAGE); each walk visits a record once and only records the reference walk
// visited (PAG-NEXT-TOKEN), and the same query walked at two page sizes visits the same records. A record is
// its identity (and its time key); a walk, its name and the identities it visited, in order.
import { iso } from '../text/iso-time.ts';
import { describeRecordProblem, duplicateProblems } from './invariants.ts';

/** A record as the first-page judgements see it: its identity and its time key. */
export interface KeyedId {
  id: string;
  key: number;
}

/** The records of the complete walk (`all`) newer than the first record of the first page. */
export function newerThanFirstProblems(first: KeyedId | undefined, all: readonly KeyedId[]): string[] {
  if (!first) return [];
  return all
    .filter((record) => record.key > first.key)
    .map(
      (record) =>
        `record ${record.id} (time ${iso(record.key)}) is newer than the first record of the first page, ${first.id} (${iso(first.key)})`,
    );
}

/** With end = `cut`, the first page holds the records `before` it that are newer than its oldest. */
export function endCutProblems(cut: number, before: readonly KeyedId[], page: readonly KeyedId[]): string[] {
  const problems: string[] = [];
  const onPage = new Set(page.map((record) => record.id));
  const oldestOnPage = Math.min(...page.map((record) => record.key));
  if (before.length > 0 && page.length === 0)
    problems.push(
      `with end=${iso(cut)} the first page is empty although ${before.length} records started before it`,
    );
  for (const record of before)
    if (!onPage.has(record.id) && record.key > oldestOnPage)
      problems.push(
        `with end=${iso(cut)}: record ${record.id} (${iso(record.key)}) is newer than records on the first page but is not on it`,
      );
  return problems;
}

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
