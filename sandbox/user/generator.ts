// Deterministic user data: for one account, a seed and a clock reading, the same records every time
// (mulberry32 streams derived per user and per record; never Math.random).
//
// Shape of the history: one cycle per day, contiguous, from at least 150 days (or `historyDays`) before `now` (and at least
// 30 days before 2025-09-01, so records with v1_id exist) up to the current cycle, which started 9 to 14 hours
// before `now` and has no end. Each cycle starts with its main sleep (5.5 to 8.5 hours, so it has ended by
// `now`), has one recovery tied to that sleep, sometimes a nap, and on most days one or two workouts.
// Records starting before 2025-09-01 carry a v1_id (sleeps and workouts share one V1 id space per user).
import { createPrng, deriveSeed, type Prng } from '../prng.ts';
import type { Account } from './accounts.ts';
import type {
  Cycle,
  Recovery,
  ScoreState,
  Sleep,
  SleepScore,
  UserRecords,
  Workout,
  WorkoutScore,
  ZoneDurations,
} from './types.ts';

/** Sleep.v1_id "does not exist past 2025-09-01" (seed, Versioning). */
export const V1_ID_CUTOFF = Date.parse('2025-09-01T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const MIN_HISTORY_DAYS = 150;

const sports = [
  { id: 0, name: 'running', metersPerMinute: 170 },
  { id: 1, name: 'cycling', metersPerMinute: 400 },
  { id: 33, name: 'swimming', metersPerMinute: 40 },
  { id: 44, name: 'yoga', metersPerMinute: 0 },
  { id: 45, name: 'weightlifting', metersPerMinute: 0 },
  { id: 48, name: 'functional-fitness', metersPerMinute: 0 },
  { id: 52, name: 'hiking', metersPerMinute: 70 },
  { id: 63, name: 'walking', metersPerMinute: 90 },
] as const;

/** States forced at fixed positions (0 = newest) so every state shows on the first page of each collection. */
const forcedStates = {
  cycle: new Map<number, ScoreState>([
    [2, 'PENDING_SCORE'],
    [5, 'UNSCORABLE'],
  ]),
  sleep: new Map<number, ScoreState>([
    [3, 'PENDING_SCORE'],
    [6, 'UNSCORABLE'],
  ]),
  recovery: new Map<number, ScoreState>([[8, 'UNSCORABLE']]),
  workout: new Map<number, ScoreState>([
    [1, 'PENDING_SCORE'],
    [4, 'UNSCORABLE'],
  ]),
};
/** Position (0 = newest) of a recovery re-scored days later: its updated_at is out of sleep order. */
const RESCORED_RECOVERY = 4;

const iso = (ms: number): string => new Date(ms).toISOString();
const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;
const between = (rng: Prng, min: number, max: number): number => min + rng.next() * (max - min);

function randomState(rng: Prng): ScoreState {
  const r = rng.next();
  return r < 0.03 ? 'PENDING_SCORE' : r < 0.06 ? 'UNSCORABLE' : 'SCORED';
}

function setState(record: { score_state: ScoreState; score?: unknown }, state: ScoreState): void {
  record.score_state = state;
  if (state !== 'SCORED') delete record.score;
}

/** Applies `forced` to `newestFirst` and drops the score of every record that is not SCORED. */
function settleStates(
  newestFirst: { score_state: ScoreState; score?: unknown }[],
  forced: Map<number, ScoreState>,
) {
  newestFirst.forEach((record, index) => {
    setState(record, forced.get(index) ?? record.score_state);
  });
}

function recordId(seed: number, userId: number, kind: string, index: number): string {
  return createPrng(deriveSeed(seed, `${kind}:${userId}:${index}`)).uuid();
}

function sleepScore(rng: Prng, inBed: number, napNeed: number, withConsistency: boolean): SleepScore {
  const awake = Math.round(inBed * between(rng, 0.04, 0.12));
  const noData = rng.next() < 0.2 ? Math.round(inBed * between(rng, 0, 0.02)) : 0;
  const asleep = inBed - awake - noData;
  const slowWave = Math.round(asleep * between(rng, 0.15, 0.25));
  const rem = Math.round(asleep * between(rng, 0.18, 0.28));
  const light = asleep - slowWave - rem;
  return {
    stage_summary: {
      total_in_bed_time_milli: inBed,
      total_awake_time_milli: awake,
      total_no_data_time_milli: noData,
      total_light_sleep_time_milli: light,
      total_slow_wave_sleep_time_milli: slowWave,
      total_rem_sleep_time_milli: rem,
      sleep_cycle_count: Math.max(1, Math.round(asleep / (90 * MINUTE))),
      disturbance_count: rng.int(0, 18),
    },
    sleep_needed: {
      baseline_milli: rng.int(7 * 60, 8 * 60 + 30) * MINUTE,
      need_from_sleep_debt_milli: rng.int(0, 90) * MINUTE,
      need_from_recent_strain_milli: rng.int(0, 40) * MINUTE,
      need_from_recent_nap_milli: napNeed,
    },
    respiratory_rate: round(between(rng, 12.5, 17.5)),
    sleep_performance_percentage: round(between(rng, 55, 100)),
    ...(withConsistency ? { sleep_consistency_percentage: round(between(rng, 40, 98)) } : {}),
    sleep_efficiency_percentage: round(((inBed - awake - noData) / inBed) * 100),
  };
}

function zoneDurations(rng: Prng, total: number): ZoneDurations {
  const weights = [0.05, 0.2, 0.3, 0.25, 0.15, 0.05].map((w) => w * between(rng, 0.5, 1.5));
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((w / sum) * total));
  parts[2] = (parts[2] ?? 0) + total - parts.reduce((a, b) => a + b, 0);
  const [zero, one, two, three, four, five] = parts as [number, number, number, number, number, number];
  return {
    zone_zero_milli: zero,
    zone_one_milli: one,
    zone_two_milli: two,
    zone_three_milli: three,
    zone_four_milli: four,
    zone_five_milli: five,
  };
}

