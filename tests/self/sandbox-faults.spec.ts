// Every user-area fault changes the behaviour it names: for each fault a probe that passes against a clean
// sandbox and fails against a sandbox with only that fault (both in-process, on free ports). The probe table
// is typed by the fault catalogue, so a new fault without a probe does not compile.
import assert from 'node:assert/strict';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { SandboxOptions } from '../../sandbox/context.ts';
import { faults } from '../../sandbox/faults/index.ts';
import {
  type StatusOperationIdIn,
  statusFaultName,
  type userStatusFaults,
} from '../../sandbox/faults/status.ts';
import { userFaults } from '../../sandbox/faults/user.ts';
import { routeTable } from '../../sandbox/route-table.ts';
import { validate } from '../../src/contract/validators.ts';
import { startWebhookReceiver } from '../../src/suite/webhook-receiver.ts';
import {
  type ApiResponse,
  api,
  authorizationRedirect,
  collectAll,
  collections,
  credentials,
  login,
  start,
  TestClock,
  type UserKey,
} from './sandbox-client.ts';

type Rec = Record<string, unknown> & { score?: Record<string, unknown> };

interface Probe {
  options?: Partial<SandboxOptions>;
  check(p: ProbeContext): Promise<void>;
}

class ProbeContext {
  readonly #tokens = new Map<string, string>();
  constructor(
    readonly sandbox: RunningSandbox,
    readonly clock: TestClock,
  ) {}

  /** An access token of user A (or B) with every scope, cached. */
  async token(user: UserKey = 'A', scopes?: string[], extra?: Record<string, string>): Promise<string> {
    const key = `${user}|${scopes?.join(' ')}|${JSON.stringify(extra)}`;
    let token = this.#tokens.get(key);
    if (!token) {
      token = (
        await login(this.sandbox, { user, ...(scopes ? { scopes } : {}), ...(extra ? { extra } : {}) })
      ).access_token;
      this.#tokens.set(key, token);
    }
    return token;
  }

  async get(path: string, token?: string | null, init?: RequestInit): Promise<ApiResponse> {
    return api(this.sandbox, path, token === null ? undefined : (token ?? (await this.token())), init);
  }

