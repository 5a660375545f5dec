/**
 * Hand-written valid instances of the contract's resources (transcribed from the seed, not generated
 * from the schemas), and helpers to derive broken copies of them by JSON pointer.
 */

const UUID_A = '3f0c1a52-6c1e-4b8e-9a55-2f4f3f1b9c10';
const UUID_B = '9b2e7d44-1a3c-4f6d-8e0b-7c5a9d2e4f31';
const UUID_C = 'c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e';
const T1 = '2024-03-01T06:30:00.000Z';
const T2 = '2024-03-01T22:15:00.000Z';

export const cycleScore = { strain: 12.8, kilojoule: 8288.297, average_heart_rate: 68, max_heart_rate: 141 };

export const cycleScored = {
  id: 93845,
  user_id: 10129,
  created_at: T1,
  updated_at: T2,
  start: T1,
  end: T2,
  timezone_offset: '-05:00',
  score_state: 'SCORED',
  score: cycleScore,
};

export const cyclePending = {
  id: 93846,
  user_id: 10129,
  created_at: T1,
  updated_at: T1,
  start: T1,
  timezone_offset: 'Z',
  score_state: 'PENDING_SCORE',
};

export const sleepScore = {
  stage_summary: {
    total_in_bed_time_milli: 30272735,
    total_awake_time_milli: 1403507,
    total_no_data_time_milli: 0,
    total_light_sleep_time_milli: 14905851,
    total_slow_wave_sleep_time_milli: 6630370,
    total_rem_sleep_time_milli: 5879573,
    sleep_cycle_count: 3,
    disturbance_count: 12,
  },
  sleep_needed: {
    baseline_milli: 27395716,
    need_from_sleep_debt_milli: 352230,
    need_from_recent_strain_milli: 208595,
    need_from_recent_nap_milli: -12312,
  },
  respiratory_rate: 16.11328125,
  sleep_performance_percentage: 98,
  sleep_consistency_percentage: 90,
  sleep_efficiency_percentage: 91.69533848,
};

export const sleepScored = {
  id: UUID_A,
  cycle_id: 93845,
  v1_id: 93845,
  user_id: 10129,
  created_at: T1,
  updated_at: T2,
  start: T1,
  end: T2,
  timezone_offset: '+05:30',
  nap: false,
  score_state: 'SCORED',
  score: sleepScore,
};

export const sleepUnscorable = {
  id: UUID_B,
  cycle_id: 93846,
  user_id: 10129,
  created_at: T1,
  updated_at: T2,
  start: T1,
  end: T2,
  timezone_offset: 'Z',
  nap: true,
  score_state: 'UNSCORABLE',
};

export const recoveryScore = {
  user_calibrating: false,
  recovery_score: 44,
  resting_heart_rate: 64,
  hrv_rmssd_milli: 31.813562,
  spo2_percentage: 95.6875,
  skin_temp_celsius: 33.7,
};

export const recoveryScored = {
  cycle_id: 93845,
  sleep_id: UUID_A,
  user_id: 10129,
  created_at: T1,
  updated_at: T2,
  score_state: 'SCORED',
  score: recoveryScore,
};

export const recoveryPending = {
  cycle_id: 93846,
  sleep_id: UUID_B,
  user_id: 10129,
  created_at: T1,
  updated_at: T1,
  score_state: 'PENDING_SCORE',
};

export const workout = {
  id: UUID_C,
  v1_id: 1043,
  user_id: 9012,
  created_at: T1,
  updated_at: T2,
  start: T1,
  end: T2,
  timezone_offset: '-05:00',
  sport_name: 'running',
  sport_id: 1,
  score_state: 'SCORED',
  score: {
    strain: 8.2463,
    average_heart_rate: 123,
    max_heart_rate: 146,
    kilojoule: 1569.34033203125,
    percent_recorded: 100,
    distance_meter: 1772.77035916,
    altitude_gain_meter: 46.64384460449,
    altitude_change_meter: -0.781372010707855,
    zone_durations: {
      zone_zero_milli: 300000,
      zone_one_milli: 600000,
      zone_two_milli: 900000,
      zone_three_milli: 900000,
      zone_four_milli: 600000,
      zone_five_milli: 300000,
    },
  },
};

export const bodyMeasurement = { height_meter: 1.8288, weight_kilogram: 90.7185, max_heart_rate: 200 };
export const basicProfile = {
  user_id: 10129,
  email: 'jsmith123@example.com',
  first_name: 'John',
  last_name: 'Smith',
};
export const activityMapping = { v2_activity_id: UUID_C };

export const serviceRequest = {
  id: UUID_B,
  status: 'active',
  intent: 'order',
  code: 'CBC',
  task_business_status: 'SAMPLE_COLLECTED',
  task_description: 'Complete blood count',
};

