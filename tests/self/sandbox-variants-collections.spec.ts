// The conforming variants that change how collections are read (cursors, filters, limits, timing) or what
// data they hold: each one changes what it says, and every page still conforms (see sandbox-variants.spec.ts).

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { IDLE_CONNECTION_MS } from '../../sandbox/idle-connections.ts';
import { EVERY_ANSWER_LATE_MS, LONG_TAIL, lateness } from '../../sandbox/late-answers.ts';
import { SLOW_VARIANT_DELAY_MS } from '../../sandbox/user/collection.ts';
import { assertValid } from '../../src/contract/validators.ts';
import { api, collectAll, collections } from './sandbox-client.ts';
import {
  type CollectionName,
  collectionEntries,
  conforms,
  DAY,
  idOf,
  iso,
  ms,
  pageSchemas,
  pages,
  type Rec,
  recordsOf,
  userSandbox,
} from './sandbox-variant-support.ts';

// ---------------------------------------------------------------- offset-cursor
test.describe('variant offset-cursor', () => {
  const run = userSandbox(['offset-cursor']);
  const cursor = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

  for (const [name, path] of collectionEntries) {
    test(`${path}: a decodable offset, served to anyone from their own data; undecodable ones get 400`, async () => {
      const { sandbox, clock, tokenA, tokenB } = run();
      const first = await api(sandbox, `${path}?limit=5`, tokenA);
      const token = String(first.body.next_token);
      expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ o: 5 });
      const window = { start: iso(clock.ms - 30 * DAY) };
      const by25 = recordsOf(await pages(run(), path, { ...window, limit: '25' })).map(idOf);
      const by7 = recordsOf(await pages(run(), path, { ...window, limit: '7' })).map(idOf);
      expect(by7).toEqual(by25);
      const firstTenOf = async (bearer: string) =>
        (await api(sandbox, `${path}?limit=10`, bearer)).body.records as Rec[];
      // A's cursor presented by B: B's own records at that offset.
      const foreign = await api(sandbox, `${path}?limit=5&nextToken=${token}`, tokenB);
      expect(foreign.status).toBe(200);
      expect(foreign.body.records).toEqual((await firstTenOf(tokenB)).slice(5, 10));
      // A forged offset: the page at that offset of the current query.
      const forged = await api(sandbox, `${path}?limit=3&nextToken=${cursor({ o: 2 })}`, tokenA);
      expect(forged.body.records).toEqual((await firstTenOf(tokenA)).slice(2, 5));
      const otherQuery = await api(sandbox, `${path}?start=${window.start}&nextToken=${token}`, tokenA);
      expect(otherQuery.status).toBe(200);
      conforms(pageSchemas[name], otherQuery.body);
      for (const bad of ['garbage', cursor({ o: -1 }), cursor({ o: 1.5 }), cursor('x'), `${token}.sig`]) {
        const response = await api(sandbox, `${path}?nextToken=${encodeURIComponent(bad)}`, tokenA);
        expect(response.status, bad).toBe(400);
      }
    });
  }
});

// ---------------------------------------------------------------- no-lookahead-cursor
test.describe('variant no-lookahead-cursor', () => {
  const run = userSandbox(['no-lookahead-cursor']);

  for (const [name, path] of collectionEntries) {
    test(`${path}: a full page always has a next_token; past the end { records: [] } without one`, async () => {
      const { clock } = run();
      const window = { start: iso(clock.ms - 6 * DAY) };
      const byOne = await pages(run(), path, { ...window, limit: '1' });
      const last = byOne.at(-1) as Rec;
      expect(last.records).toEqual([]);
      expect(last.next_token).toBeUndefined();
      for (const page of byOne) conforms(pageSchemas[name], page);
      for (const page of byOne.slice(0, -1)) expect(page.next_token).toEqual(expect.any(String));
      const by25 = await pages(run(), path, { ...window, limit: '25' });
      expect(by25).toHaveLength(1);
      expect(recordsOf(byOne).map(idOf)).toEqual(recordsOf(by25).map(idOf));
    });
  }
});

