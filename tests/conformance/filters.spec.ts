// The start/end filters of the four collections (FLT-*), table-driven over the catalogue's collections.
//
// What the seed states: start "include[s] records that occurred after or during (inclusive) this time;
// without it there is no lower bound"; end "include[s] records that intersect this time or ended before
// (exclusive) it; defaults to now". The suite fails only what follows for every reading of those words:
//   start=S  a record starting at or after S is included; a record that ended before S is not (one that
//            spans S may go either way);
//   end=T    a record starting after T is not included.
// The boundaries are loose ("during (inclusive)", "intersect this time"): the suite reads records as
// occupying [start, end), so a record that ended exactly at S, or starts exactly at T, is left out; a
// target that includes it gets a warning (FLT-START-EXCLUDES-EARLIER and FLT-END-EXCLUSIVE readings).
// A recovery has no start or end of its own and the seed does not say which time the filters apply to;
// its extent is the union of its sleep's and its cycle's (src/worker/user-data/records.ts), and only records
// whose inclusion is the same under every choice are asserted.
import {
  boundCrossings,
  buildPath,
  covered,
  type DataRecord,
  type Dataset,
  describeEachCollection,
  type Exchange,
  type Extent,
  type ExtentOf,
  extentOrFail,
  identities,
  identityOf,
  iso,
  missingFromStart,
  type Operation,
  type Page,
  readPage,
  test,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

const HOUR = 3_600_000;

/**
 * A bound of a filter (start or end) set to the time of anchor records of the complete walk: the records
 * whose time lies beyond it are left out, and one exactly at it is included only against the suite's reading.
 */
interface Bound {
  /** The records served with the bound's query, and the exchange to show with a problem. */
  read: (query: Record<string, string>) => Promise<{ records: DataRecord[]; exchange: Exchange }>;
  extentOf: ExtentOf;
  param: 'start' | 'end';
  /** Positions in the complete walk of the records whose earliest time is the bound. */
  anchors: readonly number[];
  /** The time of a record that is compared with the bound. */
  timeOf: (extent: Extent) => number;
  /** Whether that time lies beyond the bound (the record must be left out). */
  beyond: (time: number, bound: number) => boolean;
  /** What a record beyond the bound did (its time given), and what one exactly at it did. */
  leaked: (time: string) => string;
  atBound: string;
}

/**
 * Reads the records filtered at each anchor's time: every record served beyond the bound, as a problem (one
 * exactly at it is a warning), and how many records of the walk lie beyond some bound.
 */
async function crossings(
  verdict: Verdict,
  all: readonly DataRecord[],
  bound: Bound,
): Promise<{ problems: string[]; beyond: number }> {
  const extent = (record: DataRecord) => extentOrFail(bound.extentOf, record, verdict.requirement);
  const problems: string[] = [];
  let beyond = 0;
  for (const index of bound.anchors) {
    const anchor = all[Math.min(index, all.length - 1)];
    if (!anchor) continue;
    const at = extent(anchor).earliest;
    beyond += all.filter((record) => bound.beyond(bound.timeOf(extent(record)), at)).length;
    const page = await bound.read({ [bound.param]: iso(at) });
    const served = page.records.map((record) => ({
      id: identityOf(record),
      time: bound.timeOf(extent(record)),
    }));
    const crossed = boundCrossings(served, { ...bound, at });
    problems.push(...crossed.problems);
    for (const warning of crossed.warnings) verdict.warn(warning, page.exchange);
  }
  return { problems, beyond };
}

/**
 * The positions of the records that bound the windows of the run's plan (src/config/input-classes.ts):
 * filtered walks at their starts are the pagination checks' too.
 */
const windowAnchors = async (dataset: Dataset, op: Operation): Promise<number[]> => [
  ...new Set((await dataset.classes(op)).windows.map(({ records }) => records - 1)),
];

describeEachCollection((op, name) => {
  const path = buildPath(op);

  test(
    ...verifies('FLT-START-INCLUSIVE', `${name} with start = a record's start includes that record`),
    async ({ dataset, verdict }) => {
      const { records, extentOf } = await dataset.timed(op);
      const extent = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement);
      const problems: string[] = [];
      let checked = 0;
      const anchors = await windowAnchors(dataset, op);
      for (const index of anchors) {
        const anchor = Math.min(index, records.length - 1);
        const record = records[anchor];
        if (!record) continue;
        const start = extent(record).earliest;
        const walk = await dataset.walk(op, {
          limit: 25,
          query: { start: iso(start) },
          requirement: verdict.requirement,
        });
        // Every record of the complete walk that starts at or after start must be there.
        const starts = records.map((one) => ({ id: identityOf(one), time: extent(one).earliest }));
        const missing = missingFromStart(starts, new Set(identities(walk.records)), start, anchor);
        checked += missing.checked;
        problems.push(...missing.problems);
      }
      verdict.expectNone(problems);
      if (checked === 0) verdict.notVerified(`${name} holds no record to filter (${records.length} records)`);
      covered('filter boundary', ["start = a record's start"], name);
      verdict.evidence(`${name}: ${checked} records at or after ${anchors.length} start values found`, {
        count: checked,
      });
    },
  );

  test(
    ...verifies(
      'FLT-START-EXCLUDES-EARLIER',
      `${name} with start never returns a record that ended before start`,
    ),
    async ({ dataset, verdict }) => {
      const { records, extentOf } = await dataset.timed(op);
      const { problems, beyond: earlier } = await crossings(verdict, records, {
        // The start-filtered walks of the windows, which FLT-START-INCLUSIVE and the pagination checks read.
        read: async (query) => {
          const walk = await dataset.walk(op, { limit: 25, query, requirement: verdict.requirement });
          return { records: walk.records, exchange: (walk.pages[0] as Page<DataRecord>).exchange };
        },
        extentOf,
        param: 'start',
        anchors: await windowAnchors(dataset, op),
        timeOf: (extent) => extent.finish,
        beyond: (finish, start) => finish < start,
        leaked: (finish) => `ended ${finish}, before start: it did not occur at or after start`,
        atBound: 'ended exactly at start and is included',
      });
      verdict.expectNone(problems);
      if (earlier === 0)
        verdict.notVerified(
          `${name}: no record ended before the start values tried (${records.length} records)`,
        );
      verdict.evidence(`${name}: ${earlier} earlier records could have leaked in, none did`);
    },
  );

  test(
    ...verifies('FLT-NO-LOWER-BOUND', `${name} without start reaches past the oldest record read`),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const { walk, records, extentOf } = await dataset.timed(op);
      if (records.length === 0) verdict.notVerified(`${name} holds no record`);
      // Ask for what exists before the oldest record the walk without start found. A walk that ended there
      // must have seen it all; one the plan's bound stopped (next_token still given) goes on past it.
      const oldest = Math.min(
        ...records.map((record) => extentOrFail(extentOf, record, verdict.requirement).earliest),
      );
      const known = new Set(identities(walk.records));
      const earlier = await readPage<DataRecord>(api, path, {
        token,
        limit: 25,
        query: { start: '1970-01-01T00:00:00.000Z', end: iso(oldest) },
        requirement: verdict.requirement,
      });
      const missed = walk.complete ? earlier.records.filter((record) => !known.has(identityOf(record))) : [];
      verdict.expectNone(
        missed.map(
          (record) =>
            `record ${identityOf(record)} (start ${String(record.start ?? record.created_at)}) exists before ${iso(oldest)} but the walk without start ended without it (${walk.records.length} records walked)`,
        ),
        earlier.exchange,
      );
      verdict.evidence(
        walk.complete
          ? `${name}: ${walk.records.length} records walked without start, to the end`
          : `${name}: the walk without start reached back to ${iso(oldest)} (${walk.records.length} records, the plan's bound) and its next_token goes on; ${earlier.records.length} older records found with end=${iso(oldest)}`,
      );
    },
  );

  test(
    ...verifies(
      'FLT-END-EXCLUSIVE',
      `${name} with end = a record's start leaves that record and later ones out`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const { records, extentOf } = await dataset.timed(op);
      const token = await userToken();
      const { problems, beyond: later } = await crossings(verdict, records, {
        // The first page (limit 25) before each end.
        read: (query) =>
          readPage<DataRecord>(api, path, { token, limit: 25, query, requirement: verdict.requirement }),
        extentOf,
        param: 'end',
        anchors: [5, 15],
        timeOf: (extent) => extent.earliest,
        beyond: (earliest, end) => earliest > end,
        leaked: (earliest) => `starts after end (${earliest})`,
        atBound: 'starts exactly at end and is included',
      });
      verdict.expectNone(problems);
      if (later === 0)
        verdict.notVerified(
          `${name}: no record starts after the end values tried (${records.length} records)`,
        );
      covered('filter boundary', ["end = a record's start"], name);
      verdict.evidence(`${name}: ${later} later records could have leaked in, none did`);
    },
  );

  test(
    ...verifies('FLT-END-DEFAULT-NOW', `${name} without end returns the newest records up to now`),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      // First pages of the default size: without end, the page the other checks of the collection read.
      const withoutEnd = await dataset.firstPage(op);
      // An hour ahead of the local clock: every record up to now, whatever the clocks' skew.
      const end = iso(Date.now() + HOUR);
      const withEnd = await readPage<DataRecord>(api, path, {
        token,
        query: { end },
        requirement: verdict.requirement,
      });
      const expected = identities(withEnd.records);
      const actual = identities(withoutEnd.records);
      const missing = expected.filter((id) => !actual.includes(id));
      verdict.expectThat(
        missing.length === 0 && expected.join() === actual.join(),
        `without end the first page differs from the one with end=${end}: ${missing.length > 0 ? `missing ${missing.slice(0, 5).join(', ')}` : `${actual.slice(0, 5).join(', ')} … vs ${expected.slice(0, 5).join(', ')} …`}`,
        withoutEnd.exchange,
      );
      if (expected.length === 0) verdict.notVerified(`${name} holds no record up to now`);
      verdict.evidence(`${name}: the first ${expected.length} records match`);
    },
  );

  test(
    ...verifies('FLT-MALFORMED-DATE', `${name} answers 400 to start=yesterday and end=2025-13-45T00:00:00Z`),
    async ({ api, userToken, verdict }) => {
      const token = await userToken();
      for (const query of [{ start: 'yesterday' }, { end: '2025-13-45T00:00:00Z' }]) {
        const exchange = await api.send({ path, token, query });
        verdict.expectStatus(exchange, 400);
        verdict.evidence('a malformed date-time refused', { exchange });
      }
    },
  );

  test(
    ...verifies(
      'FLT-START-AFTER-END',
      `${name} answers a start after end without a 5xx, by the suite's reading 400 or no record`,
    ),
    async ({ api, userToken, verdict }) => {
      const token = await userToken();
      const query = { start: '2025-10-02T00:00:00.000Z', end: '2025-10-01T00:00:00.000Z' };
      const exchange = await api.send({ path, token, query });
      verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
      // The reading: a client error (400), or a query that selects no record (200 without records).
      const served = exchange.status === 200 ? verdict.pageRecords(exchange).length : undefined;
      if (exchange.status !== 400 && served !== 0)
        verdict.warn(
          `start after end answered ${exchange.status}${served === undefined ? '' : ` with ${served} records`}, neither 400 nor 200 with no record`,
          exchange,
        );
      verdict.evidence(
        `${name}: answered ${exchange.status}${served === undefined ? '' : ` with ${served} records`}`,
      );
    },
  );
});