function workoutScore(
  rng: Prng,
  account: Account,
  sport: (typeof sports)[number],
  duration: number,
): WorkoutScore {
  const average = rng.int(95, 155);
  const minutes = duration / MINUTE;
  const moving = sport.metersPerMinute > 0;
  return {
    strain: round(between(rng, 2, 18)),
    average_heart_rate: average,
    max_heart_rate: Math.min(account.maxHeartRate, average + rng.int(15, 45)),
    kilojoule: round(minutes * between(rng, 20, 60)),
    percent_recorded: round(between(rng, 92, 100)),
    distance_meter: moving ? round(minutes * sport.metersPerMinute * between(rng, 0.8, 1.2)) : 0,
    altitude_gain_meter: moving ? round(between(rng, 0, 350)) : 0,
    altitude_change_meter: moving ? round(between(rng, -40, 40)) : 0,
    zone_durations: zoneDurations(rng, duration),
  };
}

/**
 * The cycle start times over at least `historyDays` days, oldest first; the last one is the current cycle.
 * Every record time lies whole minutes from the first start, which is never on a whole minute: a server that
 * rounds a bound to the minute shows on them (fault filter-end-rounded-up).
 */
function cycleStarts(rng: Prng, now: number, historyDays: number): number[] {
  const historyStart = Math.min(now - historyDays * DAY, V1_ID_CUTOFF - 30 * DAY);
  const starts: number[] = [];
  let start = Math.floor((now - 9 * HOUR - rng.int(0, 5 * 60) * MINUTE) / 1000) * 1000;
  if (start % MINUTE === 0) start -= 1000;
  while (start >= historyStart) {
    starts.push(start);
    start -= DAY + rng.int(-75, 75) * MINUTE;
  }
  return starts.reverse();
}