// ---------------------------------------------------------------- start-after-end-empty
test.describe('variant start-after-end-empty', () => {
  const run = userSandbox(['start-after-end-empty']);

  test('start after end answers 200 { records: [] } on every collection; malformed dates stay 400', async () => {
    const { sandbox, tokenA } = run();
    for (const [name, path] of collectionEntries) {
      const response = await api(
        sandbox,
        `${path}?start=2026-01-02T00:00:00Z&end=2026-01-01T00:00:00Z`,
        tokenA,
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ records: [] });
      conforms(pageSchemas[name], response.body);
      expect((await api(sandbox, `${path}?start=yesterday`, tokenA)).status).toBe(400);
    }
  });
});

// ---------------------------------------------------------------- slow
test.describe('variant slow', () => {
  const run = userSandbox(['slow']);

  test(`every collection answers at least ${SLOW_VARIANT_DELAY_MS} ms late, still conforming`, async () => {
    const { sandbox, tokenA } = run();
    for (const [name, path] of collectionEntries) {
      const started = performance.now();
      const response = await api(sandbox, `${path}?limit=2`, tokenA);
      expect(performance.now() - started, path).toBeGreaterThanOrEqual(SLOW_VARIANT_DELAY_MS - 1);
      expect(response.status).toBe(200);
      conforms(pageSchemas[name], response.body);
    }
  });
});

// ---------------------------------------------------------------- long-tail
test.describe('variant long-tail', () => {
  const run = userSandbox(['long-tail']);

  test("which answers leave late is drawn from the instance's seed, answer by answer: about 1 in 40 by 2.5 s, 1 in 300 by 12 s", () => {
    const schedule = (seed: number) => Array.from({ length: 3_000 }, (_, n) => lateness(seed, n + 1));
    const count = (lates: number[], ms: number) => lates.filter((late) => late === ms).length;
    const [one, again, other] = [schedule(1), schedule(1), schedule(2)];
    expect(again).toEqual(one);
    expect(other).not.toEqual(one);
    for (const lates of [one, other]) {
      expect(new Set(lates)).toEqual(new Set([0, ...LONG_TAIL.map((tail) => tail.lateMs)]));
      expect(count(lates, 2_500)).toBeGreaterThan(3_000 / 60);
      expect(count(lates, 2_500)).toBeLessThan(3_000 / 30);
      expect(count(lates, 12_000)).toBeGreaterThan(3_000 / 600);
      expect(count(lates, 12_000)).toBeLessThan(3_000 / 150);
    }
  });

  test('every answer still conforms, the late ones too', async () => {
    const { sandbox, tokenA } = run();
    // The instance's first late answer (seed 1: the sixth); the sign-in's answers are not the service's.
    const firstLate = Array.from({ length: 100 }, (_, n) => n + 1).find((n) => lateness(1, n) > 0) ?? 0;
    expect(firstLate).toBeGreaterThan(0);
    const [name, path] = collectionEntries[0];
    for (let n = 1; n <= firstLate; n++) {
      const response = await api(sandbox, `${path}?limit=2`, tokenA);
      expect(response.status, `answer ${n}`).toBe(200);
      conforms(pageSchemas[name], response.body);
    }
  });
});

// ---------------------------------------------------------------- every-answer-700ms
test.describe('variant every-answer-700ms', () => {
  const run = userSandbox(['every-answer-700ms']);

  test(`every answer of the service and of its sign-in leaves at least ${EVERY_ANSWER_LATE_MS} ms late, still conforming`, async () => {
    const { sandbox, tokenA } = run();
    const [name, path] = collectionEntries[0];
    const timed = async <T>(send: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const answer = await send();
      return [answer, performance.now() - started];
    };
    const [page, pageMs] = await timed(() => api(sandbox, `${path}?limit=2`, tokenA));
    expect(page.status).toBe(200);
    conforms(pageSchemas[name], page.body);
    const [signInPage, signInMs] = await timed(() =>
      fetch(`${sandbox.authUrl}/oauth/oauth2/auth?client_id=x`).then((response) => response.status),
    );
    expect(signInPage).toBeGreaterThanOrEqual(200);
    for (const ms of [pageMs, signInMs]) expect(ms).toBeGreaterThanOrEqual(EVERY_ANSWER_LATE_MS - 1);
  });
});