  async records(path: string, query = 'limit=25'): Promise<Rec[]> {
    const response = await this.get(`${path}?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.records;
  }

  iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}

const DAY = 86_400_000;
const ms = (text: unknown) => Date.parse(String(text));

// ---------------------------------------------------------------- probe builders
const pageValid = (path: string, schema: string): Probe => ({
  async check(p) {
    for (const record of await p.records(path)) {
      const result = validate(schema, record);
      assert.ok(result.valid, `${schema}: ${JSON.stringify(result.errors).slice(0, 300)}`);
    }
  },
});

const bodyValid = (path: string, schema: string): Probe => ({
  async check(p) {
    const response = await p.get(path);
    assert.ok(validate(schema, response.body).valid);
  },
});

const scoreIffScored = (path: string): Probe => ({
  async check(p) {
    for (const record of await p.records(path)) {
      assert.equal(record.score !== undefined, record.score_state === 'SCORED', JSON.stringify(record));
    }
  },
});

const scoreAtMost = (path: string, field: string, max: number): Probe => ({
  async check(p) {
    for (const record of await p.records(path))
      if (record.score) assert.ok(Number(record.score[field]) <= max);
  },
});

const newestFirst = (path: string): Probe => ({
  async check(p) {
    const starts = (await p.records(path)).map((record) => ms(record.start));
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => b - a),
    );
  },
});

const recoveriesBySleepStart: Probe = {
  async check(p) {
    const sleeps = await collectAll(p.sandbox, collections.sleep, await p.token(), {
      start: p.iso(p.clock.ms - 30 * DAY),
    });
    const sleepStart = new Map(sleeps.map((sleep) => [sleep.id, ms(sleep.start)]));
    const keys = (await p.records(collections.recovery)).map(
      (recovery) => sleepStart.get(recovery.sleep_id) ?? 0,
    );
    assert.ok(
      keys.every((key) => key > 0),
      'the newest recoveries belong to the sleeps of the last 30 days',
    );
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => b - a),
    );
  },
};

const status = (
  path: string,
  expected: number,
  token?: (p: ProbeContext) => Promise<string | null>,
  method = 'GET',
): Probe => ({
  async check(p) {
    const response = await p.get(path, token ? await token(p) : undefined, { method });
    assert.equal(response.status, expected, `${path}: ${response.text}`);
  },
});

/** Probes a path whose ids come from the data: `path(p)` builds it. */
const statusOf = (path: (p: ProbeContext) => Promise<string>, expected: number): Probe => ({
  async check(p) {
    const url = await path(p);
    assert.equal((await p.get(url)).status, expected, url);
  },
});

const newestId = async (p: ProbeContext, path: string, index = 0, user: UserKey = 'A') => {
  const response = await p.get(`${path}?limit=25`, await p.token(user));
  return String(response.body.records[index].id);
};

const noScope = (p: ProbeContext) => p.token('A', ['offline']);

const scopeChecked = (path: string | ((p: ProbeContext) => Promise<string>)): Probe => ({
  async check(p) {
    const url = typeof path === 'string' ? path : await path(p);
    const response = await p.get(url, await noScope(p));
    assert.equal(response.status, 401, url);
    assert.match(response.headers.get('www-authenticate') ?? '', /insufficient_scope/);
  },
});

const windowQuery = (p: ProbeContext, days: number) => ({ start: p.iso(p.clock.ms - days * DAY) });

async function registerHook(p: ProbeContext, url: string): Promise<void> {
  await fetch(`${p.sandbox.authUrl}/sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner: credentials.client.clientId, url }),
  });
}

async function triggerEvent(p: ProbeContext): Promise<{ sent_to: string[] }> {
  const info = await (await fetch(`${p.sandbox.authUrl}/sandbox/info`)).json();
  const response = await fetch(`${p.sandbox.authUrl}/sandbox/users/${info.users[0].user_id}/events`, {
    method: 'POST',
  });
  return response.json();
}

/** A sleep old enough to carry a v1_id (sleeps after 2025-09-01 have none). */
const v1SleepMapping = async (p: ProbeContext) => {
  const [sleep] = await p.records(collections.sleep, 'limit=1&end=2025-08-20T00:00:00Z');
  return `/v1/activity-mapping/${sleep?.v1_id}`;
};

/** The ids of a collection's records from a walk over the last 10 days with pages of `limit`. */
const walk = async (p: ProbeContext, path: string, limit: number) =>
  (await collectAll(p.sandbox, path, await p.token(), { ...windowQuery(p, 10), limit: String(limit) })).map(
    (record) => record.id ?? record.cycle_id,
  );

// ---------------------------------------------------------------- success statuses (faults/status.ts)
/** Per operation of the status-fault table, the path of a request that succeeds. */
const successPaths: Record<
  StatusOperationIdIn<'user-data' | 'utility'>,
  (p: ProbeContext) => Promise<string>
> = {
  getCycleById: async (p) => `/v2/cycle/${await newestId(p, collections.cycle)}`,
  listCycles: async () => collections.cycle,
  getSleepForCycle: async (p) => `/v2/cycle/${await newestId(p, collections.cycle, 1)}/sleep`,
  getRecoveryForCycle: async (p) => `/v2/cycle/${await newestId(p, collections.cycle, 1)}/recovery`,
  listRecoveries: async () => collections.recovery,
  getSleepById: async (p) => `/v2/activity/sleep/${await newestId(p, collections.sleep)}`,
  listSleeps: async () => collections.sleep,
  getWorkoutById: async (p) => `/v2/activity/workout/${await newestId(p, collections.workout)}`,
  listWorkouts: async () => collections.workout,
  getBodyMeasurement: async () => '/v2/user/measurement/body',
  getBasicProfile: async () => '/v2/user/profile/basic',
  getActivityMapping: v1SleepMapping,
};

