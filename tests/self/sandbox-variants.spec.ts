// Every conforming variant (sandbox/variants.ts) changes what it says, and every response still conforms:
// per variant, real HTTP against an in-process sandbox running it, with schema validation of the bodies
// (for nulls-for-absent after reading null as absent, the only way the seed's schemas can apply).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { SLOW_VARIANT_DELAY_MS } from '../../sandbox/user/collection.ts';
import { type VariantName, variants } from '../../sandbox/variants.ts';
import { assertValid } from '../../src/contract/validators.ts';
import {
  api,
  authorizationCode,
  collectAll,
  collections,
  credentials,
  login,
  redirectUriFor,
  start,
  TestClock,
  tokenRequest,
} from './sandbox-client.ts';
import {
  type PartnerSandbox,
  partnerA,
  partnerB,
  paths,
  startPartnerSandbox,
  validTokenRequest,
} from './sandbox-partner-support.ts';

type Rec = Record<string, unknown>;
type CollectionName = keyof typeof collections;
const DAY = 86_400_000;
const ms = (text: unknown): number => Date.parse(String(text));
const iso = (value: number): string => new Date(value).toISOString();
const idOf = (record: Rec): string => String(record.id ?? record.cycle_id);
const collectionEntries = Object.entries(collections) as [CollectionName, string][];

const pageSchemas: Record<CollectionName, string> = {
  cycle: 'paginated-cycle-response',
  sleep: 'paginated-sleep-response',
  recovery: 'recovery-collection',
  workout: 'workout-collection',
};

/** The value with every null member removed: what a reader treating null as absent sees. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([name, member]) => [name, withoutNulls(member)]),
  );
}

const conforms = (schema: string, body: unknown): void => assertValid(schema, withoutNulls(body));

interface UserRun {
  sandbox: RunningSandbox;
  clock: TestClock;
  tokenA: string;
  tokenB: string;
}

/** A sandbox running `names` (and `faults`) for the tests of one describe block, with tokens of A and B. */
function userSandbox(names: VariantName[], faults: string[] = []): () => UserRun {
  let run: UserRun | undefined;
  test.beforeAll(async () => {
    const clock = new TestClock();
    const sandbox = await start({
      now: clock.now,
      variants: names,
      faults,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    });
    // HTTP Basic client authentication works with every variant (basic-client-auth demands it).
    const [a, b] = await Promise.all([
      login(sandbox, { basic: true }),
      login(sandbox, { user: 'B', basic: true }),
    ]);
    run = { sandbox, clock, tokenA: a.access_token, tokenB: b.access_token };
  });
  test.afterAll(async () => run?.sandbox.close());
  return () => {
    if (!run) throw new Error('sandbox not started');
    return run;
  };
}

