// Probes of the user-area faults that break how collections are read: pagination, ordering, time filters
// and the errors of malformed or unknown ids.
import assert from 'node:assert/strict';
import { collectAll, collections } from './sandbox-client.ts';
import {
  DAY,
  ms,
  newestFirst,
  type Probes,
  recoveriesBySleepStart,
  status,
  walk,
  windowQuery,
} from './sandbox-fault-probe.ts';

export const pagingProbes = {
  'pagination-default-not-10': {
    async check(p) {
      assert.equal((await p.records(collections.sleep, '')).length, 10);
    },
  },
  'pagination-limit-25-rejected': {
    async check(p) {
      assert.equal((await p.records(collections.workout, 'limit=25')).length, 25);
    },
  },
  'pagination-limit-26-accepted': status(`${collections.cycle}?limit=26`, 400),
  'pagination-limit-fraction-accepted': status(`${collections.cycle}?limit=1.5`, 400),
  'pagination-page-exceeds-limit': {
    async check(p) {
      assert.ok((await p.records(collections.recovery, 'limit=5')).length <= 5);
    },
  },
  'pagination-limit-off-by-one': {
    async check(p) {
      for (const limit of [13, 14, 19, 20])
        assert.equal((await p.records(collections.cycle, `limit=${limit}`)).length, limit, `limit=${limit}`);
    },
  },
  'pagination-deep-page-drops-record': {
    async check(p) {
      // A window of 6 records walked at limit 1 reaches page 6; at 25 it is one page.
      const records = await p.records(collections.sleep, 'limit=6');
      const query = { start: String(records[5]?.start) };
      const byOne = await collectAll(p.sandbox, collections.sleep, await p.token(), { ...query, limit: '1' });
      const byAll = await collectAll(p.sandbox, collections.sleep, await p.token(), {
        ...query,
        limit: '25',
      });
      assert.deepEqual(byOne, byAll);
    },
  },
  'pagination-first-page-skips-newest': {
    async check(p) {
      const [newest] = await p.records(collections.cycle, 'limit=1');
      assert.equal(newest?.end, undefined);
    },
  },
  'pagination-next-token-on-last-page': {
    async check(p) {
      // Every next_token, the last page's included if there is one, must lead to a page (never a 400).
      const query = { ...windowQuery(p, 4), limit: '2' };
      let page = await p.get(`${collections.cycle}?${new URLSearchParams(query)}`);
      for (let pages = 0; page.body.next_token !== undefined; pages += 1) {
        assert.ok(pages < 10, 'the walk ends');
        const nextToken = page.body.next_token;
        page = await p.get(`${collections.cycle}?${new URLSearchParams({ ...query, nextToken })}`);
        assert.equal(page.status, 200, page.text);
      }
    },
  },
  'pagination-duplicate-across-pages': {
    async check(p) {
      const ids = (
        await collectAll(p.sandbox, collections.sleep, await p.token(), { ...windowQuery(p, 10), limit: '4' })
      ).map((sleep) => sleep.id);
      assert.equal(new Set(ids).size, ids.length);
    },
  },
  'pagination-skips-record': {
    async check(p) {
      const token = await p.token();
      const byFour = await collectAll(p.sandbox, collections.workout, token, {
        ...windowQuery(p, 10),
        limit: '4',
      });
      const byAll = await collectAll(p.sandbox, collections.workout, token, {
        ...windowQuery(p, 10),
        limit: '25',
      });
      assert.deepEqual(byFour, byAll);
    },
  },
  'pagination-small-pages-reordered': {
    async check(p) {
      for (const path of [collections.sleep, collections.recovery]) {
        const byAll = await walk(p, path, 25);
        assert.ok(byAll.length > 8, `${path}: enough records to compare`);
        assert.deepEqual(await walk(p, path, 1), byAll, `${path} with limit 1`);
        assert.deepEqual(await walk(p, path, 7), byAll, `${path} with limit 7`);
      }
    },
  },
  'pagination-foreign-cursor-leaks': {
    async check(p) {
      // User B presenting user A's cursor: refused, or served from B's own data, never A's records.
      const next = (await p.get(`${collections.cycle}?limit=3`)).body.next_token;
      const ofA = new Set((await p.records(collections.cycle)).map((cycle) => cycle.id));
      const answer = await p.get(`${collections.cycle}?nextToken=${next}`, await p.token('B'));
      if (answer.status === 400) return;
      assert.equal(answer.status, 200, answer.text);
      for (const cycle of answer.body.records) assert.ok(!ofA.has(cycle.id), "user A's cycle served to B");
    },
  },
  'pagination-tampered-cursor-500': {
    async check(p) {
      const next: string = (await p.get(`${collections.cycle}?limit=3`)).body.next_token;
      const [body, signature] = next.split('.');
      const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString());
      const forged = `${Buffer.from(JSON.stringify({ ...payload, o: 1 })).toString('base64url')}.${signature}`;
      assert.equal((await p.get(`${collections.cycle}?nextToken=${forged}`)).status, 400);
    },
  },
  'cycle-order-ascending': newestFirst(collections.cycle),
  'sleep-order-ascending': newestFirst(collections.sleep),
  'workout-order-ascending': newestFirst(collections.workout),
  'recovery-order-ascending': recoveriesBySleepStart,
  'recovery-order-by-updated': recoveriesBySleepStart,
  'filter-start-exclusive': {
    async check(p) {
      const records = await p.records(collections.sleep);
      const included = await p.records(collections.sleep, `limit=25&start=${records[5]?.start}`);
      assert.ok(included.some((sleep) => sleep.id === records[5]?.id));
    },
  },
  'filter-start-ignored-earlier': {
    async check(p) {
      // Under either reading of start, no record that ended strictly before it is served.
      const records = await p.records(collections.workout);
      const start = String(records[5]?.start);
      for (const workout of await p.records(collections.workout, `limit=25&start=${start}`))
        assert.ok(ms(workout.end) >= ms(start), `workout ${workout.id} ended before start`);
    },
  },
  'filter-start-ignored': {
    async check(p) {
      // Under either reading of start, no record that ended strictly before it is served.
      const records = await p.records(collections.sleep);
      const start = String(records[5]?.start);
      const served = await p.records(collections.sleep, `limit=25&start=${start}`);
      assert.ok(
        served.every((sleep) => ms(sleep.end) >= ms(start)),
        'a sleep ended before start',
      );
    },
  },
  'filter-lower-bound-30-days': {
    async check(p) {
      const all = await collectAll(p.sandbox, collections.cycle, await p.token());
      assert.ok(ms(all.at(-1)?.start) < p.clock.ms - 100 * DAY);
    },
  },
  'filter-end-ignored': {
    async check(p) {
      // Under either reading of end, no record starting strictly after it is served.
      const records = await p.records(collections.cycle);
      const end = String(records[5]?.start);
      for (const cycle of await p.records(collections.cycle, `limit=25&end=${end}`))
        assert.ok(ms(cycle.start) <= ms(end), `cycle ${cycle.id} starts after end`);
    },
  },
  'filter-end-default-not-now': {
    async check(p) {
      const implicit = await p.records(collections.cycle, 'limit=5');
      const explicit = await p.records(collections.cycle, `limit=5&end=${p.iso(p.clock.ms + 60_000)}`);
      assert.deepEqual(implicit, explicit);
    },
  },
  'filter-malformed-date-ignored': status(`${collections.cycle}?start=yesterday`, 400),
  'filter-offset-dropped': {
    async check(p) {
      // 13:51:42+05:30 is 08:21:42Z: the record starting then is included either way it is written.
      const [, record] = await p.records(collections.cycle, 'limit=2');
      const start = ms(record?.start);
      const local = new Date(start + 330 * 60_000).toISOString().replace('Z', '+05:30');
      const found = await p.records(collections.cycle, `limit=25&start=${encodeURIComponent(local)}`);
      assert.ok(
        found.some((cycle) => cycle.id === record?.id),
        `start=${local} leaves out cycle ${record?.id}`,
      );
    },
  },
  'filter-fraction-truncated': {
    async check(p) {
      const [, record] = await p.records(collections.workout, 'limit=2');
      const end = new Date(ms(record?.start) + 1).toISOString();
      const found = await p.records(collections.workout, `limit=5&end=${end}`);
      assert.equal(found[0]?.id, record?.id, `end=${end} leaves out workout ${record?.id}`);
    },
  },
  'filter-end-rounded-up': {
    async check(p) {
      const [, record] = await p.records(collections.cycle, 'limit=2');
      const end = p.iso(ms(record?.start) - 1);
      const found = await p.records(collections.cycle, `limit=5&end=${end}`);
      assert.ok(!found.some((cycle) => cycle.id === record?.id), `end=${end} serves cycle ${record?.id}`);
    },
  },
  'filter-start-truncated': {
    async check(p) {
      const [, record] = await p.records(collections.workout, 'limit=2');
      const start = p.iso(ms(record?.start) + 1);
      const found = await p.records(collections.workout, `limit=25&start=${start}`);
      assert.ok(!found.some((one) => one.id === record?.id), `start=${start} serves workout ${record?.id}`);
    },
  },
  'filter-far-offset-500': status(
    `${collections.sleep}?start=${encodeURIComponent('2025-10-01T09:00:00+14:00')}`,
    200,
  ),
  'malformed-id-404': status('/v2/cycle/abc', 400),
  'unknown-cycle-returns-newest': status('/v2/cycle/1', 404),
  'cycle-subresource-unknown-200': status('/v2/cycle/1/recovery', 404),
  'server-error-on-large-cycle-id': status('/v2/cycle/9223372036854775807', 404),
} satisfies Probes;