// ---------------------------------------------------------------- idle-connection-reset
test.describe('variant idle-connection-reset', () => {
  const run = userSandbox(['idle-connection-reset']);

  test(`a request on a kept-alive connection idle for ${IDLE_CONNECTION_MS} ms gets a TCP reset before any byte of an answer; on a new connection it is answered`, async () => {
    const { sandbox, tokenA } = run();
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status?: number; code?: string; reused: boolean }>((resolve) => {
        const outgoing = httpRequest(`${sandbox.baseUrl}${collections.cycle}?limit=1`, {
          agent,
          headers: { authorization: `Bearer ${tokenA}` },
        });
        outgoing.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode, reused: outgoing.reusedSocket }));
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ code: error.code, reused: outgoing.reusedSocket }),
        );
        outgoing.end();
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await sleep(IDLE_CONNECTION_MS + 200);
      expect(await get()).toEqual({ code: 'ECONNRESET', reused: true });
      expect(await get()).toEqual({ status: 200, reused: false });
    } finally {
      agent.destroy();
    }
  });
});

// ---------------------------------------------------------------- closed-interval-filters
test.describe('variant closed-interval-filters', () => {
  const run = userSandbox(['closed-interval-filters']);

  for (const [name, path] of collectionEntries) {
    test(`${path}: the records intersecting [start, end], boundaries included, newest first`, async () => {
      const { sandbox, clock, tokenA } = run();
      const recent = { start: iso(clock.ms - 20 * DAY) };
      const sleeps = await collectAll(sandbox, collections.sleep, tokenA, recent);
      const sleepById = new Map(sleeps.map((sleep) => [sleep.id, sleep]));
      const timed = (record: Rec): Rec =>
        name === 'recovery' ? (sleepById.get(record.sleep_id) ?? {}) : record;
      const keyOf = (record: Rec): number => ms(timed(record).start);
      const endOf = (record: Rec): number => {
        const end = timed(record).end;
        return end ? ms(end) : Number.POSITIVE_INFINITY;
      };
      const all = await collectAll(sandbox, path, tokenA, recent);
      const [startsAtEnd, endedAtStart] = [all[3] as Rec, all[9] as Rec];
      const window = { start: endOf(endedAtStart), end: keyOf(startsAtEnd) };
      const expected = all.filter((record) => keyOf(record) <= window.end && endOf(record) >= window.start);
      const query = { start: iso(window.start), end: iso(window.end) };
      const byThree = await pages(run(), path, { ...query, limit: '3' });
      for (const page of byThree) conforms(pageSchemas[name], page);
      const got = recordsOf(byThree).map(idOf);
      expect(got).toEqual(expected.map(idOf));
      expect(got).toContain(idOf(startsAtEnd));
      expect(got).toContain(idOf(endedAtStart));
      expect(got[0]).toBe(idOf(startsAtEnd));
    });
  }

  test('a record in progress at start is included: the current cycle', async () => {
    const { sandbox, clock, tokenA } = run();
    const page = await api(sandbox, `${collections.cycle}?start=${iso(clock.ms - 60_000)}`, tokenA);
    expect(page.body.records).toHaveLength(1);
    expect(page.body.records[0].end).toBeUndefined();
  });
});

