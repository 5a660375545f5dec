// The start/end filters of the four collections (FLT-*), table-driven over the catalogue's collections.
//
// What the seed states: start "include[s] records that occurred after or during (inclusive) this time;
// without it there is no lower bound"; end "include[s] records that intersect this time or ended before
// (exclusive) it; defaults to now". Records are read as occupying [start, end). The suite asserts only
// what follows for every reading of those words:
//   start=S  a record starting at or after S is included; a record that ended at or before S is not
//            (one that spans S may go either way);
//   end=T    a record starting at or after T is not included.
// A recovery has no start or end of its own and the seed does not say which time the filters apply to;
// its extent is the union of its sleep's and its cycle's (src/suite/user-operations.ts), and only records
// whose inclusion is the same under every choice are asserted.
import { buildPath } from '../../src/contract/operations.ts';
import { readPage } from '../../src/suite/collections.ts';
import { test } from '../../src/suite/fixtures.ts';
import {
  collectionOperations,
  describeOperation,
  extentOrFail,
  extentsFor,
  identities,
  identityOf,
  iso,
  type JsonRecord,
  memoWalk,
  referenceWalk,
} from '../../src/suite/user-operations.ts';
import { expectNone, expectStatus, expectThat } from '../../src/suite/verdicts.ts';

const HOUR = 3_600_000;