/** A partner sandbox running `names` for the tests of one describe block. */
function partnerSandbox(names: VariantName[]): () => PartnerSandbox {
  let sandbox: PartnerSandbox | undefined;
  test.beforeAll(async () => {
    sandbox = await startPartnerSandbox({ variants: new Set(names) });
  });
  test.afterAll(async () => sandbox?.close());
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

/** Every page of a collection walk (following next_token), each checked for status 200. */
async function pages(run: UserRun, path: string, query: Record<string, string>, token = run.tokenA) {
  const walked: Rec[] = [];
  let nextToken: string | undefined;
  for (let count = 0; count < 200; count += 1) {
    const params = new URLSearchParams({ ...query, ...(nextToken ? { nextToken } : {}) });
    const response = await api(run.sandbox, `${path}?${params}`, token);
    expect(response.status, `${path}?${params}: ${response.text}`).toBe(200);
    walked.push(response.body);
    nextToken = response.body.next_token ?? undefined;
    if (!nextToken) return walked;
  }
  throw new Error('too many pages');
}

const recordsOf = (walked: Rec[]): Rec[] => walked.flatMap((page) => page.records as Rec[]);

// ---------------------------------------------------------------- the catalogue and its wiring
test.describe('variant catalogue', () => {
  test('every variant says what it changes and quotes the seed text that allows it', () => {
    expect(Object.keys(variants).length).toBe(13);
    for (const [name, variant] of Object.entries(variants)) {
      expect(variant.description.length, name).toBeGreaterThan(20);
      expect(variant.seed, name).toMatch(/"[^"]{10,}"/);
    }
  });

  test('unknown names throw listing the valid ones; faults and variants combine; /sandbox/info lists both', async () => {
    await expect(start({ variants: ['no-such-variant'] })).rejects.toThrow(
      /Unknown variant\(s\): no-such-variant[\s\S]*offset-cursor/,
    );
    const sandbox = await start({
      variants: ['lenient-limits', 'offset-cursor'],
      faults: ['cycle-order-ascending'],
    });
    try {
      const info = await (await fetch(`${sandbox.authUrl}/sandbox/info`)).json();
      expect(info).toMatchObject({
        variants: ['lenient-limits', 'offset-cursor'],
        faults: ['cycle-order-ascending'],
      });
      const { access_token } = await login(sandbox);
      const page = await api(sandbox, `${collections.cycle}?limit=0`, access_token);
      expect(page.status).toBe(200);
      const starts = (page.body.records as Rec[]).map((cycle) => ms(cycle.start));
      expect(starts).toEqual([...starts].sort((x, y) => x - y));
    } finally {
      await sandbox.close();
    }
  });

  test('--list-variants prints each variant with its seed text; an unknown variant exits 2', async () => {
    const run = promisify(execFile);
    const cli = ['--import', 'tsx', 'sandbox/cli.ts'];
    const { stdout } = await run(process.execPath, [...cli, '--list-variants']);
    for (const [name, variant] of Object.entries(variants)) {
      expect(stdout).toMatch(new RegExp(`^${name}$`, 'm'));
      expect(stdout).toContain(variant.seed);
    }
    const failure = await run(process.execPath, [...cli, '--variants', 'sparse-user,nope']).catch(
      (error) => error,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Unknown variant(s): nope');
  });
});

// ---------------------------------------------------------------- nulls-for-absent
test.describe('variant nulls-for-absent', () => {
  const run = userSandbox(['nulls-for-absent']);

  test('collections: every absent optional field is null, required ones never; all conforms', async () => {
    for (const [name, path] of collectionEntries) {
      for (const token of [run().tokenA, run().tokenB]) {
        const walked = await pages(run(), path, { limit: '25' }, token);
        walked.forEach((page, index) => {
          conforms(pageSchemas[name], page);
          expect(page).toHaveProperty('next_token');
          expect(page.next_token === null, `${path} page ${index}`).toBe(index === walked.length - 1);
        });
        for (const record of recordsOf(walked)) {
          expect(record).toHaveProperty('score');
          expect(record.score === null, JSON.stringify(record)).toBe(record.score_state !== 'SCORED');
          if (name !== 'recovery' && name !== 'cycle') expect(record).toHaveProperty('v1_id');
        }
      }
    }
  });

  test('the current cycle has end null; recent sleeps and workouts v1_id null; absent score fields null', async () => {
    const { sandbox, tokenA, tokenB } = run();
    const [current] = (await api(sandbox, `${collections.cycle}?limit=1`, tokenA)).body.records;
    expect(current.end).toBeNull();
    const single = await api(sandbox, `/v2/cycle/${current.id}`, tokenA);
    expect(single.body).toEqual(current);
    conforms('cycle', single.body);
    const [sleep] = (await api(sandbox, `${collections.sleep}?limit=1`, tokenA)).body.records;
    expect(sleep.v1_id).toBeNull();
    const [workout] = (await api(sandbox, `${collections.workout}?limit=1`, tokenA)).body.records;
    expect(workout.v1_id).toBeNull();
    const oldSleeps = await collectAll(sandbox, collections.sleep, tokenA, { end: '2025-08-20T00:00:00Z' });
    expect(oldSleeps.every((old) => typeof old.v1_id === 'number')).toBe(true);
    const scores = oldSleeps.map((old) => old.score as Rec | null).filter((score) => score !== null);
    expect(scores.some((score) => score.sleep_consistency_percentage === null)).toBe(true);
    // User B's device is older than generation 4: no spo2 or skin temperature.
    const [recovery] = (await api(sandbox, `${collections.recovery}?limit=1`, tokenB)).body.records;
    expect(recovery.score).toMatchObject({ spo2_percentage: null, skin_temp_celsius: null });
    conforms('recovery', recovery);
    for (const path of ['/v2/user/measurement/body', '/v2/user/profile/basic']) {
      const body = (await api(sandbox, path, tokenA)).body;
      expect(Object.values(body)).not.toContain(null);
    }
  });

  test.describe('partner', () => {
    const partner = partnerSandbox(['nulls-for-absent']);

    test('requisitions and service requests carry null for every absent optional field; all conforms', async () => {
      const sandbox = partner();
      await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=VIRTUAL`);
      const seen = { statusNull: false, plainPatient: false, extendedNull: false, slotNull: false };
      for (const { id } of await sandbox.requisitionsOf(partnerA)) {
        const requisition = (await sandbox.as(partnerA, 'GET', paths.requisition(id))).body as Rec & {
          service_requests: Rec[];
          patient: Rec;
          appointments: Rec[];
        };
        conforms('lab-requisition', requisition);
        for (const serviceRequest of requisition.service_requests) {
          expect(serviceRequest).toHaveProperty('task_business_status');
          expect(serviceRequest).toHaveProperty('task_description');
          seen.statusNull ||= serviceRequest.task_business_status === null;
          const single = await sandbox.as(partnerA, 'GET', paths.serviceRequest(String(serviceRequest.id)));
          expect(single.body).toEqual(serviceRequest);
          conforms('service-request', single.body);
        }
        const { patient } = requisition;
        if ('birth_date' in patient) {
          for (const field of ['gender', 'email', 'phone', 'nationality', 'emirates_id', 'passport_no'])
            expect(patient).toHaveProperty(field);
          seen.extendedNull ||= patient.emirates_id === null || patient.passport_no === null;
        } else {
          expect(Object.keys(patient)).toEqual(['id']);
          seen.plainPatient = true;
        }
        for (const appointment of requisition.appointments) {
          expect(appointment.collection_address === null).toBe(appointment.type !== 'MOBILE');
          if (appointment.collection_address !== null) {
            expect(appointment.collection_address).toHaveProperty('landmark');
            expect(appointment.collection_address).toHaveProperty('flat_no');
          }
          seen.slotNull ||= appointment.slot_id === null;
        }
      }
      expect(seen).toEqual({ statusNull: true, plainPatient: true, extendedNull: true, slotNull: true });
    });

    test('the updated ServiceRequest of a status PATCH carries the nulls too', async () => {
      const sandbox = partner();
      const { service_request_ids } = await sandbox.firstRequisition(partnerA);
      const answer = await sandbox.as(
        partnerA,
        'PATCH',
        paths.serviceRequestStatus(String(service_request_ids[0])),
        { json: { reason: 'no status' } },
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveProperty('task_business_status');
      conforms('service-request', answer.body);
    });
  });
});

// ---------------------------------------------------------------- test-data-204
test.describe('variant test-data-204', () => {
  const partner = partnerSandbox(['test-data-204']);

  test('add-test-data answers 204 without a body and still generates a readable requisition', async () => {
    const sandbox = partner();
    const before = await sandbox.requisitionsOf(partnerA);
    const answer = await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=MOBILE`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    const after = await sandbox.requisitionsOf(partnerA);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    const created = await sandbox.as(partnerA, 'GET', paths.requisition(String(after.at(-1)?.id)));
    expect(created.status).toBe(200);
    conforms('lab-requisition', created.body);
    expect((created.body as { appointments: Rec[] }).appointments[0]?.collection_address).toBeDefined();
    expect((await sandbox.as(partnerB, 'GET', paths.requisition(String(after.at(-1)?.id)))).status).toBe(404);
  });
});

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

// ---------------------------------------------------------------- token-400
test.describe('variant token-400', () => {
  const partner = partnerSandbox(['token-400']);

  test('a token request missing client_id or client_secret gets 400; wrong credentials still 401', async () => {
    const sandbox = partner();
    const { client_id: _id, ...noId } = validTokenRequest(partnerA);
    const { client_secret: _secret, ...noSecret } = validTokenRequest(partnerA);
    for (const json of [noId, noSecret, {}]) {
      const answer = await sandbox.call('POST', paths.token, { json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
    }
    for (const extra of [{ client_secret: 'wrong' }, { client_id: 'intruder' }]) {
      const answer = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA, extra) });
      expect(answer.status, JSON.stringify(extra)).toBe(401);
    }
    const issued = await sandbox.call('POST', paths.token, { json: validTokenRequest(partnerA) });
    expect(issued.status).toBe(200);
    assertValid('partner-token-response', issued.body);
  });
});

// ---------------------------------------------------------------- lenient-results
test.describe('variant lenient-results', () => {
  const partner = partnerSandbox(['lenient-results']);

  test('results with unexpected field types get 201; ownership and unknown ids still 404', async () => {
    const sandbox = partner();
    const { service_request_ids } = await sandbox.firstRequisition(partnerA);
    const serviceRequestId = String(service_request_ids[0]);
    for (const json of [
      { status: 5 },
      { observations: 'x' },
      { observations: [{ value_numeric: 'high' }] },
    ]) {
      const answer = await sandbox.as(partnerA, 'POST', paths.results(serviceRequestId), { json });
      expect(answer.status, JSON.stringify(json)).toBe(201);
      expect(answer.text).toBe('');
    }
    expect((await sandbox.activity(partnerA, serviceRequestId)).diagnostic_reports).toHaveLength(3);
    const foreign = await sandbox.as(partnerB, 'POST', paths.results(serviceRequestId), {
      json: { status: 5 },
    });
    expect(foreign.status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await sandbox.as(partnerA, 'POST', paths.results(unknown), { json: { status: 5 } })).status).toBe(
      404,
    );
    const patch = await sandbox.as(partnerA, 'PATCH', paths.serviceRequestStatus(serviceRequestId), {
      json: { task_business_status: 5 },
    });
    expect(patch.status, 'only the results upload is lenient').toBe(400);
  });
});

// ---------------------------------------------------------------- user OAuth token endpoint
const codeGrant = async (sandbox: RunningSandbox) => ({
  grant_type: 'authorization_code',
  code: await authorizationCode(sandbox),
  redirect_uri: redirectUriFor(sandbox),
});

test.describe('variant user-token-minimal', () => {
  const run = userSandbox(['user-token-minimal']);

  test('the token response carries only access_token, which works', async () => {
    const { sandbox } = run();
    const response = await tokenRequest(sandbox, await codeGrant(sandbox));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['access_token']);
    const profile = await api(sandbox, '/v2/user/profile/basic', body.access_token);
    expect(profile.status).toBe(200);
    assertValid('user-basic-profile', profile.body);
  });
});

test.describe('variant basic-client-auth', () => {
  const run = userSandbox(['basic-client-auth']);

  test('client credentials only by HTTP Basic: form-body credentials get 401 invalid_client with a Basic challenge', async () => {
    const { sandbox } = run();
    const refused = await tokenRequest(sandbox, await codeGrant(sandbox));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic/);
    const basic = await tokenRequest(sandbox, await codeGrant(sandbox), true);
    expect(basic.status).toBe(200);
    const { access_token } = await basic.json();
    expect((await api(sandbox, '/v2/user/profile/basic', access_token)).status).toBe(200);
  });

  test('without the variant both the form body and HTTP Basic are accepted', async () => {
    const sandbox = await start();
    try {
      for (const basic of [false, true]) {
        expect((await tokenRequest(sandbox, await codeGrant(sandbox), basic)).status, `basic ${basic}`).toBe(
          200,
        );
      }
      const { clientId } = credentials.client;
      const mixed = await tokenRequest(sandbox, { ...(await codeGrant(sandbox)), client_id: clientId }, true);
      expect(mixed.status).toBe(200);
    } finally {
      await sandbox.close();
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
