/**
 * Self-tests of the requirements schema rules carry (`x-requirement`, src/contract/rule-requirements.ts):
 * every rule of every schema names a requirement of the catalogue, and violations are attributed as the
 * fixed expectations of contract-attribution.json say (recorded from the table the annotations replaced).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { mutationsAt } from '../../src/contract/invalid-arbitraries.ts';
import { REQUIREMENT_KEYWORD } from '../../src/contract/requirement-keyword.ts';
import { findRequirement } from '../../src/contract/requirements.ts';
import {
  attributed,
  conditionalRequirementAt,
  requirementAt,
  requirementsOf,
  rulesOf,
} from '../../src/contract/rule-requirements.ts';
import { schemaAt } from '../../src/contract/schema-refs.ts';
import { isJsonObject, loadSchemas, schemaNames } from '../../src/contract/schemas.ts';
import { formatViolation, validate } from '../../src/contract/validators.ts';

interface Expectations {
  /** schema → `<rule> <pointer>` → requirement. */
  readonly violations: Record<string, Record<string, string>>;
  /** schema → pointer of an unknown property → requirement. */
  readonly unknownProperties: Record<string, Record<string, string>>;
}
const expected = JSON.parse(
  readFileSync(new URL('./contract-attribution.json', import.meta.url), 'utf8'),
) as Expectations;

/** `common` only holds $defs: its rules are checked through the schemas that refer to them. */
const resourceSchemas = schemaNames.filter((name) => name !== 'common');

/** The attribution of every violation the invalid arbitraries produce (as the expectations were recorded). */
function attributions(schema: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const mutation of mutationsAt(schemaAt(schema))) {
    for (const value of fc.sample(mutation.arbitrary, { numRuns: 8, seed: 42 })) {
      for (const violation of validate(schema, value).errors) {
        found[`${violation.rule} ${violation.pointer}`] = attributed(violation).requirement;
      }
    }
  }
  return found;
}

test.describe('every schema rule states a requirement of the catalogue', () => {
  for (const name of resourceSchemas) {
    test(name, () => {
      const rules = rulesOf(name);
      expect(rules.length).toBeGreaterThan(0);
      const unknown = rules.filter(
        ({ requirement }) => requirement === undefined || !findRequirement(requirement),
      );
      expect(unknown.map((rule) => `${rule.path} ${rule.property ?? ''} → ${rule.requirement}`)).toEqual([]);
    });
  }

  test('an annotation by keyword names keywords of its own schema', () => {
    const misplaced: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) {
        for (const [i, child] of node.entries()) visit(child, `${where}/${i}`);
      }
      if (!isJsonObject(node)) return;
      const annotation = node[REQUIREMENT_KEYWORD];
      if (isJsonObject(annotation)) {
        for (const keyword of Object.keys(annotation))
          if (!(keyword in node)) misplaced.push(`${where}: ${keyword}`);
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${where}/${key}`);
    };
    for (const [name, schema] of Object.entries(loadSchemas())) visit(schema, `${name}.json#`);
    expect(misplaced).toEqual([]);
  });
});

test.describe('violations are attributed as before the annotations', () => {
  for (const [schema, recorded] of Object.entries(expected.violations)) {
    test(schema, () => {
      const found = attributions(schema);
      const differing = Object.entries(recorded)
        .filter(([violation, requirement]) => found[violation] !== requirement)
        .map(([violation, requirement]) => `${violation}: expected ${requirement}, got ${found[violation]}`);
      expect(differing).toEqual([]);
    });
  }
});

test.describe('unknown properties belong to the requirement of the object they are in', () => {
  for (const [schema, owners] of Object.entries(expected.unknownProperties)) {
    test(schema, () => {
      const found = Object.fromEntries(
        Object.keys(owners).map((pointer) => [pointer, requirementAt(schema, pointer)]),
      );
      expect(found).toEqual(owners);
    });
  }
});

test.describe('attributions the replaced table could not make', () => {
  // It knew the response resources only; any other schema fell back to SCH-ENVELOPE.
  // biome-ignore format: one row per line reads as a table
  const ROWS: readonly (readonly [schema: string, instance: unknown, rule: string, requirement: string])[] = [
    ['cycle-score', { strain: 25, kilojoule: 1, average_heart_rate: 1, max_heart_rate: 1 }, 'maximum', 'INV-STRAIN-RANGE'],
    ['cycle-score', { strain: 5, kilojoule: 1, average_heart_rate: 1 }, 'required', 'SCH-CYCLE-SCORE'],
    ['patient', { id: 'not-a-uuid' }, 'format', 'SCH-PATIENT-CORE'],
    ['test-data-response', { requisition_id: 7 }, 'type', 'OP-ADD-TEST-DATA'],
    ['partner-token-request', { client_id: 'a' }, 'required', 'PAUTH-TOKEN-INVALID-CLIENT'],
    ['service-request-status-request', { reason: 5 }, 'type', 'PTN-INVALID-BODY'],
    ['diagnostic-report-create-request', { observations: [{ bundle_id: 'x' }] }, 'format', 'PTN-INVALID-BODY'],
  ];
  for (const [schema, instance, rule, requirement] of ROWS) {
    test(`${schema}: ${rule} → ${requirement}`, () => {
      const [violation, ...others] = validate(schema, instance).errors;
      expect(others.map(formatViolation)).toEqual([]);
      expect(violation?.rule).toBe(rule);
      expect(attributed(violation as NonNullable<typeof violation>).requirement).toBe(requirement);
    });
  }
});

test('score iff SCORED: the conditional rule of the scored resources', () => {
  const scored = {
    cycle: '',
    'paginated-sleep-response': '/records/0',
    'recovery-collection': '/records/0',
    workout: '',
    'user-body-measurement': '',
  };
  const found = Object.fromEntries(
    Object.entries(scored).map(([schema, pointer]) => [schema, conditionalRequirementAt(schema, pointer)]),
  );
  expect(found).toEqual({
    cycle: 'INV-CYCLE-SCORE-IFF-SCORED',
    'paginated-sleep-response': 'INV-SLEEP-SCORE-IFF-SCORED',
    'recovery-collection': 'INV-RECOVERY-SCORE-IFF-SCORED',
    workout: undefined,
    'user-body-measurement': undefined,
  });
});

test('the requirements a schema states, in the order it gives them', () => {
  expect(requirementsOf('paginated-cycle-response')).toEqual([
    'SCH-ENVELOPE',
    'SCH-CYCLE',
    'SCH-INTEGER-FORMATS',
    'SCH-DATE-TIME',
    'SCH-TIMEZONE-OFFSET',
    'INV-SCORE-STATE-ENUM',
    'SCH-CYCLE-SCORE',
    'INV-STRAIN-RANGE',
    'INV-CYCLE-SCORE-IFF-SCORED',
  ]);
});
