// Every conforming variant (sandbox/variants.ts) changes what it says, and every response still conforms:
// per variant, real HTTP against an in-process sandbox running it, with schema validation of the bodies
// (for nulls-for-absent after reading null as absent, the only way the seed's schemas can apply). This file:
// the catalogue, and the variants that rewrite responses; sandbox-variants-collections.spec.ts,
// sandbox-variants-inputs.spec.ts and sandbox-variants-requests.spec.ts hold the others.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { READ_SCOPES } from '../../sandbox/oauth/scopes.ts';
import { variants } from '../../sandbox/variants.ts';
import { assertValid } from '../../src/contract/validators.ts';
import { cli } from '../../src/runner/run/run-step.ts';
import { api, collectAll, collections, login, start, tokenRequest } from './sandbox-client.ts';
import { partnerA, partnerB, paths } from './sandbox-partner-support.ts';
import {
  codeGrant,
  collectionEntries,
  conforms,
  ms,
  pageSchemas,
  pages,
  partnerSandbox,
  type Rec,
  recordsOf,
  userSandbox,
} from './sandbox-variant-support.ts';

// ---------------------------------------------------------------- the catalogue and its wiring
test.describe('variant catalogue', () => {
  test('every variant says what it changes and quotes the seed text that allows it', () => {
    expect(Object.keys(variants).length).toBe(42);
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
    const [, sandboxCli] = cli('sandbox');
    const { stdout } = await run(process.execPath, [...sandboxCli, '--list-variants']);
    for (const [name, variant] of Object.entries(variants)) {
      expect(stdout).toMatch(new RegExp(`^${name}$`, 'm'));
      expect(stdout).toContain(variant.seed);
    }
    const failure = await run(process.execPath, [...sandboxCli, '--variants', 'sparse-user,nope']).catch(
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
    // Problems are collected and asserted once: Playwright's steps make thousands of expect calls in one
    // test quadratic (16 s here).
    const problems: string[] = [];
    for (const [name, path] of collectionEntries) {
      for (const token of [run().tokenA, run().tokenB]) {
        const walked = await pages(run(), path, { limit: '25' }, token);
        walked.forEach((page, index) => {
          conforms(pageSchemas[name], page);
          if (!('next_token' in page)) problems.push(`${path} page ${index}: no next_token`);
          else if ((page.next_token === null) !== (index === walked.length - 1))
            problems.push(`${path} page ${index} of ${walked.length}: next_token ${page.next_token}`);
        });
        for (const record of recordsOf(walked)) {
          if (!('score' in record)) problems.push(`no score: ${JSON.stringify(record)}`);
          else if ((record.score === null) !== (record.score_state !== 'SCORED'))
            problems.push(`score ${record.score === null ? 'null' : 'present'}: ${JSON.stringify(record)}`);
          if (name !== 'recovery' && name !== 'cycle' && !('v1_id' in record))
            problems.push(`no v1_id: ${JSON.stringify(record)}`);
        }
      }
    }
    expect(problems).toEqual([]);
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

test.describe('variant test-data-location', () => {
  const partner = partnerSandbox(['test-data-location']);

  test('add-test-data answers 204 without a body, its Location naming the requisition it generated', async () => {
    const sandbox = partner();
    const answer = await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=MOBILE`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const location = answer.headers.get('location') ?? '';
    const [created] = (await sandbox.requisitionsOf(partnerA)).slice(-1);
    expect(location).toMatch(new RegExp(`/v2/partner/requisition/${created?.id}$`));
    const read = await sandbox.as(partnerA, 'GET', paths.requisition(String(created?.id)));
    expect(read.status).toBe(200);
    conforms('lab-requisition', read.body);
  });
});

test.describe('variant empty-address-lines', () => {
  const partner = partnerSandbox(['empty-address-lines']);

  test("a MOBILE test appointment's building, area and emirate are empty strings, and the requisition still conforms", async () => {
    const sandbox = partner();
    expect((await sandbox.as(partnerA, 'POST', `${paths.testData}?appointmentType=MOBILE`)).status).toBe(200);
    const [created] = (await sandbox.requisitionsOf(partnerA)).slice(-1);
    const read = await sandbox.as(partnerA, 'GET', paths.requisition(String(created?.id)));
    expect(read.status).toBe(200);
    conforms('lab-requisition', read.body);
    const [appointment] = (read.body as { appointments: Rec[] }).appointments;
    expect(appointment?.collection_address).toMatchObject({ building: '', area: '', emirate: '' });
  });
});

test.describe('variant wider-grant', () => {
  const run = userSandbox(['wider-grant']);

  test('a token asked for read:cycles alone is granted every read scope, says so, and reads sleeps', async () => {
    const { sandbox } = run();
    const tokens = await login(sandbox, { scopes: ['read:cycles'] });
    expect(tokens.scope.split(' ').sort()).toEqual([...READ_SCOPES].sort());
    const sleeps = await api(sandbox, `${collections.sleep}?limit=1`, tokens.access_token);
    expect(sleeps.status).toBe(200);
    conforms('paginated-sleep-response', sleeps.body);
  });
});

test.describe('variant body-measurement-a-only', () => {
  const run = userSandbox(['body-measurement-a-only']);

  test("user B's body measurement answers 404; user A's is served, and the rest of B's data stays", async () => {
    const { sandbox, tokenA, tokenB } = run();
    const path = '/v2/user/measurement/body';
    expect((await api(sandbox, path, tokenB)).status).toBe(404);
    const served = await api(sandbox, path, tokenA);
    expect(served.status).toBe(200);
    conforms('user-body-measurement', served.body);
    expect((await api(sandbox, '/v2/user/profile/basic', tokenB)).status).toBe(200);
    expect((await api(sandbox, `${collections.cycle}?limit=1`, tokenB)).body.records).toHaveLength(1);
  });
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
