// The machinery of the user-area fault probes (sandbox-fault-probes-*.ts, run by sandbox-faults.spec.ts): a
// probe passes against a clean sandbox and fails against a sandbox running only its fault; the context
// gives it tokens and requests, and the builders cover the common kinds of probe.
import assert from 'node:assert/strict';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { userFaults } from '../../sandbox/faults/user.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { validate } from '../../src/contract/validators.ts';
import {
  type ApiResponse,
  api,
  collectAll,
  collections,
  login,
  start,
  TestClock,
  type UserKey,
} from './sandbox-client.ts';

export type UserFault = keyof typeof userFaults;
/** The probes of some user-area faults, each under its fault's name. */
export type Probes = Partial<Record<UserFault, Probe>>;

type Rec = Record<string, unknown> & { score?: Record<string, unknown> };

export interface Probe {
  options?: SandboxInput;
  check(p: ProbeContext): Promise<void>;
}

export class ProbeContext {
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

export const DAY = 86_400_000;
export const ms = (text: unknown) => Date.parse(String(text));

// ---------------------------------------------------------------- probe builders
export const pageValid = (path: string, schema: string): Probe => ({
  async check(p) {
    for (const record of await p.records(path)) {
      const result = validate(schema, record);
      assert.ok(result.valid, `${schema}: ${JSON.stringify(result.errors).slice(0, 300)}`);
    }
  },
});

export const bodyValid = (path: string, schema: string): Probe => ({
  async check(p) {
    const response = await p.get(path);
    assert.ok(validate(schema, response.body).valid);
  },
});

export const scoreIffScored = (path: string): Probe => ({
  async check(p) {
    for (const record of await p.records(path)) {
      assert.equal(record.score !== undefined, record.score_state === 'SCORED', JSON.stringify(record));
    }
  },
});

export const scoreAtMost = (path: string, field: string, max: number): Probe => ({
  async check(p) {
    for (const record of await p.records(path))
      if (record.score) assert.ok(Number(record.score[field]) <= max);
  },
});

export const newestFirst = (path: string): Probe => ({
  async check(p) {
    const starts = (await p.records(path)).map((record) => ms(record.start));
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => b - a),
    );
  },
});

export const recoveriesBySleepStart: Probe = {
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

export const status = (
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
export const statusOf = (path: (p: ProbeContext) => Promise<string>, expected: number): Probe => ({
  async check(p) {
    const url = await path(p);
    assert.equal((await p.get(url)).status, expected, url);
  },
});

export const newestId = async (p: ProbeContext, path: string, index = 0, user: UserKey = 'A') => {
  const response = await p.get(`${path}?limit=25`, await p.token(user));
  return String(response.body.records[index].id);
};

const noScope = (p: ProbeContext) => p.token('A', ['offline']);

export const scopeChecked = (path: string | ((p: ProbeContext) => Promise<string>)): Probe => ({
  async check(p) {
    const url = typeof path === 'string' ? path : await path(p);
    const response = await p.get(url, await noScope(p));
    assert.equal(response.status, 401, url);
    assert.match(response.headers.get('www-authenticate') ?? '', /insufficient_scope/);
  },
});

export const windowQuery = (p: ProbeContext, days: number) => ({ start: p.iso(p.clock.ms - days * DAY) });
/** A sleep old enough to carry a v1_id (sleeps after 2025-09-01 have none). */
export const v1SleepMapping = async (p: ProbeContext) => {
  const [sleep] = await p.records(collections.sleep, 'limit=1&end=2025-08-20T00:00:00Z');
  return `/v1/activity-mapping/${sleep?.v1_id}`;
};

/** The ids of a collection's records from a walk over the last 10 days with pages of `limit`. */
export const walk = async (p: ProbeContext, path: string, limit: number) =>
  (await collectAll(p.sandbox, path, await p.token(), { ...windowQuery(p, 10), limit: String(limit) })).map(
    (record) => record.id ?? record.cycle_id,
  );

export async function runProbe(probe: Probe, faultList: UserFault[]): Promise<void> {
  const clock = new TestClock();
  const sandbox = await start({ now: clock.now, ...probe.options, faults: faultList });
  try {
    await probe.check(new ProbeContext(sandbox, clock));
  } finally {
    await sandbox.close();
  }
}