// ---------------------------------------------------------------- lenient-limits
test.describe('variant lenient-limits', () => {
  const run = userSandbox(['lenient-limits']);

  test('limit 0, negative or empty gets the default page of 10; abc, 1.5, 26 and 1e400 stay 400', async () => {
    const { sandbox, tokenA } = run();
    for (const [name, path] of collectionEntries) {
      for (const limit of ['0', '-1', '-25', '']) {
        const response = await api(sandbox, `${path}?limit=${limit}`, tokenA);
        expect(response.status, `limit=${limit}`).toBe(200);
        expect(response.body.records).toHaveLength(10);
        conforms(pageSchemas[name], response.body);
      }
      for (const limit of ['abc', '1.5', '26', '1e400', '-1.5']) {
        expect((await api(sandbox, `${path}?limit=${limit}`, tokenA)).status, `limit=${limit}`).toBe(400);
      }
      expect((await api(sandbox, `${path}?limit=25`, tokenA)).body.records).toHaveLength(25);
    }
  });
});

// ---------------------------------------------------------------- limit-capped
test.describe('variant limit-capped', () => {
  const run = userSandbox(['limit-capped']);

  test('an integer limit over 25, beyond int32 too, is served as 25; abc, 1.5 and 0 stay 400', async () => {
    const { sandbox, tokenA } = run();
    for (const [name, path] of collectionEntries) {
      for (const limit of ['26', '100', '2147483647', '2147483648', '9'.repeat(40)]) {
        const response = await api(sandbox, `${path}?limit=${limit}`, tokenA);
        expect(response.status, `limit=${limit}`).toBe(200);
        expect(response.body.records).toHaveLength(25);
        conforms(pageSchemas[name], response.body);
      }
      for (const limit of ['abc', '1.5', '0']) {
        expect((await api(sandbox, `${path}?limit=${limit}`, tokenA)).status, `limit=${limit}`).toBe(400);
      }
    }
  });
});

// ---------------------------------------------------------------- start-ties
test.describe('variant start-ties', () => {
  const run = userSandbox(['start-ties']);

  test('workouts share start times; pages under 10 list equal starts in the other order, the same records in start order', async () => {
    const current = run();
    const small = recordsOf(await pages(current, collections.workout, { limit: '5' }));
    const large = recordsOf(await pages(current, collections.workout, { limit: '25' }));
    const starts = (records: Rec[]) => records.map((record) => ms(record.start));
    expect(new Set(starts(large)).size, 'some workouts share a start').toBeLessThan(large.length);
    expect(starts(small)).toEqual(starts(large));
    expect(starts(large)).toEqual([...starts(large)].sort((x, y) => y - x));
    expect(new Set(small.map(idOf))).toEqual(new Set(large.map(idOf)));
    expect(small.map(idOf)).not.toEqual(large.map(idOf));
    for (const page of await pages(current, collections.workout, { limit: '25' }))
      conforms(pageSchemas.workout, page);
  });
});

// ---------------------------------------------------------------- empty-filter-absent
test.describe('variant empty-filter-absent', () => {
  const run = userSandbox(['empty-filter-absent']);

  test('an empty start or end is served as absent; malformed date-times stay 400', async () => {
    const { sandbox, tokenA } = run();
    for (const [name, path] of collectionEntries) {
      const plain = await api(sandbox, `${path}?limit=5`, tokenA);
      for (const query of ['start=', 'end=', 'start=&end=']) {
        const response = await api(sandbox, `${path}?limit=5&${query}`, tokenA);
        expect(response.status, query).toBe(200);
        expect((response.body.records as Rec[]).map(idOf), query).toEqual(
          (plain.body.records as Rec[]).map(idOf),
        );
        conforms(pageSchemas[name], response.body);
      }
      for (const query of ['start=yesterday', 'end=2025-13-45T00:00:00Z']) {
        expect((await api(sandbox, `${path}?${query}`, tokenA)).status, query).toBe(400);
      }
    }
  });
});

