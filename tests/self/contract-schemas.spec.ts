/**
 * Self-tests of the resource schemas (`schemas/`) and their validator (`src/contract/validators.ts`):
 * the files and their metadata, strict-mode compilation, the valid fixtures, unknown-property notes
 * and the messages of violations. The rule-by-rule tables are in `contract-rules.spec.ts`.
 */
import { expect, test } from '@playwright/test';
import {
  isJsonObject,
  type JsonSchemaObject,
  loadSchemas,
  schemaIdFor,
  schemaNames,
} from '../../src/contract/schemas.ts';
import {
  assertValid,
  compileAll,
  formatNote,
  formatViolation,
  validate,
  validatorFor,
} from '../../src/contract/validators.ts';
import * as fx from './contract-fixtures.ts';
import { validInstances, without, withValue } from './contract-fixtures.ts';

/** File → the seed's resource name. */
const EXPECTED_TITLES: Record<string, string> = {
  common: 'Common definitions',
  cycle: 'Cycle',
  'cycle-score': 'CycleScore',
  sleep: 'Sleep',
  'sleep-score': 'SleepScore',
  'sleep-stage-summary': 'SleepStageSummary',
  'sleep-needed': 'SleepNeeded',
  recovery: 'Recovery',
  'recovery-score': 'RecoveryScore',
  workout: 'WorkoutV2',
  'workout-score': 'WorkoutScore',
  'zone-durations': 'ZoneDurations',
  'user-body-measurement': 'UserBodyMeasurement',
  'user-basic-profile': 'UserBasicProfile',
  'activity-id-mapping-response': 'ActivityIdMappingResponse',
  'paginated-cycle-response': 'PaginatedCycleResponse',
  'paginated-sleep-response': 'PaginatedSleepResponse',
  'recovery-collection': 'RecoveryCollection',
  'workout-collection': 'WorkoutCollection',
  'lab-requisition': 'LabRequisition',
  'service-request': 'ServiceRequest',
  'patient-core': 'PatientCore',
  patient: 'Patient',
  'extended-lab-patient': 'Extended lab patient',
  appointment: 'Appointment',
  'lab-appointment': 'Lab appointment',
  'collection-address': 'CollectionAddress',
  'partner-token-request': 'PartnerTokenRequest',
  'partner-token-response': 'PartnerTokenResponse',
  'service-request-status-request': 'ServiceRequestStatusRequest',
  'diagnostic-report-create-request': 'DiagnosticReportCreateRequest',
  'create-observation-request': 'CreateObservationRequest',
  'test-data-response': 'TestDataResponse',
};

/** Every subschema of every file, with its location. */
function* walk(node: unknown, where: string): Generator<[JsonSchemaObject, string]> {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) yield* walk(child, `${where}/${i}`);
  } else if (isJsonObject(node)) {
    yield [node, where];
    for (const [key, child] of Object.entries(node)) yield* walk(child, `${where}/${key}`);
  }
}