const statusProbes = Object.fromEntries(
  (Object.entries(successPaths) as [keyof typeof successPaths, (p: ProbeContext) => Promise<string>][]).map(
    ([operationId, path]) => [statusFaultName(operationId), statusOf(path, routeTable[operationId].success)],
  ),
) as Record<keyof typeof userStatusFaults, Probe>;

// ---------------------------------------------------------------- the probes, one per fault
const probes: Record<keyof typeof userFaults, Probe> = {
  'cycle-timezone-offset-malformed': pageValid(collections.cycle, 'cycle'),
  'cycle-missing-user-id': pageValid(collections.cycle, 'cycle'),
  'cycle-score-missing-kilojoule': pageValid(collections.cycle, 'cycle'),
  'sleep-nap-not-boolean': pageValid(collections.sleep, 'sleep'),
  'sleep-stage-summary-missing-field': pageValid(collections.sleep, 'sleep'),
  'sleep-stage-int32-overflow': {
    async check(p) {
      for (const sleep of await p.records(collections.sleep)) {
        const stages = sleep.score?.stage_summary as Record<string, number> | undefined;
        for (const value of Object.values(stages ?? {})) assert.ok(value <= 2 ** 31 - 1);
      }
    },
  },
  'recovery-missing-user-id': pageValid(collections.recovery, 'recovery'),
  'recovery-score-missing-hrv': pageValid(collections.recovery, 'recovery'),
  'workout-sport-id-string': pageValid(collections.workout, 'workout'),
  'workout-created-at-malformed': pageValid(collections.workout, 'workout'),
  'body-measurement-missing-max-heart-rate': bodyValid('/v2/user/measurement/body', 'user-body-measurement'),
  'profile-user-id-string': bodyValid('/v2/user/profile/basic', 'user-basic-profile'),
  'envelope-records-renamed': bodyValid(`${collections.cycle}?limit=3`, 'paginated-cycle-response'),
  'score-state-unknown-value': pageValid(collections.cycle, 'cycle'),
  'profile-not-json': {
    async check(p) {
      assert.match(
        (await p.get('/v2/user/profile/basic')).headers.get('content-type') ?? '',
        /^application\/json/,
      );
    },
  },
  'sleep-id-v1-integer': pageValid(collections.sleep, 'sleep'),
  'recovery-sleep-id-integer': pageValid(collections.recovery, 'recovery'),
  'workout-zone-duration-singular': {
    async check(p) {
      for (const workout of await p.records(collections.workout)) {
        if (workout.score) assert.equal(typeof workout.score.zone_durations, 'object');
      }
    },
  },
  'sleep-v1-id-after-cutoff': {
    async check(p) {
      for (const sleep of await p.records(collections.sleep)) assert.equal(sleep.v1_id, undefined);
    },
  },
  'cycle-score-when-pending': scoreIffScored(collections.cycle),
  'sleep-score-missing-when-scored': scoreIffScored(collections.sleep),
  'recovery-score-when-unscorable': scoreIffScored(collections.recovery),
  'cycle-strain-over-21': scoreAtMost(collections.cycle, 'strain', 21),
  'recovery-score-over-100': scoreAtMost(collections.recovery, 'recovery_score', 100),
  'sleep-nap-need-positive': {
    async check(p) {
      for (const sleep of await p.records(collections.sleep)) {
        const need = sleep.score?.sleep_needed as Record<string, number> | undefined;
        if (need)
          assert.ok(need.need_from_recent_nap_milli !== undefined && need.need_from_recent_nap_milli <= 0);
      }
    },
  },
  'old-cycle-missing-end': {
    async check(p) {
      const [, ...older] = await p.records(collections.cycle);
      for (const cycle of older) assert.ok(cycle.end !== undefined);
    },
  },
  'cycle-sleep-wrong-cycle': {
    async check(p) {
      const id = await newestId(p, collections.cycle, 1);
      assert.equal(String((await p.get(`/v2/cycle/${id}/sleep`)).body.cycle_id), id);
    },
  },
  'cycle-recovery-wrong-cycle': {
    async check(p) {
      const id = await newestId(p, collections.cycle, 1);
      assert.equal(String((await p.get(`/v2/cycle/${id}/recovery`)).body.cycle_id), id);
    },
  },
  'single-cycle-differs': {
    async check(p) {
      const [cycle] = await p.records(collections.cycle, 'limit=1');
      assert.deepEqual((await p.get(`/v2/cycle/${cycle?.id}`)).body, cycle);
    },
  },
  'recovery-sleep-id-dangling': {
    async check(p) {
      for (const recovery of (await p.records(collections.recovery)).slice(0, 5)) {
        assert.equal((await p.get(`/v2/activity/sleep/${recovery.sleep_id}`)).status, 200);
      }
    },
  },
  'sleep-cycle-id-dangling': {
    async check(p) {
      for (const sleep of await p.records(collections.sleep)) {
        assert.equal((await p.get(`/v2/cycle/${sleep.cycle_id}`)).status, 200);
      }
    },
  },
  'foreign-records-visible': statusOf(
    async (p) => `/v2/cycle/${await newestId(p, collections.cycle, 1, 'B')}`,
    404,
  ),
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
  'malformed-id-404': status('/v2/cycle/abc', 400),
  'unknown-cycle-returns-newest': status('/v2/cycle/1', 404),
  'cycle-subresource-unknown-200': status('/v2/cycle/1/recovery', 404),
  'server-error-on-large-cycle-id': status('/v2/cycle/9223372036854775807', 404),
  'rate-limit-never-429': {
    options: { rateLimit: { limit: 2, windowSeconds: 60 } },
    async check(p) {
      // Machine-speed independent: once X-RateLimit-Remaining says 0, the next request must get 429.
      const token = await p.token();
      const seen = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await p.get('/v2/user/profile/basic', token);
        seen.push(`${response.status}/${response.headers.get('x-ratelimit-remaining')}`);
      }
      assert.deepEqual(seen, ['200/1', '200/0', '429/0']);
    },
  },
  'rate-limit-429-without-headers': {
    options: { rateLimit: { limit: 1, windowSeconds: 60 } },
    async check(p) {
      const token = await p.token();
      await p.get('/v2/user/profile/basic', token);
      const limited = await p.get('/v2/user/profile/basic', token);
      assert.equal(limited.status, 429);
      assert.ok(limited.headers.get('retry-after'));
      assert.ok(limited.headers.get('x-ratelimit-reset'));
    },
  },
  'oauth-state-not-returned': {
    async check(p) {
      const state = 'probe-state-0123456789';
      const location = await authorizationRedirect(p.sandbox, { state });
      assert.equal(new URL(location).searchParams.get('state'), state, location);
    },
  },
  'auth-missing-token-accepted': status(collections.cycle, 401, async () => null),
  'auth-invalid-token-accepted': status(collections.cycle, 401, async () => 'sbx_at_never_issued'),
  'auth-expired-token-accepted': status(collections.cycle, 401, (p) =>
    p.token('A', undefined, { sandbox_expires_in: '0' }),
  ),
  'scope-unchecked-get-cycle': scopeChecked(async (p) => `/v2/cycle/${await newestId(p, collections.cycle)}`),
  'scope-unchecked-list-cycles': scopeChecked(collections.cycle),
  'scope-unchecked-get-cycle-recovery': scopeChecked(
    async (p) => `/v2/cycle/${await newestId(p, collections.cycle)}/recovery`,
  ),
  'scope-unchecked-list-recoveries': scopeChecked(collections.recovery),
  'scope-unchecked-get-sleep': scopeChecked(
    async (p) => `/v2/activity/sleep/${await newestId(p, collections.sleep)}`,
  ),
  'scope-unchecked-list-sleeps': scopeChecked(collections.sleep),
  'scope-unchecked-get-workout': scopeChecked(
    async (p) => `/v2/activity/workout/${await newestId(p, collections.workout)}`,
  ),
  'scope-unchecked-list-workouts': scopeChecked(collections.workout),
  'scope-unchecked-body-measurement': scopeChecked('/v2/user/measurement/body'),
  'scope-unchecked-profile': scopeChecked('/v2/user/profile/basic'),
  'scope-required-for-revoke': status('/v2/user/access', 204, (p) => p.token('A', ['read:cycles']), 'DELETE'),
  'revoke-tokens-still-valid': {
    async check(p) {
      const token = await p.token();
      await p.get('/v2/user/access', token, { method: 'DELETE' });
      assert.equal((await p.get(collections.cycle, token)).status, 401);
    },
  },
  'revoke-answers-200-with-body': {
    async check(p) {
      const response = await p.get('/v2/user/access', undefined, { method: 'DELETE' });
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
    },
  },
  'revoke-webhooks-continue': {
    async check(p) {
      await registerHook(p, 'http://127.0.0.1:1/unreachable');
      await p.get('/v2/user/access', undefined, { method: 'DELETE' });
      assert.deepEqual((await triggerEvent(p)).sent_to, []);
    },
  },
  'webhook-signature-missing': {
    async check(p) {
      const receiver = await startWebhookReceiver();
      try {
        await registerHook(p, receiver.url);
        await p.token();
        await triggerEvent(p);
        const [delivery] = await receiver.waitFor(() => true, 1000);
        assert.ok(delivery, 'no user-data webhook arrived');
        assert.ok(
          delivery.headers['service-signed'] !== undefined,
          'the user-data webhook carries no Service-Signed header',
        );
      } finally {
        await receiver.close();
      }
    },
  },
  'activity-mapping-wrong-id': {
    async check(p) {
      const sleeps = await p.records(collections.sleep, 'limit=5&end=2025-08-20T00:00:00Z');
      for (const sleep of sleeps) {
        assert.equal((await p.get(`/v1/activity-mapping/${sleep.v1_id}`)).body.v2_activity_id, sleep.id);
      }
    },
  },
  'activity-mapping-unknown-200': status('/v1/activity-mapping/1', 404),
  'activity-mapping-id-not-uuid': {
    async check(p) {
      const mapping = await p.get(await v1SleepMapping(p));
      assert.ok(validate('activity-id-mapping-response', mapping.body).valid);
    },
  },
  'activity-mapping-under-v2': statusOf(v1SleepMapping, 200),
  ...statusProbes,
};

async function runProbe(probe: Probe, faultList: (keyof typeof userFaults)[]): Promise<void> {
  const clock = new TestClock();
  const sandbox = await start({ now: clock.now, ...probe.options, faults: faultList });
  try {
    await probe.check(new ProbeContext(sandbox, clock));
  } finally {
    await sandbox.close();
  }
}

test('every user-area fault names a requirement of specs/requirements.yaml and there are at least 30', async () => {
  const { requirementById } = await import('../../src/contract/requirements.ts');
  expect(Object.keys(userFaults).length).toBeGreaterThanOrEqual(30);
  for (const [name, fault] of Object.entries(userFaults)) {
    expect(requirementById(fault.requirement), `${name} → ${fault.requirement}`).toBeDefined();
    expect(faults[name as keyof typeof faults]).toBe(fault);
  }
});

for (const [name, probe] of Object.entries(probes) as [keyof typeof userFaults, Probe][]) {
  test(`fault ${name} breaks ${userFaults[name].requirement}`, async () => {
    await runProbe(probe, []);
    const faulty = await runProbe(probe, [name]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(faulty, `the probe still passes with ${name}`).toBeInstanceOf(Error);
  });
}
