// The sandbox's generated data: schemas (every record of every page, both users), invariants, ordering,
// versioning, cross-resource consistency, single reads, 400/404 answers and determinism.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { V1_ID_CUTOFF } from '../../sandbox/user/generator.ts';
import { assertValid } from '../../src/contract/validators.ts';
import {
  api,
  collectAll,
  collections,
  login,
  start,
  TestClock,
  type Tokens,
  type UserKey,
} from './sandbox-client.ts';

type Rec = Record<string, unknown> & {
  id?: unknown;
  start?: string;
  end?: string;
  score?: Record<string, unknown>;
};

let sandbox: RunningSandbox;
const clock = new TestClock();
const tokens = {} as Record<UserKey, Tokens>;
const data = {} as Record<UserKey, Record<keyof typeof collections, Rec[]>>;

test.beforeAll(async () => {
  sandbox = await start({ now: clock.now, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  for (const user of ['A', 'B'] as const) {
    tokens[user] = await login(sandbox, { user });
    const entries = await Promise.all(
      Object.entries(collections).map(async ([name, path]) => [
        name,
        await collectAll(sandbox, path, tokens[user].access_token),
      ]),
    );
    data[user] = Object.fromEntries(entries);
  }
});
test.afterAll(async () => sandbox.close());

const envelopes = {
  cycle: 'paginated-cycle-response',
  recovery: 'recovery-collection',
  sleep: 'paginated-sleep-response',
  workout: 'workout-collection',
} as const;
const items = { cycle: 'cycle', recovery: 'recovery', sleep: 'sleep', workout: 'workout' } as const;
const ms = (text: unknown) => Date.parse(String(text));
const DAY = 86_400_000;

test('every page of every collection and every record validates against schemas/, for both users', async () => {
  for (const user of ['A', 'B'] as const) {
    for (const [name, path] of Object.entries(collections) as [keyof typeof collections, string][]) {
      let nextToken: string | undefined;
      do {
        const query = new URLSearchParams({ limit: '25', ...(nextToken ? { nextToken } : {}) });
        const page = await api(sandbox, `${path}?${query}`, tokens[user].access_token);
        assertValid(envelopes[name], page.body, `${user} ${path}`);
        for (const record of page.body.records) assertValid(items[name], record, `${user} ${path}`);
        nextToken = page.body.next_token;
      } while (nextToken);
    }
    const body = await api(sandbox, '/v2/user/measurement/body', tokens[user].access_token);
    assertValid('user-body-measurement', body.body);
    const profile = await api(sandbox, '/v2/user/profile/basic', tokens[user].access_token);
    assertValid('user-basic-profile', profile.body);
  }
});

test('at least 120 days of history up to now, one cycle per day, only the newest cycle open', () => {
  for (const user of ['A', 'B'] as const) {
    const cycles = data[user].cycle;
    expect(cycles.length).toBeGreaterThanOrEqual(120);
    const [newest, ...older] = cycles;
    expect(newest?.end).toBeUndefined();
    expect(ms(newest?.start)).toBeLessThanOrEqual(clock.ms);
    expect(ms(newest?.start)).toBeGreaterThan(clock.ms - DAY);
    // One assertion over each list of records: a Playwright expect per record makes these walks slow.
    expect(older.filter((cycle) => cycle.end === undefined)).toEqual([]);
    expect(ms(cycles.at(-1)?.start)).toBeLessThan(clock.ms - 120 * DAY);
    // contiguous days, ids increasing with start
    const breaks = cycles.filter(
      (cycle, i) =>
        i > 0 && (cycle.end !== cycles[i - 1]?.start || Number(cycle.id) >= Number(cycles[i - 1]?.id)),
    );
    expect(breaks).toEqual([]);
  }
});

test('all three score states occur; score is present exactly when SCORED', () => {
  for (const user of ['A', 'B'] as const) {
    for (const name of ['cycle', 'sleep', 'recovery', 'workout'] as const) {
      const states = new Set(data[user][name].map((record) => record.score_state));
      expect([...states].sort(), `${user} ${name}`).toEqual(['PENDING_SCORE', 'SCORED', 'UNSCORABLE']);
      const mismatched = data[user][name].filter(
        (record) => (record.score !== undefined) !== (record.score_state === 'SCORED'),
      );
      expect(mismatched, `${user} ${name}`).toEqual([]);
      const scored = data[user][name].filter((record) => record.score_state === 'SCORED').length;
      expect(scored / data[user][name].length).toBeGreaterThan(0.85);
    }
  }
});

test('scores are within their ranges and stage summaries are consistent', () => {
  const problems: string[] = [];
  const check = (ok: boolean, what: string, record: Rec) => {
    if (!ok) problems.push(`${what}: ${JSON.stringify(record).slice(0, 160)}`);
  };
  const percent = (value: unknown) => value === undefined || (Number(value) >= 0 && Number(value) <= 100);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  for (const user of ['A', 'B'] as const) {
    for (const cycle of data[user].cycle)
      if (cycle.score) check(Number(cycle.score.strain) <= 21, 'cycle strain', cycle);
    for (const workout of data[user].workout) {
      if (!workout.score) continue;
      check(Number(workout.score.strain) <= 21, 'workout strain', workout);
      check(percent(workout.score.percent_recorded), 'percent_recorded', workout);
      const zones = sum(Object.values(workout.score.zone_durations as Record<string, number>));
      check(zones === ms(workout.end) - ms(workout.start), 'zone durations', workout);
    }
    for (const sleep of data[user].sleep) {
      if (!sleep.score) continue;
      const { stage_summary: stages = {}, sleep_needed: need = {} } = sleep.score as Record<
        string,
        Record<string, number>
      >;
      check(Number(need.need_from_recent_nap_milli) <= 0, 'nap need', sleep);
      for (const key of [
        'sleep_performance_percentage',
        'sleep_consistency_percentage',
        'sleep_efficiency_percentage',
      ]) {
        check(percent(sleep.score[key]), key, sleep);
      }
      const parts = ['awake', 'no_data', 'light_sleep', 'slow_wave_sleep', 'rem_sleep'].map(
        (part) => stages[`total_${part}_time_milli`] ?? 0,
      );
      check(sum(parts) === stages.total_in_bed_time_milli, 'stage sum', sleep);
      check(stages.total_in_bed_time_milli === ms(sleep.end) - ms(sleep.start), 'time in bed', sleep);
    }
    for (const recovery of data[user].recovery) {
      if (recovery.score) check(percent(recovery.score.recovery_score), 'recovery_score', recovery);
    }
  }
  expect(problems).toEqual([]);
  // device generation 4 (user A) carries spo2/skin temperature, user B does not
  expect(data.A.recovery.some((r) => r.score?.spo2_percentage !== undefined)).toBe(true);
  expect(data.B.recovery.some((r) => r.score?.spo2_percentage !== undefined)).toBe(false);
});

test('collections are newest first; recoveries by the start of their sleep', () => {
  for (const user of ['A', 'B'] as const) {
    for (const name of ['cycle', 'sleep', 'workout'] as const) {
      const starts = data[user][name].map((record) => ms(record.start));
      expect(starts).toEqual([...starts].sort((a, b) => b - a));
    }
    const sleepStart = new Map(data[user].sleep.map((sleep) => [sleep.id, ms(sleep.start)]));
    const keys = data[user].recovery.map((recovery) => sleepStart.get(recovery.sleep_id) ?? Number.NaN);
    expect(keys.every((key) => !Number.isNaN(key))).toBe(true);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    // updated_at order differs from sleep order somewhere (so ordering by updated_at would be visible)
    const updated = data[user].recovery.map((recovery) => ms(recovery.updated_at));
    expect(updated).not.toEqual([...updated].sort((a, b) => b - a));
  }
});

test('v1_id on sleeps and workouts before 2025-09-01 only; each maps to its record; foreign and unknown ids 404', async () => {
  const token = tokens.A.access_token;
  const activities = [...data.A.sleep, ...data.A.workout];
  const withV1 = activities.filter((record) => record.v1_id !== undefined);
  expect(withV1.length).toBeGreaterThan(20);
  expect(
    activities.filter((record) => (record.v1_id !== undefined) !== ms(record.start) < V1_ID_CUTOFF),
  ).toEqual([]);
  for (const record of withV1.slice(0, 30)) {
    const mapping = await api(sandbox, `/v1/activity-mapping/${record.v1_id}`, token);
    expect(mapping.status).toBe(200);
    assertValid('activity-id-mapping-response', mapping.body);
    expect(mapping.body.v2_activity_id).toBe(record.id);
  }
  expect(data.A.sleep.some((sleep) => sleep.nap)).toBe(true);
  const foreign = data.B.sleep.find((sleep) => sleep.v1_id !== undefined);
  expect((await api(sandbox, `/v1/activity-mapping/${foreign?.v1_id}`, token)).status).toBe(404);
  expect((await api(sandbox, '/v1/activity-mapping/1', token)).status).toBe(404);
  expect((await api(sandbox, '/v1/activity-mapping/abc', token)).status).toBe(400);
});

test('cycle sub-resources: the main sleep and the recovery of that cycle', async () => {
  const token = tokens.A.access_token;
  const sleepIds = new Set(data.A.sleep.map((sleep) => sleep.id));
  for (const cycle of data.A.cycle.slice(0, 12)) {
    const sleep = await api(sandbox, `/v2/cycle/${cycle.id}/sleep`, token);
    expect(sleep.status).toBe(200);
    expect(sleep.body).toMatchObject({ cycle_id: cycle.id, nap: false, start: cycle.start });
    const recovery = await api(sandbox, `/v2/cycle/${cycle.id}/recovery`, token);
    expect(recovery.status).toBe(200);
    expect(recovery.body).toMatchObject({ cycle_id: cycle.id, sleep_id: sleep.body.id });
  }
  const cycleIds = new Set(data.A.cycle.map((cycle) => cycle.id));
  expect(
    data.A.recovery.filter(
      (recovery) => !cycleIds.has(recovery.cycle_id) || !sleepIds.has(recovery.sleep_id),
    ),
  ).toEqual([]);
  expect(data.A.sleep.filter((sleep) => !cycleIds.has(sleep.cycle_id))).toEqual([]);
});

test('single reads return the same record as the collection', async () => {
  const token = tokens.A.access_token;
  const cases = [
    ['/v2/cycle/', data.A.cycle],
    ['/v2/activity/sleep/', data.A.sleep],
    ['/v2/activity/workout/', data.A.workout],
  ] as const;
  for (const [path, records] of cases) {
    for (const record of records.slice(0, 8)) {
      const single = await api(sandbox, `${path}${record.id}`, token);
      expect(single.status).toBe(200);
      expect(single.body).toEqual(record);
    }
  }
  const upper = await api(sandbox, `/v2/activity/sleep/${String(data.A.sleep[0]?.id).toUpperCase()}`, token);
  expect(upper.body).toEqual(data.A.sleep[0]);
});

test("another user's ids are 404; unknown ids 404; malformed ids 400", async () => {
  const token = tokens.A.access_token;
  const b = data.B;
  const foreign = [
    `/v2/cycle/${b.cycle[1]?.id}`,
    `/v2/cycle/${b.cycle[1]?.id}/sleep`,
    `/v2/cycle/${b.cycle[1]?.id}/recovery`,
    `/v2/activity/sleep/${b.sleep[1]?.id}`,
    `/v2/activity/workout/${b.workout[1]?.id}`,
  ];
  const unknown = [
    '/v2/cycle/1',
    '/v2/cycle/-5',
    '/v2/cycle/9223372036854775807',
    '/v2/cycle/1/sleep',
    '/v2/cycle/1/recovery',
    '/v2/activity/sleep/00000000-0000-4000-8000-000000000000',
    '/v2/activity/workout/00000000-0000-4000-8000-000000000000',
  ];
  const malformed = [
    '/v2/cycle/abc',
    '/v2/cycle/1.5',
    '/v2/cycle/9223372036854775808',
    '/v2/cycle/99999999999999999999',
    '/v2/cycle/abc/sleep',
    '/v2/cycle/abc/recovery',
    '/v2/activity/sleep/123',
    '/v2/activity/sleep/not-a-uuid',
    '/v2/activity/workout/123',
  ];
  for (const path of foreign) expect((await api(sandbox, path, token)).status, path).toBe(404);
  for (const path of unknown) expect((await api(sandbox, path, token)).status, path).toBe(404);
  for (const path of malformed) {
    const response = await api(sandbox, path, token);
    expect(response.status, path).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request' });
  }
});

test('body measurement and basic profile of the token user', async () => {
  const profile = await api(sandbox, '/v2/user/profile/basic', tokens.B.access_token);
  expect(profile.body).toMatchObject({ user_id: data.B.cycle[0]?.user_id, email: 'ben@sandbox.test' });
  expect(profile.headers.get('content-type')).toContain('application/json');
  const body = await api(sandbox, '/v2/user/measurement/body', tokens.A.access_token);
  expect(Object.keys(body.body).sort()).toEqual(['height_meter', 'max_heart_rate', 'weight_kilogram']);
});

test('data is deterministic for a seed and a clock, and differs with the seed', async () => {
  const fetchFirst = async (seed: number) => {
    const other = await start({ now: clock.now, seed });
    try {
      const token = await login(other);
      return (await api(other, '/v2/activity/sleep?limit=25', token.access_token)).body.records;
    } finally {
      await other.close();
    }
  };
  const [again, differentSeed] = [await fetchFirst(1), await fetchFirst(2)];
  const first = (await api(sandbox, '/v2/activity/sleep?limit=25', tokens.A.access_token)).body.records;
  expect(again).toEqual(first);
  expect(differentSeed).not.toEqual(first);
});
