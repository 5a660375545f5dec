// Walking the four collections by next_token (PAG-FIRST-PAGE, PAG-NEXT-TOKEN, PAG-PAGE-SIZE-INDEPENDENT,
// PAG-LAST-PAGE), table-driven over the catalogue's collections: the first page holds the newest records,
// following next_token visits every record exactly once whatever the page size, and a walk ends on a page
// without next_token.
//
// Reference data: the complete walk of each collection with limit 25 (memoised per worker and target, shared
// with every other check), and walks of two start-filtered windows (src/suite/user-data.ts WINDOWS: ~3
// records with limits 1 and 25, ~13 with limits 7 and 25), which bound the cost of small page sizes.
// Comparisons between walks of the same query need no reading of the filter semantics.
import { describeRecordProblem, duplicateProblems } from '../../src/checks/invariants.ts';
import { buildPath } from '../../src/contract/request-paths.ts';
import { type CollectionWalk, readPage } from '../../src/suite/collections.ts';
import { describeEachCollection } from '../../src/suite/each-collection.ts';
import { type DataRecord, extentOrFail, identities, identityOf, iso } from '../../src/suite/records.ts';
import { test, verifies } from '../../src/suite/test.ts';
import { COMPLETE_WALK, WINDOWS } from '../../src/suite/user-data.ts';

const sameSequence = (a: readonly string[], b: readonly string[]): string | undefined => {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    if (a[index] !== b[index]) {
      return `first difference at position ${index}: ${a[index] ?? '(end)'} vs ${b[index] ?? '(end)'} (${a.length} vs ${b.length} records)`;
    }
  }
  return undefined;
};

/** The records as runs of one start time ("time: ids", the ids sorted): the sequence up to the order of ties. */
function byStartTime(records: readonly DataRecord[], keyOf: (record: DataRecord) => number): string[] {
  const runs: { key: number; ids: string[] }[] = [];
  for (const record of records) {
    const last = runs.at(-1);
    if (last?.key === keyOf(record)) last.ids.push(identityOf(record));
    else runs.push({ key: keyOf(record), ids: [identityOf(record)] });
  }
  return runs.map(({ key, ids }) => `${iso(key)}: ${ids.sort().join(', ')}`);
}