for (const op of collectionOperations) {
  const path = buildPath(op);
  const name = describeOperation(op);

  test.describe(name, () => {
    // The checks read real, persistent data (a mock answers with fixed examples).
    test.beforeEach(({ requires }) => requires('stateful'));

    test(`FLT-START-INCLUSIVE: ${name} with start = a record's start includes that record`, {
      tag: ['@FLT-START-INCLUSIVE'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const all = await referenceWalk(api, op, token);
      const extentOf = await extentsFor(api, op, token);
      const extent = (record: JsonRecord) => extentOrFail(extentOf, record, 'FLT-START-INCLUSIVE');
      const problems: string[] = [];
      for (const index of [3, 12]) {
        const record = all.records[Math.min(index, all.records.length - 1)];
        if (!record) continue;
        const start = extent(record).earliest;
        const walk = await memoWalk(api, op, token, {
          limit: 25,
          query: { start: iso(start) },
          requirement: 'FLT-START-INCLUSIVE',
        });
        const found = new Set(identities(walk.records));
        // Every record of the complete walk that starts at or after start must be there.
        for (const candidate of all.records) {
          if (extent(candidate).earliest >= start && !found.has(identityOf(candidate))) {
            const exact = candidate === record ? ' (it starts exactly at start)' : '';
            problems.push(
              `start=${iso(start)}: record ${identityOf(candidate)} starting ${iso(extent(candidate).earliest)} is missing${exact}`,
            );
          }
        }
      }
      expectNone('FLT-START-INCLUSIVE', problems);
    });

    test(`FLT-START-EXCLUDES-EARLIER: ${name} with start never returns a record that ended before start`, {
      tag: ['@FLT-START-EXCLUDES-EARLIER'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const all = await referenceWalk(api, op, token);
      const extentOf = await extentsFor(api, op, token);
      const extent = (record: JsonRecord) => extentOrFail(extentOf, record, 'FLT-START-EXCLUDES-EARLIER');
      const problems: string[] = [];
      for (const index of [10, 30]) {
        const anchor = all.records[Math.min(index, all.records.length - 1)];
        if (!anchor) continue;
        const start = extent(anchor).earliest;
        const page = await readPage<JsonRecord>(api, path, {
          token,
          limit: 25,
          query: { start: iso(start) },
          requirement: 'FLT-START-EXCLUDES-EARLIER',
        });
        for (const record of page.records) {
          const { finish } = extent(record);
          if (finish <= start) {
            problems.push(
              `start=${iso(start)}: record ${identityOf(record)} ended ${iso(finish)}, ${finish === start ? 'exactly at' : 'before'} start: it did not occur at or after start`,
            );
          }
        }
      }
      expectNone('FLT-START-EXCLUDES-EARLIER', problems);
    });

    test(`FLT-NO-LOWER-BOUND: ${name} without start reaches the oldest record`, {
      tag: ['@FLT-NO-LOWER-BOUND'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const all = await referenceWalk(api, op, token);
      const extentOf = await extentsFor(api, op, token);
      expectThat('FLT-NO-LOWER-BOUND', all.records.length > 0, `${name} returned no records at all`);
      // Nothing may exist before the oldest record the walk without start found: ask for exactly that.
      const oldest = Math.min(
        ...all.records.map((record) => extentOrFail(extentOf, record, 'FLT-NO-LOWER-BOUND').earliest),
      );
      const known = new Set(identities(all.records));
      const earlier = await readPage<JsonRecord>(api, path, {
        token,
        limit: 25,
        query: { start: '1970-01-01T00:00:00.000Z', end: iso(oldest) },
        requirement: 'FLT-NO-LOWER-BOUND',
      });
      const missed = earlier.records.filter((record) => !known.has(identityOf(record)));
      expectNone(
        'FLT-NO-LOWER-BOUND',
        missed.map(
          (record) =>
            `record ${identityOf(record)} (start ${String(record.start ?? record.created_at)}) exists before ${iso(oldest)} but the walk without start never reached it (${all.records.length} records walked)`,
        ),
        earlier.exchange,
      );
    });

    test(`FLT-END-EXCLUSIVE: ${name} with end = a record's start leaves that record and later ones out`, {
      tag: ['@FLT-END-EXCLUSIVE'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const all = await referenceWalk(api, op, token);
      const extentOf = await extentsFor(api, op, token);
      const extent = (record: JsonRecord) => extentOrFail(extentOf, record, 'FLT-END-EXCLUSIVE');
      const problems: string[] = [];
      for (const index of [5, 15]) {
        const anchor = all.records[Math.min(index, all.records.length - 1)];
        if (!anchor) continue;
        const end = extent(anchor).earliest;
        const page = await readPage<JsonRecord>(api, path, {
          token,
          limit: 25,
          query: { end: iso(end) },
          requirement: 'FLT-END-EXCLUSIVE',
        });
        for (const record of page.records) {
          const { earliest } = extent(record);
          if (earliest >= end) {
            const exact = earliest === end ? 'exactly at' : 'after';
            problems.push(
              `end=${iso(end)}: record ${identityOf(record)} starts ${exact} end (${iso(earliest)})`,
            );
          }
        }
      }
      expectNone('FLT-END-EXCLUSIVE', problems);
    });

    test(`FLT-END-DEFAULT-NOW: ${name} without end returns the newest records up to now`, {
      tag: ['@FLT-END-DEFAULT-NOW'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const withoutEnd = await readPage<JsonRecord>(api, path, {
        token,
        limit: 10,
        requirement: 'FLT-END-DEFAULT-NOW',
      });
      // An hour ahead of the local clock: every record up to now, whatever the clocks' skew.
      const end = iso(Date.now() + HOUR);
      const withEnd = await readPage<JsonRecord>(api, path, {
        token,
        limit: 10,
        query: { end },
        requirement: 'FLT-END-DEFAULT-NOW',
      });
      const expected = identities(withEnd.records);
      const actual = identities(withoutEnd.records);
      const missing = expected.filter((id) => !actual.includes(id));
      expectThat(
        'FLT-END-DEFAULT-NOW',
        missing.length === 0 && expected.join() === actual.join(),
        `without end the first page differs from the one with end=${end}: ${missing.length > 0 ? `missing ${missing.slice(0, 5).join(', ')}` : `${actual.slice(0, 5).join(', ')} … vs ${expected.slice(0, 5).join(', ')} …`}`,
        withoutEnd.exchange,
      );
    });

    test(`FLT-MALFORMED-DATE: ${name} answers 400 to start=yesterday and end=2025-13-45T00:00:00Z`, {
      tag: ['@FLT-MALFORMED-DATE'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      for (const query of [{ start: 'yesterday' }, { end: '2025-13-45T00:00:00Z' }]) {
        expectStatus('FLT-MALFORMED-DATE', await api.send({ path, token, query }), 400);
      }
    });

    test(`FLT-START-AFTER-END: ${name} answers 400 to a start after end`, {
      tag: ['@FLT-START-AFTER-END'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      const query = { start: '2025-10-02T00:00:00.000Z', end: '2025-10-01T00:00:00.000Z' };
      expectStatus('FLT-START-AFTER-END', await api.send({ path, token, query }), 400);
    });
  });
}
