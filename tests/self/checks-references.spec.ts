// References between records (src/checks/references.ts), by CONS-RECOVERY-REFERENCES and
// CONS-SLEEP-CYCLE-REFERENCE: "Every recovery's cycle_id and sleep_id ... refer to an existing cycle and sleep
// of the same user". A reference missing from the known records is looked up by id; one that fails there too
// is dangling. A missing reference field is the schema checks' (not counted here).
import { expect, test } from '@playwright/test';
import { danglingProblem, missingReferences } from '../../src/checks/references.ts';

const SLEEP_A = '3f0c1a52-6c1e-4b8e-9a55-2f4f3f1b9c10';
const SLEEP_B = '9b2e7d44-1a3c-4f6d-8e0b-7c5a9d2e4f31';
/** The sleeps of the collection, lower-cased as the checks key them. */
const known = new Set([SLEEP_A, SLEEP_B]);
const everyRecord = () => true;

test('references that all name known records, in any case: none missing, each counted', () => {
  const recoveries = [{ sleep_id: SLEEP_A }, { sleep_id: SLEEP_B.toUpperCase() }, { sleep_id: SLEEP_A }];
  const { missing, references } = missingReferences(recoveries, 'sleep_id', known, everyRecord);
  expect([...missing]).toEqual([]);
  expect(references).toBe(3);
});

test('an unknown reference is missing once, with the first record naming it; absent ones are not references', () => {
  const unknown = 'c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e';
  const recoveries = [
    { sleep_id: SLEEP_A },
    { cycle_id: 1 },
    { sleep_id: unknown },
    { sleep_id: null },
    { sleep_id: unknown },
  ];
  const { missing, references } = missingReferences(recoveries, 'sleep_id', known, everyRecord);
  expect([...missing]).toEqual([[unknown, 2]]);
  expect(references).toBe(3);
});

test('a numeric reference is compared as text; records out of reach are neither counted nor missing', () => {
  const sleeps = [
    { cycle_id: 93845, start: 'new' },
    { cycle_id: 11111, start: 'old' },
  ];
  const inReach = (record: { [field: string]: unknown }) => record.start === 'new';
  const { missing, references } = missingReferences(sleeps, 'cycle_id', new Set(['93845']), inReach);
  expect([...missing]).toEqual([]);
  expect(references).toBe(1);
  expect([...missingReferences(sleeps, 'cycle_id', new Set(['93845']), everyRecord).missing]).toEqual([
    ['11111', 1],
  ]);
});

test('a dangling reference names the record, where it was served, the field, its value and the read by id', () => {
  expect(
    danglingProblem({
      index: 7,
      where: 'page 1, #2',
      from: '/v2/recovery',
      field: 'sleep_id',
      value: SLEEP_B,
      read: `/v2/activity/sleep/${SLEEP_B}`,
      status: 404,
    }),
  ).toBe(
    `record 7 (page 1, #2) of /v2/recovery: sleep_id ${SLEEP_B} is in no record of the collection and /v2/activity/sleep/${SLEEP_B} answers 404`,
  );
});