describeEachCollection((op, name) => {
  const path = buildPath(op);

  test(
    ...verifies('PAG-FIRST-PAGE', `${name} without nextToken returns the newest records`),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const all = await dataset.referenceWalk(op);
      const extentOf = await dataset.extents(op);
      const key = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement).key;
      if (all.records.length < 3)
        verdict.notVerified(`${name} holds ${all.records.length} records; the check needs at least 3`);
      const problems: string[] = [];

      // The first page (no limit: the default page size) is the head of the complete walk, and its first
      // record is the newest of all.
      const first = await dataset.firstPage(op);
      const head = identities(all.records).slice(0, first.records.length);
      const difference = sameSequence(identities(first.records), head);
      if (difference) problems.push(`the first page is not the head of the complete walk: ${difference}`);
      const newest = first.records[0];
      if (newest) {
        const newer = all.records.filter((record) => key(record) > key(newest));
        for (const record of newer) {
          problems.push(
            `record ${identityOf(record)} (time ${iso(key(record))}) is newer than the first record of the first page, ${identityOf(newest)} (${iso(key(newest))})`,
          );
        }
      }

      // With end = the start of the 6th record, the first page must begin with the newest record that
      // certainly falls before end (a record the complete walk found), not skip it.
      const cut = extentOrFail(
        extentOf,
        all.records[Math.min(5, all.records.length - 2)] as DataRecord,
        verdict.requirement,
      ).earliest;
      const before = all.records.filter(
        (record) => extentOrFail(extentOf, record, verdict.requirement).latest < cut,
      );
      const filtered = await readPage<DataRecord>(api, path, {
        token,
        limit: 10,
        query: { end: iso(cut) },
        requirement: verdict.requirement,
      });
      const onPage = new Set(identities(filtered.records));
      const oldestOnPage = Math.min(...filtered.records.map(key));
      if (before.length > 0 && filtered.records.length === 0) {
        problems.push(
          `with end=${iso(cut)} the first page is empty although ${before.length} records started before it`,
        );
      }
      for (const record of before) {
        if (!onPage.has(identityOf(record)) && key(record) > oldestOnPage) {
          problems.push(
            `with end=${iso(cut)}: record ${identityOf(record)} (${iso(key(record))}) is newer than records on the first page but is not on it`,
          );
        }
      }
      verdict.expectNone(problems, filtered.exchange);
      verdict.evidence(`${name}: first pages compared with a complete walk of ${all.records.length} records`);
    },
  );

  test(
    ...verifies(
      'PAG-NEXT-TOKEN',
      `${name} following next_token visits every record exactly once (limits 1, 7, 25)`,
    ),
    async ({ dataset, verdict }) => {
      const all = await dataset.referenceWalk(op);
      const known = new Set(identities(all.records));
      const { requirement } = verdict;
      const windows = [
        await dataset.windowWalk(op, 'wide', 25, requirement),
        await dataset.windowWalk(op, 'wide', 7, requirement),
        await dataset.windowWalk(op, 'narrow', 25, requirement),
        await dataset.windowWalk(op, 'narrow', 1, requirement),
      ];
      const walks: [string, CollectionWalk<DataRecord>][] = [
        [COMPLETE_WALK, all],
        ...windows.map(({ what, walk }): [string, CollectionWalk<DataRecord>] => [what, walk]),
      ];
      const problems: string[] = [];
      for (const [what, walk] of walks) {
        problems.push(
          ...duplicateProblems(walk.records, (record) => identityOf(record as DataRecord)).map(
            (problem) => `${what}: ${describeRecordProblem(problem)}`,
          ),
        );
        for (const record of walk.records) {
          if (!known.has(identityOf(record))) {
            problems.push(
              `${what}: record ${identityOf(record)} was never visited by the complete walk (a gap)`,
            );
          }
        }
      }
      // The same query walked with different page sizes visits the same records.
      for (const [a, b] of [
        [1, 2],
        [3, 4],
      ] as const) {
        const [nameA, walkA] = walks[a] as [string, CollectionWalk<DataRecord>];
        const [nameB, walkB] = walks[b] as [string, CollectionWalk<DataRecord>];
        const setB = new Set(identities(walkB.records));
        const setA = new Set(identities(walkA.records));
        for (const id of setA)
          if (!setB.has(id)) problems.push(`${id} is visited with ${nameA} but not with ${nameB}`);
        for (const id of setB)
          if (!setA.has(id)) problems.push(`${id} is visited with ${nameB} but not with ${nameA}`);
      }
      verdict.expectNone(problems);
      const followed = walks.reduce((sum, [, walk]) => sum + walk.pages.length - 1, 0);
      if (followed === 0)
        verdict.notVerified(`${name}: every walk fits on one page, so no next_token was followed`);
      verdict.evidence(`${name}: ${followed} next_tokens followed over ${walks.length} walks`);
    },
  );

  test(
    ...verifies(
      'PAG-PAGE-SIZE-INDEPENDENT',
      `${name} gives the same sequence for limits 1, 7 and 25 (records with equal start times, by the suite's reading)`,
    ),
    async ({ dataset, verdict }) => {
      const all = await dataset.referenceWalk(op);
      const extentOf = await dataset.extents(op);
      const keyOf = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement).key;
      const problems: string[] = [];
      // Each window walked with a small page size against one page of up to 25.
      for (const [window, limit] of [
        ['narrow', 1],
        ['wide', 7],
      ] as const) {
        const small = await dataset.windowWalk(op, window, limit, verdict.requirement);
        const whole = await dataset.windowWalk(op, window, 25, verdict.requirement);
        const difference = sameSequence(identities(small.walk.records), identities(whole.walk.records));
        if (!difference) continue;
        // The seed orders by start time alone: records that share one may come in either order.
        const byStart = sameSequence(
          byStartTime(small.walk.records, keyOf),
          byStartTime(whole.walk.records, keyOf),
        );
        if (byStart) problems.push(`${small.what} vs ${whole.what}: ${byStart}`);
        else
          verdict.warn(
            `${small.what} vs ${whole.what}: records with equal start times change places: ${difference}`,
          );
      }
      verdict.expectNone(problems);
      if (all.records.length < 2)
        verdict.notVerified(`${name} holds ${all.records.length} record(s): no order to compare`);
      verdict.evidence(`${name}: windows of up to ${WINDOWS.wide + 1} of ${all.records.length} records`);
    },
  );

  test(
    ...verifies(
      'PAG-LAST-PAGE',
      `${name} walks end on a page without next_token, every next_token can be followed, and a full last page carries none`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const all = await dataset.referenceWalk(op);
      const {
        what: windowName,
        query,
        walk: window,
      } = await dataset.windowWalk(op, 'wide', 7, verdict.requirement);
      // The walks themselves (collections.ts) fail PAG-LAST-PAGE on a next_token that cannot be followed
      // or that never ends. A next_token leading to an empty last page is a cursor that does not look
      // ahead: the seed does not forbid it, the suite's reading does.
      for (const [what, walk] of [
        [COMPLETE_WALK, all],
        [windowName, window],
      ] as const) {
        walk.pages.forEach((page, index) => {
          const next = walk.pages[index + 1];
          if (page.nextToken !== undefined && next && next.records.length === 0)
            verdict.warn(
              `${what}: page ${index + 1} carries a next_token, but the page it leads to is empty`,
              next.exchange,
            );
        });
      }
      // A page that holds the whole window is the last page: by the reading, no next_token.
      const count = window.records.length;
      if (count > 0 && count <= 25) {
        const whole = await readPage<DataRecord>(api, path, {
          token,
          limit: count,
          query,
          requirement: verdict.requirement,
        });
        if (whole.records.length === count && whole.nextToken !== undefined) {
          verdict.warn(
            `start=${query.start}, limit=${count}: the page holds all ${count} records of the window yet carries a next_token`,
            whole.exchange,
          );
          await readPage<DataRecord>(
            api,
            path,
            { token, limit: count, query, requirement: verdict.requirement },
            whole.nextToken,
          );
        }
      }
      verdict.evidence(
        `${name}: ${all.pages.length + window.pages.length} pages of two walks ended without next_token`,
      );
    },
  );
});
