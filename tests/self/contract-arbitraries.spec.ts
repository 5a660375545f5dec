/**
 * Property tests of the schema-derived arbitraries (`src/contract/arbitraries.ts`) against the
 * validator: generated valid instances of every schema validate (after a JSON round trip, without
 * notes); generated invalid ones never do, and the validator reports the very rule and pointer the
 * generator broke. fast-check prints the seed and the shrunk counterexample on failure.
 *
 * Inside properties and sweeps the checks are node:assert, not Playwright's expect: each expect call is a
 * test step with a captured, source-mapped stack, and these tests make thousands of them.
 */
import assert from 'node:assert/strict';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import {
  arbitraryFromSchema,
  type InvalidCase,
  invalidArbitrary,
  invalidArbitraryFromSchema,
  invalidParameterValues,
  mutationsAt,
  validArbitrary,
  validParameterValues,
} from '../../src/contract/arbitraries.ts';
import { schemaAt } from '../../src/contract/schema-refs.ts';
import type { JsonSchemaObject } from '../../src/contract/schemas.ts';
import { schemaNames } from '../../src/contract/schemas.ts';
import { formatViolation, validate, validateAgainst } from '../../src/contract/validators.ts';

const RUNS = { numRuns: 100 };
/** `common` only holds $defs: it has no instances of its own. */
const resourceSchemas = schemaNames.filter((name) => name !== 'common');

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function assertReported(errors: ReturnType<typeof validate>['errors'], broken: InvalidCase): void {
  const detail = `${broken.description}: ${broken.rule} at '${broken.pointer}' not among\n${errors.map(formatViolation).join('\n')}`;
  assert.ok(
    errors.some((e) => e.rule === broken.rule && e.pointer === broken.pointer),
    detail,
  );
}

/** `broken`, after a JSON round trip, does not validate against `name`, and the rule it breaks is reported. */
function assertRefused(name: string, broken: InvalidCase): void {
  const result = validate(name, roundTrip(broken.value));
  assert.equal(result.valid, false, broken.description);
  assertReported(result.errors, broken);
}

test.describe('@property valid instances always validate', () => {
  for (const name of resourceSchemas) {
    test(name, () => {
      fc.assert(
        fc.property(validArbitrary(name), (instance) => {
          const result = validate(name, roundTrip(instance));
          assert.deepEqual(result.errors.map(formatViolation), []);
          assert.deepEqual(result.notes, []);
        }),
        RUNS,
      );
    });
  }
});

test.describe('@property invalid instances never validate, and the broken rule is reported', () => {
  for (const name of resourceSchemas) {
    test(name, () => {
      fc.assert(
        fc.property(invalidArbitrary(name), (broken) => assertRefused(name, broken)),
        RUNS,
      );
    });
  }

  test('every score/score_state case is generated for cycle, sleep and recovery', () => {
    for (const name of ['cycle', 'sleep', 'recovery']) {
      const descriptions = new Set(
        fc.sample(invalidArbitrary(name), { numRuns: 3000, seed: 42 }).map((c) => c.description),
      );
      expect([...descriptions], name).toEqual(
        expect.arrayContaining([
          'score absent while score_state SCORED',
          'score present while score_state PENDING_SCORE/UNSCORABLE',
        ]),
      );
    }
  });
});

test.describe('every labelled mutation, a few seeded instances each (deterministic sweep)', () => {
  for (const name of resourceSchemas) {
    test(name, () => {
      const mutations = mutationsAt(schemaAt(name));
      expect(mutations.length).toBeGreaterThan(0);
      for (const m of mutations) {
        for (const value of fc.sample(m.arbitrary, { numRuns: 3, seed: 11 })) {
          assertRefused(name, { value, rule: m.rule, pointer: m.pointer, description: m.description });
        }
      }
    });
  }
});

/** The collection and path parameters of the seed (Endpoints), transcribed. */
const PARAMETERS: Record<string, JsonSchemaObject> = {
  limit: { type: 'integer', format: 'int32', maximum: 25, default: 10 },
  start: { type: 'string', format: 'date-time' },
  cycleId: { type: 'integer', format: 'int64' },
  sleepId: { type: 'string', format: 'uuid' },
  appointmentType: { type: 'string', enum: ['IN_PERSON', 'MOBILE', 'VIRTUAL'], default: 'IN_PERSON' },
};

