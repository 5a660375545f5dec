// Reads by id against the collections (src/checks/single-reads.ts): "A record read by id is the same record as
// in its collection" (CONS-SINGLE-MATCHES-COLLECTION), a cycle's sleep has "cycle_id is cycleId"
// (CONS-CYCLE-SLEEP), and a v1_id maps to "the current uuid of that same record" (MAP-V1-TO-V2).
import { expect, test } from '@playwright/test';
import {
  cycleSleepProblem,
  differences,
  mappingProblem,
  sameId,
  singleReadProblem,
} from '../../src/checks/single-reads.ts';
import { cycleScored, sleepScored, withValue } from './contract-fixtures.ts';

const UUID = '3f0c1a52-6c1e-4b8e-9a55-2f4f3f1b9c10';

test('ids are the same written as a string or a number, case aside; other values name no id', () => {
  expect([sameId(93845, '93845'), sameId(UUID.toUpperCase(), UUID), sameId('93845', 93845)]).toEqual([
    true,
    true,
    true,
  ]);
  expect([sameId(93845, 93846), sameId(undefined, undefined), sameId(null, 'null'), sameId({}, {})]).toEqual([
    false,
    false,
    false,
    false,
  ]);
});

test('the same record with its keys in another order has no difference', () => {
  const reordered = Object.fromEntries(Object.entries(cycleScored).reverse());
  expect(differences(cycleScored, reordered)).toEqual([]);
  expect(singleReadProblem(cycleScored, reordered, cycleScored.id, 'page 0, #3')).toBeUndefined();
});

test('each differing field is named by its JSON pointer, with both values; a missing one reads as nothing', () => {
  const { score_state: _, ...withoutState } = withValue(cycleScored, '/score/strain', 13.1);
  expect(differences(cycleScored, withoutState)).toEqual([
    '/score_state: "SCORED" in the collection, nothing by id',
    '/score/strain: 12.8 in the collection, 13.1 by id',
  ]);
  expect(singleReadProblem(cycleScored, withoutState, 93845, 'page 0, #3')).toBe(
    '93845 (page 0, #3 of the collection) differs at /score_state: "SCORED" in the collection, nothing by id; /score/strain: 12.8 in the collection, 13.1 by id',
  );
});

test('an array is compared item by item, and an array never equals an object', () => {
  expect(differences({ ids: [1, 2] }, { ids: [1] })).toEqual(['/ids/1: 2 in the collection, nothing by id']);
  expect(differences([], {})).toEqual(['(root): [] in the collection, {} by id']);
});

test("a cycle's sleep names that cycle, as a string or a number; another cycle_id is the problem", () => {
  expect(cycleSleepProblem(sleepScored, 93845)).toBeUndefined();
  expect(cycleSleepProblem(sleepScored, '93845')).toBeUndefined();
  expect(cycleSleepProblem(sleepScored, 93846)).toBe(`cycle 93846: the sleep ${UUID} has cycle_id 93845`);
});

test("a v1_id's mapping names the record carrying it, case aside; another uuid is the problem", () => {
  expect(mappingProblem(UUID.toUpperCase(), sleepScored)).toBeUndefined();
  expect(mappingProblem('c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e', sleepScored)).toBe(
    `v1_id 93845 of ${UUID} maps to "c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e"`,
  );
  expect(mappingProblem(undefined, sleepScored)).toBe(`v1_id 93845 of ${UUID} maps to nothing`);
});