/**
 * The user's records. `simultaneousWorkouts` (variant start-ties): a day's second workout starts when its
 * first does, so the two share a start time. `historyDays`: the least history (MIN_HISTORY_DAYS unless the sandbox was given one).
 */
export function generateUserRecords(
  account: Account,
  seed: number,
  now: number,
  { simultaneousWorkouts, historyDays }: { simultaneousWorkouts: boolean; historyDays: number },
): UserRecords {
  const { userId } = account;
  const rng = createPrng(deriveSeed(seed, `user:${userId}`));
  const idBase = (userId * 1000 + (seed % 1000)) * 10_000;
  const starts = cycleStarts(rng, now, historyDays);
  const cycles: Cycle[] = [];
  const sleeps: Sleep[] = [];
  const recoveries: Recovery[] = [];
  const workouts: Workout[] = [];
  let nextV1Id = idBase + 1;
  const v1IdFor = (start: number): number | undefined => (start < V1_ID_CUTOFF ? nextV1Id++ : undefined);
  let previousNapMilli = 0;
  /** Records a main sleep or a nap; both draw from rng in this one order, so the data stays as seeded. */
  const pushSleep = (spec: {
    kind: 'sleep' | 'nap';
    index: number;
    cycleId: number;
    timezone: string;
    start: number;
    end: number;
    scoreState: () => ScoreState;
    score: () => ReturnType<typeof sleepScore>;
  }): Sleep => {
    const created = spec.end + rng.int(3, 20) * MINUTE;
    const sleep: Sleep = {
      id: recordId(seed, userId, spec.kind, spec.index),
      cycle_id: spec.cycleId,
      user_id: userId,
      created_at: iso(created),
      updated_at: iso(created + rng.int(0, 15) * MINUTE),
      start: iso(spec.start),
      end: iso(spec.end),
      timezone_offset: spec.timezone,
      nap: spec.kind === 'nap',
      score_state: spec.scoreState(),
      score: spec.score(),
    };
    const v1 = v1IdFor(spec.start);
    if (v1 !== undefined) sleep.v1_id = v1;
    sleeps.push(sleep);
    return sleep;
  };
  const latestEnd = now - 10 * MINUTE;

  starts.forEach((start, i) => {
    const next = starts[i + 1];
    const timezone = userId % 2 === 1 && i % 53 < 4 ? 'Z' : account.timezoneOffset;
    const created = start + rng.int(2, 30) * MINUTE;
    cycles.push({
      id: idBase + i + 1,
      user_id: userId,
      created_at: iso(created),
      updated_at: iso(
        next === undefined
          ? Math.max(created, now - rng.int(1, 30) * MINUTE)
          : next + rng.int(5, 90) * MINUTE,
      ),
      start: iso(start),
      ...(next === undefined ? {} : { end: iso(next) }),
      timezone_offset: timezone,
      score_state: randomState(rng),
      score: {
        strain: round(between(rng, 3, 19)),
        kilojoule: round(between(rng, 5000, 15000)),
        average_heart_rate: rng.int(55, 75),
        max_heart_rate: rng.int(130, account.maxHeartRate),
      },
      step_count: rng.int(2500, 18000),
    });
    const cycleId = idBase + i + 1;
    const cycleEnd = next ?? latestEnd;

    // Main sleep: starts the cycle.
    const sleepEnd = start + rng.int(330, 510) * MINUTE;
    const mainSleep = pushSleep({
      kind: 'sleep',
      index: i,
      cycleId,
      timezone,
      start,
      end: sleepEnd,
      scoreState: () => randomState(rng),
      score: () =>
        sleepScore(
          rng,
          sleepEnd - start,
          previousNapMilli > 0 ? -Math.round(previousNapMilli / 2) : 0,
          i >= 4,
        ),
    });

    const recoveryCreated = sleepEnd + rng.int(3, 20) * MINUTE;
    recoveries.push({
      cycle_id: cycleId,
      sleep_id: mainSleep.id,
      user_id: userId,
      created_at: iso(recoveryCreated),
      updated_at: iso(recoveryCreated + rng.int(0, 15) * MINUTE),
      score_state: 'SCORED',
      score: {
        user_calibrating: i < 14,
        recovery_score: rng.int(1, 99),
        resting_heart_rate: rng.int(44, 66),
        hrv_rmssd_milli: round(between(rng, 25, 115)),
        ...(account.deviceGeneration4
          ? {
              spo2_percentage: round(between(rng, 94, 99.5)),
              skin_temp_celsius: round(between(rng, 33, 35.5)),
            }
          : {}),
      },
    });

    // Workouts and an occasional nap, between the end of the main sleep and the next cycle.
    let cursor = sleepEnd + rng.int(60, 240) * MINUTE;
    const workoutCount = rng.next() < 0.2 ? 0 : rng.next() < 0.8 ? 1 : 2;
    let firstStart: number | undefined;
    for (let w = 0; w < workoutCount; w += 1) {
      if (simultaneousWorkouts && firstStart !== undefined) cursor = firstStart;
      firstStart ??= cursor;
      const duration = rng.int(20, 110) * MINUTE;
      const sport = rng.pick(sports);
      const score = workoutScore(rng, account, sport, duration);
      const end = cursor + duration;
      if (end > cycleEnd - HOUR) break;
      const workoutCreated = end + rng.int(1, 10) * MINUTE;
      const workout: Workout = {
        id: recordId(seed, userId, 'workout', i * 4 + w),
        user_id: userId,
        created_at: iso(workoutCreated),
        updated_at: iso(workoutCreated + rng.int(0, 20) * MINUTE),
        start: iso(cursor),
        end: iso(end),
        timezone_offset: timezone,
        sport_name: sport.name,
        sport_id: sport.id,
        score_state: randomState(rng),
        score,
      };
      const v1 = v1IdFor(cursor);
      if (v1 !== undefined) workout.v1_id = v1;
      workouts.push(workout);
      cursor = end + rng.int(60, 300) * MINUTE;
    }
    previousNapMilli = 0;
    // A nap on the day before the current cycle, so the newest page of sleeps always shows one.
    if (rng.next() < 0.15 || i === starts.length - 2) {
      const napStart = cursor + rng.int(30, 120) * MINUTE;
      const napEnd = napStart + rng.int(20, 90) * MINUTE;
      if (napEnd <= cycleEnd - HOUR) {
        pushSleep({
          kind: 'nap',
          index: i,
          cycleId,
          timezone,
          start: napStart,
          end: napEnd,
          scoreState: () => 'SCORED',
          score: () => sleepScore(rng, napEnd - napStart, 0, i >= 4),
        });
        previousNapMilli = napEnd - napStart;
      }
    }
  });

  const newestFirst = <T>(records: T[]): T[] => [...records].reverse();
  settleStates(newestFirst(cycles), forcedStates.cycle);
  settleStates(newestFirst(sleeps.filter((sleep) => !sleep.nap)), forcedStates.sleep);
  const sleepById = new Map(sleeps.map((sleep) => [sleep.id, sleep]));
  for (const recovery of recoveries)
    recovery.score_state = sleepById.get(recovery.sleep_id)?.score_state ?? 'SCORED';
  const recoveriesNewestFirst = newestFirst(recoveries);
  settleStates(recoveriesNewestFirst, forcedStates.recovery);
  const rescored = recoveriesNewestFirst[RESCORED_RECOVERY];
  if (rescored) rescored.updated_at = iso(Math.min(Date.parse(rescored.created_at) + 2 * DAY, now - MINUTE));
  settleStates(newestFirst(workouts), forcedStates.workout);

  return {
    userId,
    cycles,
    sleeps,
    recoveries,
    workouts,
    body: {
      height_meter: account.heightMeter,
      weight_kilogram: account.weightKilogram,
      max_heart_rate: account.maxHeartRate,
    },
    profile: {
      user_id: userId,
      email: account.username,
      first_name: account.firstName,
      last_name: account.lastName,
    },
  };
}