export const extendedPatient = {
  id: UUID_C,
  first_name: 'Aisha',
  last_name: 'Khan',
  birth_date: '1990-04-12',
  gender: 'female',
  email: 'aisha@example.com',
  phone: '+971500000000',
  nationality: 'AE',
  emirates_id: '784-1990-1234567-1',
  passport_no: 'P1234567',
};

export const collectionAddress = {
  building: 'Marina Tower',
  area: 'Dubai Marina',
  emirate: 'Dubai',
  landmark: 'Next to the metro',
  flat_no: '1204',
};

export const labAppointment = {
  start_time: T2,
  service_request_ids: [UUID_B],
  type: 'MOBILE',
  slot_id: 'slot-42',
  collection_address: collectionAddress,
};

export const labRequisition = {
  id: UUID_A,
  created_at: T1,
  updated_at: T2,
  service_requests: [serviceRequest],
  patient: extendedPatient,
  appointments: [labAppointment],
};

export const partnerTokenRequest = {
  grant_type: 'client_credentials',
  client_id: 'partner-client',
  client_secret: 's3cret',
  scope: 'service-partner/token',
};
export const partnerTokenResponse = { access_token: 'eyJhbGciOi', expires_in: 3600, token_type: 'bearer' };
export const statusRequest = { task_business_status: 'RESULTS_READY', reason: 'lab finished' };
export const observation = {
  value_numeric: 13.5,
  value_text: '13.5',
  unit: 'g/dL',
  status: 'final',
  code: 'HGB',
  bundle_id: UUID_A,
};
export const diagnosticReport = { status: 'final', observations: [observation] };
export const testDataResponse = { requisition_id: UUID_A };

/** One valid instance per schema (several where the schema has variants). */
export const validInstances: Record<string, readonly unknown[]> = {
  cycle: [cycleScored, cyclePending],
  'cycle-score': [cycleScore],
  sleep: [sleepScored, sleepUnscorable],
  'sleep-score': [sleepScore],
  'sleep-stage-summary': [sleepScore.stage_summary],
  'sleep-needed': [sleepScore.sleep_needed],
  recovery: [recoveryScored, recoveryPending],
  'recovery-score': [recoveryScore],
  workout: [workout],
  'workout-score': [workout.score],
  'zone-durations': [workout.score.zone_durations],
  'user-body-measurement': [bodyMeasurement],
  'user-basic-profile': [basicProfile],
  'activity-id-mapping-response': [activityMapping],
  'paginated-cycle-response': [{ records: [cycleScored, cyclePending], next_token: 'MTIzOjEyMzEyMw' }],
  'paginated-sleep-response': [{ records: [sleepScored, sleepUnscorable] }],
  'recovery-collection': [{ records: [recoveryScored, recoveryPending], next_token: 'abc' }],
  'workout-collection': [{ records: [workout] }],
  'lab-requisition': [labRequisition],
  'service-request': [serviceRequest],
  'patient-core': [{ id: UUID_A }, extendedPatient],
  patient: [{ id: UUID_A }],
  'extended-lab-patient': [extendedPatient],
  appointment: [{ start_time: T2, service_request_ids: [UUID_B], type: 'IN_PERSON' }],
  'lab-appointment': [labAppointment],
  'collection-address': [collectionAddress],
  'partner-token-request': [partnerTokenRequest],
  'partner-token-response': [partnerTokenResponse],
  'service-request-status-request': [statusRequest],
  'diagnostic-report-create-request': [diagnosticReport],
  'create-observation-request': [observation],
  'test-data-response': [testDataResponse],
};

/** A deep copy of `value` with the location at `pointer` set to `replacement`. */
export function withValue<T>(value: T, pointer: string, replacement: unknown): T {
  const copy = structuredClone(value);
  const { parent, key } = locateParent(copy, pointer);
  (parent as Record<string, unknown>)[key] = replacement;
  return copy;
}

/** A deep copy of `value` without the property at `pointer`. */
export function without<T>(value: T, pointer: string): T {
  const copy = structuredClone(value);
  const { parent, key } = locateParent(copy, pointer);
  delete (parent as Record<string, unknown>)[key];
  return copy;
}

function locateParent(root: unknown, pointer: string): { parent: object; key: string } {
  const tokens = pointer.split('/').slice(1);
  const key = tokens.pop();
  let parent: unknown = root;
  for (const token of tokens) parent = (parent as Record<string, unknown>)[token];
  if (key === undefined || typeof parent !== 'object' || parent === null)
    throw new Error(`bad pointer ${pointer}`);
  return { parent, key };
}
