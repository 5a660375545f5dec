// Walking the four collections by next_token (PAG-FIRST-PAGE, PAG-NEXT-TOKEN, PAG-PAGE-SIZE-INDEPENDENT,
// PAG-LAST-PAGE), table-driven over the catalogue's collections: the first page holds the newest records,
// following next_token visits every record exactly once whatever the page size, and a walk ends on a page
// without next_token.
//
// Reference data: the reference walk of each collection with limit 25 (memoised per worker and target, shared
// with every other check), and windows of the newest records walked at small page sizes and at 25, each
// deep enough that the small walk reaches page 5 (the run's depth plan, src/config/input-classes.ts: limits
// 1, 2 and 7, every collection in the deep plan, one each by rotation in the budgeted plan). Comparisons
// between walks of the same query need no reading of the filter semantics.
import {
  type ApiClient,
  buildPath,
  COMPLETE_LIMIT,
  COMPLETE_WALK,
  covered,
  type DataRecord,
  describeEachCollection,
  endCutProblems,
  extentOrFail,
  identities,
  identityOf,
  iso,
  type KeyedId,
  type LoadedCollection,
  newerThanFirstProblems,
  type Operation,
  pageSizeProblems,
  readPage,
  recordDifference,
  sequenceDifference,
  test,
  type Verdict,
  verifies,
  type WalkIds,
  type WindowWalks,
  walkProblems,
} from '../../src/worker/suite/index.ts';

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

/** Records the page depth each small walk reached, as input classes (`limit 7: page 5`). */
const coverDepth = (walks: readonly WindowWalks[], name: string) =>
  covered(
    'walk depth at a small page size',
    walks.map(({ limit, small }) => `limit ${limit}: page ${small.walk.pages.length}`),
    name,
  );

/** The first page is the head of the complete walk (`all`), and nothing of it is newer than its first record. */
function firstPageProblems(
  page: readonly DataRecord[],
  all: readonly DataRecord[],
  key: (r: DataRecord) => number,
) {
  const difference = recordDifference(page, all.slice(0, page.length));
  const keyed = (record: DataRecord): KeyedId => ({ id: identityOf(record), key: key(record) });
  return [
    ...(difference ? [`the first page is not the head of the complete walk: ${difference}`] : []),
    ...newerThanFirstProblems(page[0] && keyed(page[0]), all.map(keyed)),
  ];
}

/**
 * A next_token leading to an empty last page is a cursor that does not look ahead: the seed does not forbid
 * it, the suite's reading does (a warning, on the empty page).
 */
function warnEmptyLastPages(verdict: Verdict, ended: readonly (readonly [string, LoadedCollection])[]) {
  for (const [what, walk] of ended)
    walk.pages.forEach((page, index) => {
      const next = walk.pages[index + 1];
      if (page.nextToken !== undefined && next && next.records.length === 0)
        verdict.warn(
          `${what}: page ${index + 1} carries a next_token, but the page it leads to is empty`,
          next.exchange,
        );
    });
}

/**
 * A page that holds the whole window is the last page: by the reading, no next_token. (A walk cut past what
 * its start can select does not hold the whole window.) A next_token it carries is followed all the same.
 */
async function wholeWindowPage(
  api: ApiClient,
  op: Operation,
  token: string,
  verdict: Verdict,
  windows: WindowWalks[],
) {
  const [first] = windows;
  const count = first?.whole.walk.records.length ?? 0;
  if (!first || first.whole.walk.cut || count === 0 || count > COMPLETE_LIMIT) return;
  const { query } = first.whole;
  const options = { token, limit: count, query, requirement: verdict.requirement };
  const whole = await readPage<DataRecord>(api, buildPath(op), options);
  if (whole.records.length !== count || whole.nextToken === undefined) return;
  verdict.warn(
    `start=${query.start}, limit=${count}: the page holds all ${count} records of the window yet carries a next_token`,
    whole.exchange,
  );
  await readPage<DataRecord>(api, buildPath(op), options, whole.nextToken);
}

