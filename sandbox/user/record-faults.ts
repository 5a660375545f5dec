// Faults that live in the data itself: applied once to the generated records, before they are indexed, so
// the request path stays the same with and without them.

import type { SandboxContext } from '../context.ts';
import type { FaultName } from '../faults/index.ts';
import { createPrng, deriveSeed } from '../prng.ts';
import type { UserRecords } from './types.ts';

// Faults deliberately put values of the wrong type into typed records.
type Loose = Record<string, unknown>;
const loose = (value: object): Loose => value as Loose;

const HOUR = 3_600_000;
const minuteFormat = (isoText: string): string => isoText.slice(0, 16).replace('T', ' ');

const mutations: Partial<Record<FaultName, (records: UserRecords, seed: number) => void>> = {
  'cycle-timezone-offset-malformed': ({ cycles }) => {
    for (const cycle of cycles)
      cycle.timezone_offset =
        cycle.timezone_offset === 'Z' ? '+0000' : cycle.timezone_offset.replace(':', '');
  },
  'cycle-missing-user-id': ({ cycles }) => {
    for (const cycle of cycles) delete loose(cycle).user_id;
  },
  'cycle-score-missing-kilojoule': ({ cycles }) => {
    for (const cycle of cycles) if (cycle.score) delete loose(cycle.score).kilojoule;
  },
  'sleep-nap-not-boolean': ({ sleeps }) => {
    for (const sleep of sleeps) loose(sleep).nap = String(sleep.nap);
  },
  'sleep-stage-summary-missing-field': ({ sleeps }) => {
    for (const sleep of sleeps) if (sleep.score) delete loose(sleep.score.stage_summary).sleep_cycle_count;
  },
  'sleep-stage-int32-overflow': ({ sleeps }) => {
    for (const sleep of sleeps) if (sleep.score) sleep.score.stage_summary.total_in_bed_time_milli += 2 ** 31;
  },
  'recovery-missing-user-id': ({ recoveries }) => {
    for (const recovery of recoveries) delete loose(recovery).user_id;
  },
  'recovery-score-missing-hrv': ({ recoveries }) => {
    for (const recovery of recoveries) if (recovery.score) delete loose(recovery.score).hrv_rmssd_milli;
  },
  'workout-sport-id-string': ({ workouts }) => {
    for (const workout of workouts) loose(workout).sport_id = String(workout.sport_id);
  },
  'workout-created-at-malformed': ({ workouts }) => {
    for (const workout of workouts) workout.created_at = minuteFormat(workout.created_at);
  },
  'body-measurement-missing-max-heart-rate': ({ body }) => {
    if (body) delete loose(body).max_heart_rate;
  },
  'profile-user-id-string': ({ profile }) => {
    loose(profile).user_id = String(profile.user_id);
  },
  'score-state-unknown-value': ({ cycles }) => {
    for (const cycle of cycles)
      if (cycle.score_state === 'PENDING_SCORE') loose(cycle).score_state = 'PENDING';
  },
  // Naps only: they have no recovery pointing at them, so only the id type changes.
  'sleep-id-v1-integer': ({ sleeps }) => {
    sleeps.forEach((sleep, index) => {
      if (sleep.nap) loose(sleep).id = sleep.v1_id ?? 900_000_000 + index;
    });
  },
  'recovery-sleep-id-integer': ({ recoveries }) => {
    recoveries.forEach((recovery, index) => {
      loose(recovery).sleep_id = 800_000_000 + index;
    });
  },
  'workout-zone-duration-singular': ({ workouts }) => {
    for (const workout of workouts) {
      if (!workout.score) continue;
      const { zone_durations, ...rest } = workout.score;
      workout.score = { ...rest, zone_duration: zone_durations } as unknown as typeof workout.score;
    }
  },
  'sleep-v1-id-after-cutoff': ({ sleeps }) => {
    sleeps.forEach((sleep, index) => {
      sleep.v1_id ??= 700_000_000 + index;
    });
  },
  'cycle-score-when-pending': ({ cycles }) => {
    for (const cycle of cycles) {
      if (cycle.score_state === 'PENDING_SCORE') {
        cycle.score = { strain: 8.5, kilojoule: 7000, average_heart_rate: 60, max_heart_rate: 150 };
      }
    }
  },
  'sleep-score-missing-when-scored': ({ sleeps }) => {
    for (const sleep of sleeps) if (sleep.score_state === 'SCORED') delete sleep.score;
  },
  'recovery-score-when-unscorable': ({ recoveries }) => {
    for (const recovery of recoveries) {
      if (recovery.score_state === 'UNSCORABLE') {
        recovery.score = {
          user_calibrating: false,
          recovery_score: 50,
          resting_heart_rate: 55,
          hrv_rmssd_milli: 60,
        };
      }
    }
  },
  'cycle-strain-over-21': ({ cycles }) => {
    for (const cycle of cycles) if (cycle.score) cycle.score.strain += 21;
  },
  'recovery-score-over-100': ({ recoveries }) => {
    for (const recovery of recoveries) if (recovery.score) recovery.score.recovery_score += 100;
  },
  'sleep-nap-need-positive': ({ sleeps }) => {
    for (const sleep of sleeps) {
      if (sleep.score) sleep.score.sleep_needed.need_from_recent_nap_milli = 15 * 60_000;
    }
  },
  'old-cycle-missing-end': ({ cycles }) => {
    const third = cycles[cycles.length - 3];
    if (third) delete third.end;
  },
  'cycle-end-before-start': ({ cycles }) => {
    const newestEnded = cycles.at(-2);
    if (newestEnded) newestEnded.end = new Date(Date.parse(newestEnded.start) - HOUR).toISOString();
  },
  'recovery-sleep-id-dangling': ({ recoveries, userId }, seed) => {
    recoveries.forEach((recovery, index) => {
      recovery.sleep_id = createPrng(deriveSeed(seed, `dangling:${userId}:${index}`)).uuid();
    });
  },
  'sleep-cycle-id-dangling': ({ sleeps }) => {
    for (const sleep of sleeps) if (sleep.nap) sleep.cycle_id += 5000;
  },
};

/** The faults of the instance that change its data. */
export const recordFaults = (ctx: SandboxContext): FaultName[] =>
  (Object.keys(mutations) as FaultName[]).filter((name) => ctx.fault(name));

export function applyRecordFaults(records: UserRecords, ctx: SandboxContext): void {
  for (const name of recordFaults(ctx)) mutations[name]?.(records, ctx.options.seed);
}