/** How a server reads a parameter string: numbers for numeric schemas when the text is numeric. */
function parse(schema: JsonSchemaObject, text: string): unknown {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return numeric && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text) ? Number(text) : text;
}

test.describe('@property parameter values', () => {
  for (const [name, schema] of Object.entries(PARAMETERS)) {
    test(`${name}: valid strings parse to valid values, invalid ones break their labelled rule`, () => {
      fc.assert(
        fc.property(validParameterValues(schema), (text) => {
          assert.equal(typeof text, 'string');
          assert.deepEqual(validateAgainst(schema, parse(schema, text)).errors.map(formatViolation), []);
        }),
        RUNS,
      );
      const invalid = invalidParameterValues(schema);
      if (invalid === undefined) throw new Error(`${name} has no invalid values`);
      fc.assert(
        fc.property(invalid, (broken) => {
          assert.equal(typeof broken.value, 'string');
          const result = validateAgainst(schema, parse(schema, broken.value));
          assert.equal(result.valid, false, broken.value);
          assertReported(result.errors, broken);
        }),
        RUNS,
      );
    });
  }

  test('limit (int32, maximum 25): over the maximum, non-integers, non-numbers, out of int32', () => {
    const cases = fc.sample(
      invalidParameterValues(PARAMETERS.limit as JsonSchemaObject) as fc.Arbitrary<InvalidCase<string>>,
      {
        numRuns: 500,
        seed: 7,
      },
    );
    const byRule = (rule: string) => new Set(cases.filter((c) => c.rule === rule).map((c) => c.value));
    expect([...byRule('maximum')].every((v) => Number(v) > 25 && Number.isInteger(Number(v)))).toBe(true);
    expect([...byRule('type')].sort()).toEqual(['', '1.5', 'abc']);
    expect([...byRule('format')].every((v) => Number(v) < -(2 ** 31))).toBe(true);
  });

  test('a plain string parameter has no invalid values', () => {
    expect(invalidParameterValues({ type: 'string' })).toBeUndefined();
  });
});

test.describe('single schemas (request bodies and parameters)', () => {
  const rulesOf = (schema: JsonSchemaObject) =>
    new Map(
      fc
        .sample(invalidArbitraryFromSchema(schema), { numRuns: 400, seed: 1 })
        .map((c) => [String(c.value), c.rule]),
    );

  test('date-time: not-a-date is a format violation, a number a type violation', () => {
    const rules = rulesOf({ type: 'string', format: 'date-time' });
    expect(rules.get('not-a-date')).toBe('format');
    expect(rules.get('42')).toBe('type');
  });

  test("uuid: 'abc' is a format violation", () => {
    expect(rulesOf({ type: 'string', format: 'uuid' }).get('abc')).toBe('format');
  });

  test('integer int32 with maximum 25 in a JSON body: 26 and up, 1.5, strings', () => {
    const cases = fc.sample(invalidArbitraryFromSchema({ type: 'integer', format: 'int32', maximum: 25 }), {
      numRuns: 400,
      seed: 3,
    });
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(['type', 'maximum', 'format']));
    expect(cases.filter((c) => c.value === 1.5 || c.value === 'abc').every((c) => c.rule === 'type')).toBe(
      true,
    );
  });

  test('arbitraryFromSchema resolves refs relative to rootName', () => {
    const schema = { $ref: 'common.json#/$defs/timezoneOffset' };
    fc.assert(
      fc.property(arbitraryFromSchema(schema, 'cycle'), (offset) => {
        assert.match(String(offset), /^(Z|[+-]\d\d:\d\d)$/);
      }),
      RUNS,
    );
  });

  test('unsupported keywords are refused, not ignored', () => {
    expect(() => arbitraryFromSchema({ type: 'string', contentEncoding: 'base64' })).toThrow(
      /unsupported keyword/,
    );
    expect(() => invalidArbitraryFromSchema({})).toThrow(/admits every value/);
  });
});