describeEachCollection((op, name) => {
  const path = buildPath(op);

  test(
    ...verifies('PAG-FIRST-PAGE', `${name} without nextToken returns the newest records`),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const { records: all, extentOf } = await dataset.timed(op);
      const key = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement).key;
      if (all.length < 3)
        verdict.notVerified(`${name} holds ${all.length} records; the check needs at least 3`);
      // The first page (no limit: the default page size) is the head of the complete walk, and its first
      // record is the newest of all.
      const first = await dataset.firstPage(op);
      const problems = firstPageProblems(first.records, all, key);
      // With end = the start of the 6th record, the first page must begin with the newest record that
      // certainly falls before end (a record the complete walk found), not skip it.
      const cut = extentOrFail(
        extentOf,
        all[Math.min(5, all.length - 2)] as DataRecord,
        verdict.requirement,
      ).earliest;
      const before = all.filter((record) => extentOrFail(extentOf, record, verdict.requirement).latest < cut);
      const filtered = await readPage<DataRecord>(api, path, {
        token,
        limit: 10,
        query: { end: iso(cut) },
        requirement: verdict.requirement,
      });
      const keyed = (record: DataRecord): KeyedId => ({ id: identityOf(record), key: key(record) });
      problems.push(...endCutProblems(cut, before.map(keyed), filtered.records.map(keyed)));
      verdict.expectNone(problems, filtered.exchange);
      verdict.evidence(`${name}: first pages compared with a complete walk of ${all.length} records`);
    },
  );

  test(
    ...verifies(
      'PAG-NEXT-TOKEN',
      `${name} following next_token visits every record exactly once, to page 5 and beyond at small page sizes`,
    ),
    async ({ dataset, verdict }) => {
      const all = await dataset.referenceWalk(op);
      const known = new Set(identities(all.records));
      const windows = await dataset.windowWalks(op, verdict.requirement);
      const walks: [string, LoadedCollection][] = [
        [COMPLETE_WALK, all],
        ...windows.flatMap(({ small, whole }): [string, LoadedCollection][] => [
          [small.what, small.walk],
          [whole.what, whole.walk],
        ]),
      ];
      const idsOf = ([what, walk]: readonly [string, LoadedCollection]): WalkIds => ({
        what,
        ids: identities(walk.records),
      });
      const sizes = windows.map(({ small, whole }) => ({
        small: idsOf([small.what, small.walk]),
        whole: idsOf([whole.what, whole.walk]),
      }));
      verdict.expectNone([...walkProblems(walks.map(idsOf), known), ...pageSizeProblems(sizes)]);
      const followed = walks.reduce((sum, [, walk]) => sum + walk.pages.length - 1, 0);
      if (followed === 0)
        verdict.notVerified(`${name}: every walk fits on one page, so no next_token was followed`);
      coverDepth(windows, name);
      verdict.evidence(
        `${name}: ${followed} next_tokens followed over ${walks.length} walks; ${windows.map(({ limit, small }) => `limit ${limit} to page ${small.walk.pages.length}`).join(', ')}`,
      );
    },
  );

  test(
    ...verifies(
      'PAG-PAGE-SIZE-INDEPENDENT',
      `${name} gives the same sequence over one window whatever the page size (records with equal start times, by the suite's reading)`,
    ),
    async ({ dataset, verdict }) => {
      const { records: all, extentOf } = await dataset.timed(op);
      const keyOf = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement).key;
      const problems: string[] = [];
      const windows = await dataset.windowWalks(op, verdict.requirement);
      // Each window walked with a small page size against the same window at 25, and the small walks of one
      // window against each other.
      const pairs = [
        ...windows.map(({ small, whole }) => [small, whole] as const),
        ...windows.flatMap((a, i) =>
          windows
            .slice(i + 1)
            .filter((b) => a.whole.what === b.whole.what)
            .map((b) => [a.small, b.small] as const),
        ),
      ];
      for (const [one, other] of pairs) {
        const difference = recordDifference(one.walk.records, other.walk.records);
        if (!difference) continue;
        // The seed orders by start time alone: records that share one may come in either order.
        const byStart = sequenceDifference(
          byStartTime(one.walk.records, keyOf),
          byStartTime(other.walk.records, keyOf),
        );
        if (byStart) problems.push(`${one.what} vs ${other.what}: ${byStart}`);
        else
          verdict.warn(
            `${one.what} vs ${other.what}: records with equal start times change places: ${difference}`,
          );
      }
      verdict.expectNone(problems);
      if (all.length < 2) verdict.notVerified(`${name} holds ${all.length} record(s): no order to compare`);
      coverDepth(windows, name);
      verdict.evidence(
        `${name}: ${pairs.length} pairs of walks compared over windows of ${windows.map(({ whole }) => whole.walk.records.length).join(', ')} records`,
      );
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
      const windows = await dataset.windowWalks(op, verdict.requirement);
      // The walks themselves (collections.ts) fail PAG-LAST-PAGE on a next_token that cannot be followed
      // or that never ends. The reference walk stops at the plan's bound: only a walk that reached its end
      // tells how it ends.
      const ended = [
        ...(all.complete ? [[COMPLETE_WALK, all] as const] : []),
        ...windows.flatMap(({ small, whole }) => [
          [small.what, small.walk] as const,
          [whole.what, whole.walk] as const,
        ]),
      ];
      warnEmptyLastPages(verdict, ended);
      await wholeWindowPage(api, op, token, verdict, windows);
      verdict.evidence(
        `${name}: ${ended.reduce((sum, [, walk]) => sum + walk.pages.length, 0)} pages of ${ended.length} walks ended without next_token`,
      );
    },
  );
});
