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
// its extent is the union of its sleep's and its cycle's (src/suite/records.ts), and only records
// whose inclusion is the same under every choice are asserted.
import { buildPath } from '../../src/contract/request-paths.ts';
import { readPage } from '../../src/suite/collections.ts';
import { type DataRecord, extentOrFail, identities, identityOf, iso } from '../../src/suite/records.ts';
import { test } from '../../src/suite/test.ts';
import { describeOperation, userCollections } from '../../src/suite/user-catalogue.ts';
import { expectNo5xx, notVerified } from '../../src/suite/verdicts.ts';
import { verifies } from '../../src/suite/verifies.ts';

const HOUR = 3_600_000;

for (const op of userCollections) {
  const path = buildPath(op);
  const name = describeOperation(op);

  test.describe(name, () => {
    // The checks read real, persistent data (a mock answers with fixed examples).
    test.beforeEach(({ requires }) => requires('stateful'));

    test(
      ...verifies('FLT-START-INCLUSIVE', `${name} with start = a record's start includes that record`),
      async ({ dataset, verdict }) => {
        const all = await dataset.referenceWalk(op);
        const extentOf = await dataset.extents(op);
        const extent = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement);
        const problems: string[] = [];
        let checked = 0;
        for (const index of [3, 12]) {
          const record = all.records[Math.min(index, all.records.length - 1)];
          if (!record) continue;
          const start = extent(record).earliest;
          const walk = await dataset.walk(op, {
            limit: 25,
            query: { start: iso(start) },
            requirement: verdict.requirement,
          });
          const found = new Set(identities(walk.records));
          // Every record of the complete walk that starts at or after start must be there.
          for (const candidate of all.records) {
            if (extent(candidate).earliest >= start) checked++;
            if (extent(candidate).earliest >= start && !found.has(identityOf(candidate))) {
              const exact = candidate === record ? ' (it starts exactly at start)' : '';
              problems.push(
                `start=${iso(start)}: record ${identityOf(candidate)} starting ${iso(extent(candidate).earliest)} is missing${exact}`,
              );
            }
          }
        }
        verdict.expectNone(problems);
        if (checked === 0) notVerified(`${name} holds no record to filter (${all.records.length} records)`);
        verdict.evidence(`${name}: ${checked} records at or after 2 start values found`);
      },
    );

    test(
      ...verifies(
        'FLT-START-EXCLUDES-EARLIER',
        `${name} with start never returns a record that ended before start`,
      ),
      async ({ api, dataset, userToken, verdict }) => {
        const token = await userToken();
        const all = await dataset.referenceWalk(op);
        const extentOf = await dataset.extents(op);
        const extent = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement);
        const problems: string[] = [];
        let earlier = 0;
        for (const index of [10, 30]) {
          const anchor = all.records[Math.min(index, all.records.length - 1)];
          if (!anchor) continue;
          const start = extent(anchor).earliest;
          earlier += all.records.filter((record) => extent(record).finish < start).length;
          const page = await readPage<DataRecord>(api, path, {
            token,
            limit: 25,
            query: { start: iso(start) },
            requirement: verdict.requirement,
          });
          for (const record of page.records) {
            const { finish } = extent(record);
            if (finish < start) {
              problems.push(
                `start=${iso(start)}: record ${identityOf(record)} ended ${iso(finish)}, before start: it did not occur at or after start`,
              );
            } else if (finish === start) {
              verdict.warn(
                `start=${iso(start)}: record ${identityOf(record)} ended exactly at start and is included`,
                page.exchange,
              );
            }
          }
        }
        verdict.expectNone(problems);
        if (earlier === 0)
          notVerified(
            `${name}: no record ended before the start values tried (${all.records.length} records)`,
          );
        verdict.evidence(`${name}: ${earlier} earlier records could have leaked in, none did`);
      },
    );

    test(
      ...verifies('FLT-NO-LOWER-BOUND', `${name} without start reaches the oldest record`),
      async ({ api, dataset, userToken, verdict }) => {
        const token = await userToken();
        const all = await dataset.referenceWalk(op);
        const extentOf = await dataset.extents(op);
        if (all.records.length === 0) notVerified(`${name} holds no record`);
        // Nothing may exist before the oldest record the walk without start found: ask for exactly that.
        const oldest = Math.min(
          ...all.records.map((record) => extentOrFail(extentOf, record, verdict.requirement).earliest),
        );
        const known = new Set(identities(all.records));
        const earlier = await readPage<DataRecord>(api, path, {
          token,
          limit: 25,
          query: { start: '1970-01-01T00:00:00.000Z', end: iso(oldest) },
          requirement: verdict.requirement,
        });
        const missed = earlier.records.filter((record) => !known.has(identityOf(record)));
        verdict.expectNone(
          missed.map(
            (record) =>
              `record ${identityOf(record)} (start ${String(record.start ?? record.created_at)}) exists before ${iso(oldest)} but the walk without start never reached it (${all.records.length} records walked)`,
          ),
          earlier.exchange,
        );
        verdict.evidence(`${name}: ${all.records.length} records walked without start`);
      },
    );

    test(
      ...verifies(
        'FLT-END-EXCLUSIVE',
        `${name} with end = a record's start leaves that record and later ones out`,
      ),
      async ({ api, dataset, userToken, verdict }) => {
        const token = await userToken();
        const all = await dataset.referenceWalk(op);
        const extentOf = await dataset.extents(op);
        const extent = (record: DataRecord) => extentOrFail(extentOf, record, verdict.requirement);
        const problems: string[] = [];
        let later = 0;
        for (const index of [5, 15]) {
          const anchor = all.records[Math.min(index, all.records.length - 1)];
          if (!anchor) continue;
          const end = extent(anchor).earliest;
          later += all.records.filter((record) => extent(record).earliest > end).length;
          const page = await readPage<DataRecord>(api, path, {
            token,
            limit: 25,
            query: { end: iso(end) },
            requirement: verdict.requirement,
          });
          for (const record of page.records) {
            const { earliest } = extent(record);
            if (earliest > end) {
              problems.push(
                `end=${iso(end)}: record ${identityOf(record)} starts after end (${iso(earliest)})`,
              );
            } else if (earliest === end) {
              verdict.warn(
                `end=${iso(end)}: record ${identityOf(record)} starts exactly at end and is included`,
                page.exchange,
              );
            }
          }
        }
        verdict.expectNone(problems);
        if (later === 0)
          notVerified(`${name}: no record starts after the end values tried (${all.records.length} records)`);
        verdict.evidence(`${name}: ${later} later records could have leaked in, none did`);
      },
    );

    test(
      ...verifies('FLT-END-DEFAULT-NOW', `${name} without end returns the newest records up to now`),
      async ({ api, userToken, verdict }) => {
        const token = await userToken();
        const withoutEnd = await readPage<DataRecord>(api, path, {
          token,
          limit: 10,
          requirement: verdict.requirement,
        });
        // An hour ahead of the local clock: every record up to now, whatever the clocks' skew.
        const end = iso(Date.now() + HOUR);
        const withEnd = await readPage<DataRecord>(api, path, {
          token,
          limit: 10,
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
        if (expected.length === 0) notVerified(`${name} holds no record up to now`);
        verdict.evidence(`${name}: the first ${expected.length} records match`);
      },
    );

    test(
      ...verifies(
        'FLT-MALFORMED-DATE',
        `${name} answers 400 to start=yesterday and end=2025-13-45T00:00:00Z`,
      ),
      async ({ api, userToken, verdict }) => {
        const token = await userToken();
        for (const query of [{ start: 'yesterday' }, { end: '2025-13-45T00:00:00Z' }]) {
          verdict.expectStatus(await api.send({ path, token, query }), 400);
        }
      },
    );

    test(
      ...verifies(
        'FLT-START-AFTER-END',
        `${name} answers a start after end without a 5xx (by the suite's reading, 400)`,
      ),
      async ({ api, userToken, verdict }) => {
        const token = await userToken();
        const query = { start: '2025-10-02T00:00:00.000Z', end: '2025-10-01T00:00:00.000Z' };
        const exchange = await api.send({ path, token, query });
        expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', exchange);
        if (exchange.status !== 400) {
          const served =
            exchange.status === 200
              ? ` with ${(exchange.json<{ records?: unknown[] }>().records ?? []).length} records`
              : '';
          verdict.warn(`start after end answered ${exchange.status}${served}, not 400`, exchange);
        }
        verdict.evidence(`${name}: answered ${exchange.status}`);
      },
    );
  });
}