test.describe('schema files', () => {
  test('exactly the expected files, each with $schema, $id, title and description', () => {
    expect([...schemaNames].sort()).toEqual(Object.keys(EXPECTED_TITLES).sort());
    for (const [name, schema] of Object.entries(loadSchemas())) {
      expect(schema.$schema, name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id, name).toBe(schemaIdFor(name));
      expect(schema.title, name).toBe(EXPECTED_TITLES[name]);
      expect(typeof schema.description === 'string' && schema.description.length > 20, name).toBe(true);
    }
  });

  for (const name of schemaNames) {
    test(`${name} compiles in Ajv strict mode`, () => {
      expect(() => validatorFor(name)).not.toThrow();
    });
  }

  test('the unknown-property validators compile too', () => {
    expect(() => compileAll()).not.toThrow();
  });

  test('unknown properties are allowed and if/then is not used (Prism ignores it)', () => {
    for (const [name, schema] of Object.entries(loadSchemas())) {
      for (const [node, where] of walk(schema, `${name}.json#`)) {
        expect(node.additionalProperties, where).not.toBe(false);
        expect(node.unevaluatedProperties, where).toBeUndefined();
        expect(node.if, where).toBeUndefined();
      }
    }
  });

  test('refs are relative to the schema files', () => {
    for (const [name, schema] of Object.entries(loadSchemas())) {
      for (const [node, where] of walk(schema, `${name}.json#`)) {
        if (typeof node.$ref === 'string') expect(node.$ref, where).toMatch(/^([a-z0-9-]+\.json)?(#\/.*)?$/);
      }
    }
  });

  for (const name of ['cycle', 'sleep', 'recovery']) {
    test(`${name}: both oneOf branches are complete and agree on every field but score`, () => {
      const branches = loadSchemas()[name]?.oneOf as JsonSchemaObject[];
      expect(branches).toHaveLength(2);
      const [scored, unscored] = branches as [JsonSchemaObject, JsonSchemaObject];
      const props = (b: JsonSchemaObject) => b.properties as Record<string, unknown>;
      const { score, score_state: scoredState, ...scoredRest } = props(scored);
      const { score_state: unscoredState, ...unscoredRest } = props(unscored);
      expect(scoredRest).toEqual(unscoredRest);
      expect(score).toBeDefined();
      const rule = (keyword: string) => ({ 'x-requirement': { [keyword]: 'INV-SCORE-STATE-ENUM' } });
      expect(scoredState).toEqual({ type: 'string', const: 'SCORED', ...rule('const') });
      expect(unscoredState).toEqual({
        type: 'string',
        enum: ['PENDING_SCORE', 'UNSCORABLE'],
        ...rule('enum'),
      });
      expect(scored.required).toEqual([...(unscored.required as string[]), 'score']);
      expect((unscored.not as JsonSchemaObject).required).toEqual(['score']);
    });
  }

  test('the hand-written fixtures are valid and produce no notes', () => {
    for (const name of schemaNames.filter((n) => n !== 'common')) {
      const instances = validInstances[name];
      expect(instances, `fixture for ${name}`).toBeDefined();
      for (const instance of instances ?? []) {
        const result = validate(name, instance);
        expect(result.errors.map(formatViolation), name).toEqual([]);
        expect(result.notes, name).toEqual([]);
      }
    }
  });
});

const page = (records: unknown[]) => ({ records });

test.describe('unknown properties', () => {
  test('are notes, not failures, at every depth', () => {
    const instance = {
      records: [
        { ...fx.cycleScored, extra_top: 1, score: { ...fx.cycleScore, extra_score: true } },
        { ...fx.cyclePending, 'we/ird~key': 2 },
      ],
      extra_envelope: 'x',
    };
    const result = validate('paginated-cycle-response', instance);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.notes.map((n) => n.pointer).sort()).toEqual(
      [
        '/extra_envelope',
        '/records/0/extra_top',
        '/records/0/score/extra_score',
        '/records/1/we~1ird~0key',
      ].sort(),
    );
    expect(result.notes.find((n) => n.pointer === '/extra_envelope')).toEqual({
      schema: 'paginated-cycle-response',
      pointer: '/extra_envelope',
      property: 'extra_envelope',
    });
  });

  test('fields of either PatientCore variant are known; others are notes', () => {
    const result = validate('lab-requisition', withValue(fx.labRequisition, '/patient/blood_type', 'O+'));
    expect(result.valid).toBe(true);
    expect(result.notes.map((n) => n.pointer)).toEqual(['/patient/blood_type']);
  });

  test('fields of the base appointment and of the lab variant are known', () => {
    const result = validate(
      'lab-requisition',
      withValue(fx.labRequisition, '/appointments/0/collection_address/po_box', '1'),
    );
    expect(result.notes.map((n) => n.pointer)).toEqual(['/appointments/0/collection_address/po_box']);
  });

  test('an invalid instance still reports notes where they can be attributed', () => {
    const instance = { ...withValue(fx.workout, '/score/strain', 30), extra: 1 };
    const result = validate('workout', instance);
    expect(result.errors.map((e) => e.rule)).toEqual(['maximum']);
    expect(result.notes.map((n) => n.pointer)).toEqual(['/extra']);
  });

  test('formatNote names the schema, pointer and property', () => {
    expect(formatNote({ schema: 'cycle', pointer: '/extra', property: 'extra' })).toBe(
      "cycle.json /extra: unknown property 'extra' (allowed; note only)",
    );
  });
});

test.describe('violation messages', () => {
  test('name the schema, pointer, rule and value', () => {
    const data = page([
      fx.cyclePending,
      fx.cyclePending,
      fx.cyclePending,
      withValue(fx.cycleScored, '/score/strain', 22.5),
    ]);
    const [violation, ...others] = validate('paginated-cycle-response', data).errors;
    expect(others).toEqual([]);
    expect(violation).toMatchObject({
      schema: 'paginated-cycle-response',
      pointer: '/records/3/score/strain',
      rule: 'maximum',
      value: 22.5,
      location: 'cycle-score.json#/properties/strain/maximum',
    });
    expect(formatViolation(violation as NonNullable<typeof violation>)).toBe(
      'paginated-cycle-response.json /records/3/score/strain: must be <= 21 (maximum), got 22.5 [cycle-score.json#/properties/strain/maximum]',
    );
  });

  test('explain the score/score_state rule instead of a bare oneOf failure', () => {
    const errors = validate('sleep', { ...fx.sleepUnscorable, score: fx.sleepScore }).errors;
    expect(errors).toHaveLength(1);
    expect(formatViolation(errors[0] as NonNullable<(typeof errors)[0]>)).toBe(
      'sleep.json (root): score must be present exactly when score_state is SCORED; here score_state is "UNSCORABLE" and score is present (oneOf), got "UNSCORABLE" [sleep.json#/oneOf]',
    );
    const absent = validate('recovery', without(fx.recoveryScored, '/score')).errors;
    expect(absent.map((e) => e.message)).toEqual([
      'score must be present exactly when score_state is SCORED; here score_state is "SCORED" and score is absent',
    ]);
  });

  test('report the selected variant only: one broken rule, one violation', () => {
    const errors = validate('cycle', withValue(fx.cyclePending, '/timezone_offset', '5')).errors;
    expect(errors.map((e) => [e.rule, e.pointer])).toEqual([['pattern', '/timezone_offset']]);
  });

  test('a missing property is reported at its own pointer, with no value', () => {
    const [violation] = validate('collection-address', without(fx.collectionAddress, '/emirate')).errors;
    expect(violation).toMatchObject({ pointer: '/emirate', rule: 'required', value: undefined });
    expect(formatViolation(violation as NonNullable<typeof violation>)).toContain(
      "must have required property 'emirate' (required), got nothing",
    );
  });

  test('enum violations list the allowed values', () => {
    const [violation] = validate('workout', withValue(fx.workout, '/score_state', 'DONE')).errors;
    expect(violation?.message).toBe('must be one of "SCORED", "PENDING_SCORE", "UNSCORABLE"');
  });

  test('assertValid throws with every violation, and passes valid data', () => {
    expect(() => assertValid('cycle', fx.cycleScored)).not.toThrow();
    const broken = withValue(withValue(fx.cycleScored, '/score/strain', 30), '/id', 'x');
    let message = '';
    try {
      assertValid('cycle', broken, 'GET /v2/cycle/93845');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('GET /v2/cycle/93845');
    expect(message).toContain('(2 violation(s))');
    expect(message).toContain('cycle.json /score/strain: must be <= 21 (maximum), got 30');
    expect(message).toContain('cycle.json /id: must be integer (type), got "x"');
  });

  test('an unknown schema name lists the known ones', () => {
    expect(() => validate('cycles', {})).toThrow(/unknown schema 'cycles'; known schemas: .*cycle/);
  });
});
