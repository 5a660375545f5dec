/**
 * Rule-by-rule self-tests of the schemas, table-driven and transcribed from the seed:
 * - the Required columns (removing a required field is a `required` violation at its pointer,
 *   removing an optional one is accepted);
 * - one hand-made negative instance per rule, with the rule and pointer the validator must report;
 * - variations the seed allows, which must be accepted.
 */
import { expect, test } from '@playwright/test';
import { formatViolation, validate } from '../../src/contract/validators.ts';
import * as fx from './contract-fixtures.ts';
import { validInstances, without, withValue } from './contract-fixtures.ts';

const page = (records: unknown[]) => ({ records });
const appointment = validInstances.appointment?.[0];
const envelopes = [
  'paginated-cycle-response',
  'paginated-sleep-response',
  'recovery-collection',
  'workout-collection',
];

/** Cycle/Sleep/Recovery `score` is in neither list: its presence depends on score_state. */
// biome-ignore format: one resource per line reads as the seed's tables
const SEED_FIELDS: readonly { schema: string; instance: unknown; required: string[]; optional: string[] }[] = [
  { schema: 'cycle', instance: fx.cycleScored, required: ['id', 'user_id', 'created_at', 'updated_at', 'start', 'timezone_offset', 'score_state'], optional: ['end'] },
  { schema: 'cycle-score', instance: fx.cycleScore, required: ['strain', 'kilojoule', 'average_heart_rate', 'max_heart_rate'], optional: [] },
  { schema: 'sleep', instance: fx.sleepScored, required: ['id', 'cycle_id', 'user_id', 'created_at', 'updated_at', 'start', 'end', 'timezone_offset', 'nap', 'score_state'], optional: ['v1_id'] },
  { schema: 'sleep-score', instance: fx.sleepScore, required: ['stage_summary', 'sleep_needed'], optional: ['respiratory_rate', 'sleep_performance_percentage', 'sleep_consistency_percentage', 'sleep_efficiency_percentage'] },
  { schema: 'sleep-stage-summary', instance: fx.sleepScore.stage_summary, required: ['total_in_bed_time_milli', 'total_awake_time_milli', 'total_no_data_time_milli', 'total_light_sleep_time_milli', 'total_slow_wave_sleep_time_milli', 'total_rem_sleep_time_milli', 'sleep_cycle_count', 'disturbance_count'], optional: [] },
  { schema: 'sleep-needed', instance: fx.sleepScore.sleep_needed, required: ['baseline_milli', 'need_from_sleep_debt_milli', 'need_from_recent_strain_milli', 'need_from_recent_nap_milli'], optional: [] },
  { schema: 'recovery', instance: fx.recoveryScored, required: ['cycle_id', 'sleep_id', 'user_id', 'created_at', 'updated_at', 'score_state'], optional: [] },
  { schema: 'recovery-score', instance: fx.recoveryScore, required: ['user_calibrating', 'recovery_score', 'resting_heart_rate', 'hrv_rmssd_milli'], optional: ['spo2_percentage', 'skin_temp_celsius'] },
  { schema: 'workout', instance: fx.workout, required: [], optional: ['id', 'v1_id', 'user_id', 'created_at', 'updated_at', 'start', 'end', 'timezone_offset', 'sport_name', 'sport_id', 'score_state', 'score'] },
  { schema: 'workout-score', instance: fx.workout.score, required: [], optional: ['strain', 'average_heart_rate', 'max_heart_rate', 'kilojoule', 'percent_recorded', 'distance_meter', 'altitude_gain_meter', 'altitude_change_meter', 'zone_durations'] },
  { schema: 'zone-durations', instance: fx.workout.score.zone_durations, required: [], optional: ['zone_zero_milli', 'zone_one_milli', 'zone_two_milli', 'zone_three_milli', 'zone_four_milli', 'zone_five_milli'] },
  { schema: 'user-body-measurement', instance: fx.bodyMeasurement, required: ['height_meter', 'weight_kilogram', 'max_heart_rate'], optional: [] },
  { schema: 'user-basic-profile', instance: fx.basicProfile, required: [], optional: ['user_id', 'email', 'first_name', 'last_name'] },
  { schema: 'activity-id-mapping-response', instance: fx.activityMapping, required: ['v2_activity_id'], optional: [] },
  ...envelopes.map((schema) => ({ schema, instance: { ...(validInstances[schema]?.[0] as object), next_token: 'x' }, required: ['records'], optional: ['next_token'] })),
  { schema: 'lab-requisition', instance: fx.labRequisition, required: ['id', 'created_at', 'updated_at', 'service_requests', 'patient', 'appointments'], optional: [] },
  { schema: 'service-request', instance: fx.serviceRequest, required: ['id', 'status', 'intent', 'code'], optional: ['task_business_status', 'task_description'] },
  { schema: 'patient', instance: { id: fx.extendedPatient.id }, required: ['id'], optional: [] },
  { schema: 'extended-lab-patient', instance: fx.extendedPatient, required: ['id', 'first_name', 'last_name', 'birth_date'], optional: ['gender', 'email', 'phone', 'nationality', 'emirates_id', 'passport_no'] },
  { schema: 'appointment', instance: appointment, required: ['start_time', 'service_request_ids'], optional: ['type'] },
  { schema: 'lab-appointment', instance: fx.labAppointment, required: ['start_time', 'service_request_ids'], optional: ['type', 'slot_id', 'collection_address'] },
  { schema: 'collection-address', instance: fx.collectionAddress, required: ['building', 'area', 'emirate'], optional: ['landmark', 'flat_no'] },
  { schema: 'partner-token-request', instance: fx.partnerTokenRequest, required: ['client_id', 'client_secret'], optional: ['scope', 'grant_type'] },
  { schema: 'partner-token-response', instance: fx.partnerTokenResponse, required: ['access_token', 'expires_in', 'token_type'], optional: [] },
  { schema: 'service-request-status-request', instance: fx.statusRequest, required: [], optional: ['task_business_status', 'reason'] },
  { schema: 'diagnostic-report-create-request', instance: fx.diagnosticReport, required: [], optional: ['status', 'observations'] },
  { schema: 'create-observation-request', instance: fx.observation, required: [], optional: ['value_numeric', 'value_text', 'unit', 'status', 'code', 'bundle_id'] },
  { schema: 'test-data-response', instance: fx.testDataResponse, required: ['requisition_id'], optional: [] },
];

