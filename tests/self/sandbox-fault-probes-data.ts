// Probes of the user-area faults that break what the data says: schemas and formats, versioning, invariants,
// consistency between operations, the activity mapping and the success statuses.
import assert from 'node:assert/strict';
import {
  type StatusOperationIdIn,
  statusFaultName,
  type userStatusFaults,
} from '../../sandbox/faults/status.ts';
import { routeTable } from '../../sandbox/route-table.ts';
import { validate } from '../../src/contract/validators.ts';
import { collections } from './sandbox-client.ts';
import {
  bodyValid,
  ms,
  newestId,
  type Probe,
  type ProbeContext,
  type Probes,
  pageValid,
  scoreAtMost,
  scoreIffScored,
  status,
  statusOf,
  v1SleepMapping,
} from './sandbox-fault-probe.ts';

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
export const dataProbes = {
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
  'cycle-end-before-start': {
    async check(p) {
      for (const cycle of await p.records(collections.cycle)) {
        if (cycle.end === undefined) continue;
        const single = (await p.get(`/v2/cycle/${String(cycle.id)}`)).body;
        for (const served of [cycle, single])
          assert.ok(ms(served.end) >= ms(served.start), `cycle ${cycle.id} ends before it starts`);
      }
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
} satisfies Probes;