// ---------------------------------------------------------------- sparse-user
test.describe('variant sparse-user', () => {
  const run = userSandbox(['sparse-user']);
  const itemSchemas: Record<CollectionName, string> = {
    cycle: 'cycle',
    sleep: 'sleep',
    recovery: 'recovery',
    workout: 'workout',
  };
  const everything = async (token: string) => {
    const found = {} as Record<CollectionName, Rec[]>;
    for (const [name, path] of collectionEntries) {
      const walked = await pages(run(), path, { limit: '25' }, token);
      for (const page of walked) conforms(pageSchemas[name], page);
      found[name] = recordsOf(walked);
      for (const record of found[name]) conforms(itemSchemas[name], record);
    }
    return found;
  };

  test('user A: three cycles (the newest current), main sleeps only, no SCORED recovery, no workout, no body', async () => {
    const { sandbox, tokenA } = run();
    const { cycle, sleep, recovery, workout } = await everything(tokenA);
    expect(cycle).toHaveLength(3);
    expect(cycle.map((record) => record.end === undefined)).toEqual([true, false, false]);
    expect(cycle[1]?.end).toBe(cycle[0]?.start);
    const cycleIds = new Set(cycle.map((record) => record.id));
    expect(sleep).toHaveLength(3);
    for (const record of sleep) {
      expect(record.nap).toBe(false);
      expect(cycleIds.has(record.cycle_id)).toBe(true);
    }
    const sleepIds = new Set(sleep.map((record) => record.id));
    expect(recovery).toHaveLength(3);
    for (const record of recovery) {
      expect(['PENDING_SCORE', 'UNSCORABLE']).toContain(record.score_state);
      expect(record.score).toBeUndefined();
      expect(sleepIds.has(record.sleep_id)).toBe(true);
    }
    expect(workout).toEqual([]);
    for (const { id } of cycle) {
      const ofCycle = await api(sandbox, `/v2/cycle/${id}/sleep`, tokenA);
      expect(ofCycle.body.cycle_id).toBe(id);
      expect((await api(sandbox, `/v2/cycle/${id}/recovery`, tokenA)).body.cycle_id).toBe(id);
    }
    expect((await api(sandbox, '/v2/user/measurement/body', tokenA)).status).toBe(404);
    const profile = await api(sandbox, '/v2/user/profile/basic', tokenA);
    expect(profile.status).toBe(200);
    assertValid('user-basic-profile', profile.body);
  });

  test('user B: no data at all (empty collections without next_token, body 404); the profile stays', async () => {
    const { sandbox, tokenB } = run();
    for (const [, path] of collectionEntries) {
      expect((await api(sandbox, path, tokenB)).body).toEqual({ records: [] });
    }
    expect((await api(sandbox, '/v2/user/measurement/body', tokenB)).status).toBe(404);
    expect((await api(sandbox, '/v2/user/profile/basic', tokenB)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- few-records-user-b
test.describe('variant few-records-user-b', () => {
  const run = userSandbox(['few-records-user-b']);

  test("user B: two records of each collection, consistent and conforming; user A's history stays", async () => {
    const { sandbox, tokenB } = run();
    const found = {} as Record<CollectionName, Rec[]>;
    for (const [name, path] of collectionEntries) {
      const walked = await pages(run(), path, { limit: '25' }, tokenB);
      for (const page of walked) conforms(pageSchemas[name], page);
      found[name] = recordsOf(walked);
      expect(found[name], name).toHaveLength(2);
    }
    const { cycle, sleep, recovery } = found;
    expect(cycle.map((record) => record.end === undefined)).toEqual([true, false]);
    const cycleIds = new Set(cycle.map((record) => record.id));
    for (const record of sleep) expect(cycleIds.has(record.cycle_id)).toBe(true);
    const sleepIds = new Set(sleep.map((record) => record.id));
    for (const record of recovery) expect(sleepIds.has(record.sleep_id)).toBe(true);
    // A first page of one record leads on: the cursor checks have user B's cursor to present.
    const first = await api(sandbox, `${collections.cycle}?limit=1`, tokenB);
    expect(first.body.next_token).toBeTruthy();
    expect(recordsOf(await pages(run(), collections.cycle, { limit: '25' })).length).toBeGreaterThan(25);
  });
});