test.describe('required fields, as the seed gives them', () => {
  for (const { schema, instance, required, optional } of SEED_FIELDS) {
    test(`${schema}: ${required.length} required, ${optional.length} optional`, () => {
      for (const field of required) {
        const result = validate(schema, without(instance, `/${field}`));
        expect(result.valid, `${schema} without ${field}`).toBe(false);
        expect(
          result.errors.map((e) => [e.rule, e.pointer]),
          field,
        ).toContainEqual(['required', `/${field}`]);
      }
      for (const field of optional) {
        expect(instance, `the fixture must carry ${field}`).toHaveProperty([field]);
        const result = validate(schema, without(instance, `/${field}`));
        expect(result.errors.map(formatViolation), `${schema} without ${field}`).toEqual([]);
      }
    });
  }
});

type Row = readonly [
  schema: string,
  description: string,
  instance: unknown,
  expectedRule: string,
  expectedPointer: string,
];

/** One hand-made negative instance per rule: [schema, description, instance, expected rule, expected pointer]. */
// biome-ignore format: one row per line reads as a table
const NEGATIVES: readonly Row[] = [
  // Cycle
  ['cycle', 'strain above 21', withValue(fx.cycleScored, '/score/strain', 21.5), 'maximum', '/score/strain'],
  ['cycle', 'strain below 0', withValue(fx.cycleScored, '/score/strain', -0.1), 'minimum', '/score/strain'],
  ['cycle', 'timezone offset without leading zero', withValue(fx.cycleScored, '/timezone_offset', '+5:00'), 'pattern', '/timezone_offset'],
  ['cycle', 'timezone offset as a zone name', withValue(fx.cycleScored, '/timezone_offset', 'UTC'), 'pattern', '/timezone_offset'],
  ['cycle', 'timezone offset without colon', withValue(fx.cycleScored, '/timezone_offset', '+0530'), 'pattern', '/timezone_offset'],
  ['cycle', 'id as a string', withValue(fx.cycleScored, '/id', '93845'), 'type', '/id'],
  ['cycle', 'id not an integer', withValue(fx.cycleScored, '/id', 1.5), 'type', '/id'],
  ['cycle', 'user_id beyond int64 (safe range)', withValue(fx.cycleScored, '/user_id', 2 ** 53), 'format', '/user_id'],
  ['cycle', 'average_heart_rate beyond int32', withValue(fx.cycleScored, '/score/average_heart_rate', 2 ** 31), 'format', '/score/average_heart_rate'],
  ['cycle', 'kilojoule beyond float', withValue(fx.cycleScored, '/score/kilojoule', 1e39), 'format', '/score/kilojoule'],
  ['cycle', 'created_at not a date-time', withValue(fx.cycleScored, '/created_at', 'yesterday'), 'format', '/created_at'],
  ['cycle', 'start without time zone', withValue(fx.cycleScored, '/start', '2024-03-01T06:30:00'), 'format', '/start'],
  ['cycle', 'unknown score_state', withValue(fx.cycleScored, '/score_state', 'DONE'), 'enum', '/score_state'],
  ['cycle', 'score present while PENDING_SCORE', withValue(fx.cycleScored, '/score_state', 'PENDING_SCORE'), 'oneOf', ''],
  ['cycle', 'score present while UNSCORABLE', { ...fx.cyclePending, score_state: 'UNSCORABLE', score: fx.cycleScore }, 'oneOf', ''],
  ['cycle', 'score absent while SCORED', without(fx.cycleScored, '/score'), 'oneOf', ''],
  ['cycle', 'score missing a field', without(fx.cycleScored, '/score/kilojoule'), 'required', '/score/kilojoule'],
  ['cycle', 'not an object', [fx.cycleScored], 'type', ''],
  // Sleep
  ['sleep', 'V1 integer id', withValue(fx.sleepScored, '/id', 93845), 'type', '/id'],
  ['sleep', 'id not a uuid', withValue(fx.sleepScored, '/id', 'abc'), 'format', '/id'],
  ['sleep', 'nap not a boolean', withValue(fx.sleepScored, '/nap', 'no'), 'type', '/nap'],
  ['sleep', 'cycle_id as a string', withValue(fx.sleepScored, '/cycle_id', 'x'), 'type', '/cycle_id'],
  ['sleep', 'performance above 100', withValue(fx.sleepScored, '/score/sleep_performance_percentage', 100.5), 'maximum', '/score/sleep_performance_percentage'],
  ['sleep', 'performance below 0', withValue(fx.sleepScored, '/score/sleep_performance_percentage', -1), 'minimum', '/score/sleep_performance_percentage'],
  ['sleep', 'consistency above 100', withValue(fx.sleepScored, '/score/sleep_consistency_percentage', 101), 'maximum', '/score/sleep_consistency_percentage'],
  ['sleep', 'consistency below 0', withValue(fx.sleepScored, '/score/sleep_consistency_percentage', -0.5), 'minimum', '/score/sleep_consistency_percentage'],
  ['sleep', 'efficiency above 100', withValue(fx.sleepScored, '/score/sleep_efficiency_percentage', 100.01), 'maximum', '/score/sleep_efficiency_percentage'],
  ['sleep', 'efficiency below 0', withValue(fx.sleepScored, '/score/sleep_efficiency_percentage', -3), 'minimum', '/score/sleep_efficiency_percentage'],
  ['sleep', 'positive nap need', withValue(fx.sleepScored, '/score/sleep_needed/need_from_recent_nap_milli', 1), 'maximum', '/score/sleep_needed/need_from_recent_nap_milli'],
  ['sleep', 'sleep need not an integer', withValue(fx.sleepScored, '/score/sleep_needed/baseline_milli', 1.5), 'type', '/score/sleep_needed/baseline_milli'],
  ['sleep', 'stage duration beyond int32', withValue(fx.sleepScored, '/score/stage_summary/total_in_bed_time_milli', 2 ** 31), 'format', '/score/stage_summary/total_in_bed_time_milli'],
  ['sleep', 'stage summary missing a count', without(fx.sleepScored, '/score/stage_summary/disturbance_count'), 'required', '/score/stage_summary/disturbance_count'],
  ['sleep', 'score without stage_summary', without(fx.sleepScored, '/score/stage_summary'), 'required', '/score/stage_summary'],
  ['sleep', 'score present while UNSCORABLE', { ...fx.sleepUnscorable, score: fx.sleepScore }, 'oneOf', ''],
  ['sleep', 'score absent while SCORED', without(fx.sleepScored, '/score'), 'oneOf', ''],
  ['sleep', 'end missing', without(fx.sleepUnscorable, '/end'), 'required', '/end'],
  // Recovery
  ['recovery', 'V1 integer sleep_id', withValue(fx.recoveryScored, '/sleep_id', 93845), 'type', '/sleep_id'],
  ['recovery', 'sleep_id not a uuid', withValue(fx.recoveryScored, '/sleep_id', 'abc'), 'format', '/sleep_id'],
  ['recovery', 'recovery_score above 100', withValue(fx.recoveryScored, '/score/recovery_score', 101), 'maximum', '/score/recovery_score'],
  ['recovery', 'recovery_score below 0', withValue(fx.recoveryScored, '/score/recovery_score', -1), 'minimum', '/score/recovery_score'],
  ['recovery', 'spo2 above 100', withValue(fx.recoveryScored, '/score/spo2_percentage', 100.1), 'maximum', '/score/spo2_percentage'],
  ['recovery', 'spo2 below 0', withValue(fx.recoveryScored, '/score/spo2_percentage', -2), 'minimum', '/score/spo2_percentage'],
  ['recovery', 'user_calibrating not a boolean', withValue(fx.recoveryScored, '/score/user_calibrating', 'false'), 'type', '/score/user_calibrating'],
  ['recovery', 'score without hrv', without(fx.recoveryScored, '/score/hrv_rmssd_milli'), 'required', '/score/hrv_rmssd_milli'],
  ['recovery', 'score present while PENDING_SCORE', { ...fx.recoveryPending, score: fx.recoveryScore }, 'oneOf', ''],
  ['recovery', 'score absent while SCORED', without(fx.recoveryScored, '/score'), 'oneOf', ''],
  // Workout
  ['workout', 'V1 integer id', withValue(fx.workout, '/id', 1043), 'type', '/id'],
  ['workout', 'V1 zone_duration (singular)', withValue(fx.workout, '/score/zone_duration', {}), 'not', '/score/zone_duration'],
  ['workout', 'strain above 21', withValue(fx.workout, '/score/strain', 21.01), 'maximum', '/score/strain'],
  ['workout', 'strain below 0', withValue(fx.workout, '/score/strain', -1), 'minimum', '/score/strain'],
  ['workout', 'percent_recorded above 100', withValue(fx.workout, '/score/percent_recorded', 100.5), 'maximum', '/score/percent_recorded'],
  ['workout', 'percent_recorded below 0', withValue(fx.workout, '/score/percent_recorded', -1), 'minimum', '/score/percent_recorded'],
  ['workout', 'unknown score_state', withValue(fx.workout, '/score_state', 'scored'), 'enum', '/score_state'],
  ['workout', 'timezone offset with seconds', withValue(fx.workout, '/timezone_offset', '+05:00:00'), 'pattern', '/timezone_offset'],
  ['workout', 'zone duration as a string', withValue(fx.workout, '/score/zone_durations/zone_two_milli', '900000'), 'type', '/score/zone_durations/zone_two_milli'],
  ['workout', 'sport_id not an integer', withValue(fx.workout, '/sport_id', 1.5), 'type', '/sport_id'],
  // User data
  ['user-body-measurement', 'height as a string', withValue(fx.bodyMeasurement, '/height_meter', '1.8'), 'type', '/height_meter'],
  ['user-body-measurement', 'weight beyond float', withValue(fx.bodyMeasurement, '/weight_kilogram', 1e300), 'format', '/weight_kilogram'],
  ['user-body-measurement', 'max_heart_rate not an integer', withValue(fx.bodyMeasurement, '/max_heart_rate', 180.5), 'type', '/max_heart_rate'],
  ['user-basic-profile', 'user_id as a string', withValue(fx.basicProfile, '/user_id', '10129'), 'type', '/user_id'],
  ['activity-id-mapping-response', 'V1 integer id instead of uuid', { v2_activity_id: 1043 }, 'type', '/v2_activity_id'],
  ['activity-id-mapping-response', 'id not a uuid', { v2_activity_id: 'not-a-uuid' }, 'format', '/v2_activity_id'],
  // Pagination envelopes
  ['paginated-cycle-response', 'records missing', { next_token: 'x' }, 'required', '/records'],
  ['paginated-cycle-response', 'records not an array', { records: fx.cycleScored }, 'type', '/records'],
  ['paginated-cycle-response', 'next_token not a string', { records: [], next_token: 5 }, 'type', '/next_token'],
  ['paginated-cycle-response', 'second record with strain above 21', page([fx.cyclePending, withValue(fx.cycleScored, '/score/strain', 22.5)]), 'maximum', '/records/1/score/strain'],
  ['paginated-sleep-response', 'record with V1 integer id', page([withValue(fx.sleepScored, '/id', 1)]), 'type', '/records/0/id'],
  ['recovery-collection', 'record with score while PENDING_SCORE', page([{ ...fx.recoveryPending, score: fx.recoveryScore }]), 'oneOf', '/records/0'],
  ['workout-collection', 'record with zone_duration', page([withValue(fx.workout, '/score/zone_duration', {})]), 'not', '/records/0/score/zone_duration'],
  // Partner resources
  ['lab-requisition', 'id not a uuid', withValue(fx.labRequisition, '/id', '42'), 'format', '/id'],
  ['lab-requisition', 'patient without id', without(fx.labRequisition, '/patient/id'), 'required', '/patient/id'],
  ['lab-requisition', 'patient id not a uuid', withValue(fx.labRequisition, '/patient/id', 'p-1'), 'format', '/patient/id'],
  ['lab-requisition', 'patient not an object', withValue(fx.labRequisition, '/patient', 'p-1'), 'type', '/patient'],
  ['lab-requisition', 'service request without code', without(fx.labRequisition, '/service_requests/0/code'), 'required', '/service_requests/0/code'],
  ['lab-requisition', 'collection address without building', without(fx.labRequisition, '/appointments/0/collection_address/building'), 'required', '/appointments/0/collection_address/building'],
  ['lab-requisition', 'appointment without start_time', without(fx.labRequisition, '/appointments/0/start_time'), 'required', '/appointments/0/start_time'],
  ['lab-requisition', 'service_request_ids item not a uuid', withValue(fx.labRequisition, '/appointments/0/service_request_ids/0', 'sr-1'), 'format', '/appointments/0/service_request_ids/0'],
  ['lab-requisition', 'slot_id not a string', withValue(fx.labRequisition, '/appointments/0/slot_id', 42), 'type', '/appointments/0/slot_id'],
  ['service-request', 'status not a string', withValue(fx.serviceRequest, '/status', 1), 'type', '/status'],
  ['extended-lab-patient', 'birth_date not a date', withValue(fx.extendedPatient, '/birth_date', '12/04/1990'), 'format', '/birth_date'],
  ['extended-lab-patient', 'birth_date impossible day', withValue(fx.extendedPatient, '/birth_date', '1990-02-30'), 'format', '/birth_date'],
  ['extended-lab-patient', 'birth_date as a date-time', withValue(fx.extendedPatient, '/birth_date', '1990-04-12T00:00:00Z'), 'format', '/birth_date'],
  ['extended-lab-patient', 'gender not a string', withValue(fx.extendedPatient, '/gender', 1), 'type', '/gender'],
  ['patient-core', 'no id', { first_name: 'A' }, 'required', '/id'],
  ['collection-address', 'area missing', without(fx.collectionAddress, '/area'), 'required', '/area'],
  ['collection-address', 'emirate missing', without(fx.collectionAddress, '/emirate'), 'required', '/emirate'],
  ['collection-address', 'landmark not a string', withValue(fx.collectionAddress, '/landmark', 3), 'type', '/landmark'],
  ['appointment', 'service_request_ids not an array', withValue(appointment, '/service_request_ids', 'x'), 'type', '/service_request_ids'],
  ['partner-token-request', 'client_secret missing', without(fx.partnerTokenRequest, '/client_secret'), 'required', '/client_secret'],
  ['partner-token-request', 'scope not a string', withValue(fx.partnerTokenRequest, '/scope', ['a']), 'type', '/scope'],
  ['partner-token-response', 'expires_in as a string', withValue(fx.partnerTokenResponse, '/expires_in', '3600'), 'type', '/expires_in'],
  ['partner-token-response', 'expires_in beyond int32', withValue(fx.partnerTokenResponse, '/expires_in', 2 ** 31), 'format', '/expires_in'],
  ['partner-token-response', 'token_type missing', without(fx.partnerTokenResponse, '/token_type'), 'required', '/token_type'],
  ['service-request-status-request', 'reason not a string', withValue(fx.statusRequest, '/reason', 5), 'type', '/reason'],
  ['diagnostic-report-create-request', 'observation bundle_id not a uuid', withValue(fx.diagnosticReport, '/observations/0/bundle_id', 'nope'), 'format', '/observations/0/bundle_id'],
  ['diagnostic-report-create-request', 'observations not an array', withValue(fx.diagnosticReport, '/observations', {}), 'type', '/observations'],
  ['create-observation-request', 'value_numeric as a string', withValue(fx.observation, '/value_numeric', '13.5'), 'type', '/value_numeric'],
  ['test-data-response', 'requisition_id not a uuid', { requisition_id: 7 }, 'type', '/requisition_id'],
];

