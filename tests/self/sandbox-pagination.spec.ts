// The sandbox's collection parameters: limit, next_token, start/end filters, for every collection.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { api, collectAll, collections, login, start, TestClock, type Tokens } from './sandbox-client.ts';

let sandbox: RunningSandbox;
const clock = new TestClock();
let a: Tokens;
let b: Tokens;

test.beforeAll(async () => {
  sandbox = await start({ now: clock.now, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  a = await login(sandbox);
  b = await login(sandbox, { user: 'B' });
});
test.afterAll(async () => sandbox.close());

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const idOf = (record: Record<string, unknown>) => String(record.id ?? record.cycle_id);
/** The filter key: start, or for recoveries the start of their sleep (= the start of their cycle here). */
const keyOf = async (name: string, record: Record<string, unknown>): Promise<number> => {
  if (name !== 'recovery') return Date.parse(String(record.start));
  const cycle = await api(sandbox, `/v2/cycle/${record.cycle_id}`, a.access_token);
  return Date.parse(cycle.body.start);
};

for (const [name, path] of Object.entries(collections)) {
  test.describe(`${path}`, () => {
    test('limit: default 10, maximum 25; 26, 0, -1, 1.5, abc and empty get 400', async () => {
      expect((await api(sandbox, path, a.access_token)).body.records).toHaveLength(10);
      expect((await api(sandbox, `${path}?limit=25`, a.access_token)).body.records).toHaveLength(25);
      expect((await api(sandbox, `${path}?limit=1`, a.access_token)).body.records).toHaveLength(1);
      for (const limit of ['26', '0', '-1', '1.5', 'abc', '', '1e400']) {
        const response = await api(sandbox, `${path}?limit=${limit}`, a.access_token);
        expect(response.status, `limit=${limit}`).toBe(400);
        expect(response.body).toMatchObject({ error: 'invalid_request' });
      }
    });

    test('following next_token visits every record once, in the same order for any page size', async () => {
      const window = { start: iso(clock.ms - 40 * DAY) };
      const by25 = (await collectAll(sandbox, path, a.access_token, { ...window, limit: '25' })).map(idOf);
      const by7 = (await collectAll(sandbox, path, a.access_token, { ...window, limit: '7' })).map(idOf);
      const by1 = (
        await collectAll(sandbox, path, a.access_token, { start: iso(clock.ms - 6 * DAY), limit: '1' })
      ).map(idOf);
      expect(new Set(by25).size).toBe(by25.length);
      expect(by7).toEqual(by25);
      expect(by1).toEqual(by25.slice(0, by1.length));
      const all = await collectAll(sandbox, path, a.access_token);
      expect(all.length).toBeGreaterThan(by25.length);
    });

    test('the last page has no next_token; a page with one is followed by records', async () => {
      const window = `start=${iso(clock.ms - 5 * DAY)}`;
      let query = `${window}&limit=3`;
      for (let page = 0; page < 50; page += 1) {
        const response = await api(sandbox, `${path}?${query}`, a.access_token);
        expect(response.body.records.length).toBeGreaterThan(0);
        if (!response.body.next_token) return;
        query = `${window}&limit=3&nextToken=${encodeURIComponent(response.body.next_token)}`;
      }
      throw new Error('no last page');
    });

    test("tampered, made-up, another user's and another query's cursors get 400", async () => {
      const first = await api(sandbox, `${path}?limit=5`, a.access_token);
      const token: string = first.body.next_token;
      const [body, signature] = token.split('.');
      const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString());
      const forged = `${Buffer.from(JSON.stringify({ ...payload, o: 0 })).toString('base64url')}.${signature}`;
      const otherPath = path === collections.cycle ? collections.sleep : collections.cycle;
      const cases: [string, string][] = [
        [`${path}?nextToken=${forged}`, a.access_token],
        [`${path}?nextToken=${token.slice(0, -2)}`, a.access_token],
        [`${path}?nextToken=garbage`, a.access_token],
        [`${path}?nextToken=`, a.access_token],
        [`${path}?nextToken=${token}`, b.access_token],
        [`${path}?nextToken=${token}&start=${iso(clock.ms - 3 * DAY)}`, a.access_token],
        [`${otherPath}?nextToken=${token}`, a.access_token],
      ];
      for (const [url, bearer] of cases) expect((await api(sandbox, url, bearer)).status, url).toBe(400);
      expect((await api(sandbox, `${path}?limit=9&nextToken=${token}`, a.access_token)).status).toBe(200);
    });

    test('start is inclusive, end exclusive; start after end is 400; malformed dates 400', async () => {
      const records = (await api(sandbox, `${path}?limit=25`, a.access_token)).body.records;
      const target = records[5];
      const key = await keyOf(name, target);
      const from = await collectAll(sandbox, path, a.access_token, { start: iso(key) });
      expect(from.map(idOf)).toContain(idOf(target));
      expect(from.map(idOf)).not.toContain(idOf(records[6]));
      const until = await api(sandbox, `${path}?limit=25&end=${iso(key)}`, a.access_token);
      expect(until.body.records[0]).toEqual(records[6]);
      const equal = await api(sandbox, `${path}?start=${iso(key)}&end=${iso(key)}`, a.access_token);
      expect(equal.body.records).toEqual([]);
      const window = await api(sandbox, `${path}?start=${iso(key)}&end=${iso(key + 1)}`, a.access_token);
      expect(window.body.records).toEqual([target]);
      expect(
        (await api(sandbox, `${path}?start=${iso(key + 1)}&end=${iso(key)}`, a.access_token)).status,
      ).toBe(400);
      for (const bad of [
        'yesterday',
        '2025-13-01T00:00:00Z',
        '2025-01-01T00:00:00',
        '2025-01-01',
        '2016-12-31T23:59:60Z',
      ]) {
        for (const param of ['start', 'end']) {
          const response = await api(sandbox, `${path}?${param}=${encodeURIComponent(bad)}`, a.access_token);
          expect(response.status, `${param}=${bad}`).toBe(400);
        }
      }
      const offset = await api(
        sandbox,
        `${path}?start=${encodeURIComponent(iso(key).replace('Z', '+00:00'))}`,
        a.access_token,
      );
      expect(offset.status).toBe(200);
    });
  });
}

test('end defaults to now: records starting after the clock are not listed', async () => {
  const clock2 = new TestClock();
  const other = await start({ now: clock2.now });
  try {
    const token = await login(other);
    const newest = (await api(other, '/v2/cycle', token.access_token)).body.records[0];
    clock2.ms = Date.parse(newest.start);
    const later = await login(other);
    const page = await api(other, '/v2/cycle', later.access_token);
    expect(page.body.records[0].end).toBe(newest.start);
    const explicit = await api(other, `/v2/cycle?end=${iso(clock2.ms + DAY)}`, later.access_token);
    expect(explicit.body.records[0]).toEqual(newest);
  } finally {
    await other.close();
  }
});