test.describe('each rule rejects a hand-made instance', () => {
  for (const [schema, description, instance, expectedRule, expectedPointer] of NEGATIVES) {
    test(`${schema}: ${description} → ${expectedRule} at ${expectedPointer || '(root)'}`, () => {
      const result = validate(schema, instance);
      expect(result.valid).toBe(false);
      const found = result.errors.map((e) => ({ rule: e.rule, pointer: e.pointer }));
      expect(found, result.errors.map(formatViolation).join('\n')).toContainEqual({
        rule: expectedRule,
        pointer: expectedPointer,
      });
    });
  }
});

/** Variations the seed allows (or does not forbid): [schema, description, instance]. */
// biome-ignore format: one row per line reads as a table
const ACCEPTED: readonly (readonly [schema: string, description: string, instance: unknown])[] = [
  ['cycle', 'current cycle without end', without(fx.cycleScored, '/end')],
  ['cycle', 'step_count present', { ...fx.cycleScored, step_count: 8421 }],
  ['cycle', "timezone offset 'Z'", withValue(fx.cycleScored, '/timezone_offset', 'Z')],
  ['cycle', 'timezone offset +14:00', withValue(fx.cycleScored, '/timezone_offset', '+14:00')],
  ['cycle', 'strain exactly 0', withValue(fx.cycleScored, '/score/strain', 0)],
  ['cycle', 'strain exactly 21', withValue(fx.cycleScored, '/score/strain', 21)],
  ['cycle', 'date-time with an offset', withValue(fx.cycleScored, '/start', '2024-03-01T06:30:00+04:00')],
  ['sleep', 'nap need exactly 0', withValue(fx.sleepScored, '/score/sleep_needed/need_from_recent_nap_milli', 0)],
  ['sleep', 'percentages 0 and 100', withValue(withValue(fx.sleepScored, '/score/sleep_performance_percentage', 0), '/score/sleep_efficiency_percentage', 100)],
  ['sleep', 'without v1_id (past 2025-09-01)', without(fx.sleepScored, '/v1_id')],
  ['recovery', 'score without the 4.0-generation fields', without(without(fx.recoveryScored, '/score/spo2_percentage'), '/score/skin_temp_celsius')],
  ['workout', 'SCORED without score (the iff is not stated for workouts)', without(fx.workout, '/score')],
  ['workout', 'PENDING_SCORE with score (the iff is not stated for workouts)', withValue(fx.workout, '/score_state', 'PENDING_SCORE')],
  ['workout', 'negative altitude change', withValue(fx.workout, '/score/altitude_change_meter', -12.5)],
  ['workout', 'empty record (requiredness not shown)', {}],
  ['user-basic-profile', 'empty profile (requiredness not shown)', {}],
  ['paginated-cycle-response', 'empty last page', { records: [] }],
  ['lab-requisition', 'plain Patient variant', withValue(fx.labRequisition, '/patient', { id: fx.extendedPatient.id })],
  ['lab-requisition', 'extended patient with a bad birth_date still matches the plain Patient variant (anyOf)', withValue(fx.labRequisition, '/patient/birth_date', 'not-a-date')],
  ['lab-requisition', 'appointment without collection_address', without(fx.labRequisition, '/appointments/0/collection_address')],
  ['partner-token-request', 'minimal body', { client_id: 'a', client_secret: 'b' }],
  ['partner-token-response', 'token_type in another case', { ...fx.partnerTokenResponse, token_type: 'Bearer' }],
  ['diagnostic-report-create-request', 'empty body', {}],
];

test.describe('accepted variations', () => {
  for (const [schema, description, instance] of ACCEPTED) {
    test(`${schema}: ${description}`, () => {
      expect(validate(schema, instance).errors.map(formatViolation)).toEqual([]);
    });
  }
});
