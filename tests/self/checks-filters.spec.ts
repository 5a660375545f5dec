// The start/end filter judgements (src/checks/filters.ts) on fixed records, with the bounds of filters.spec.ts:
// beyond a bound a problem, exactly at it a warning (the readings of FLT-START-EXCLUDES-EARLIER and
// FLT-END-EXCLUSIVE), and a record at or after start missing from the start-filtered walk (FLT-START-INCLUSIVE).
import { expect, test } from '@playwright/test';
import { boundCrossings, type FilterBound, missingFromStart } from '../../src/checks/filters.ts';

const at = Date.parse('2026-03-15T10:00:00.000Z');
const MINUTE = 60_000;

/** start: a record that ended before it did not occur "after or during" it (its time: its finish). */
const start: FilterBound = {
  param: 'start',
  at,
  beyond: (finish, bound) => finish < bound,
  leaked: (finish) => `ended ${finish}, before start: it did not occur at or after start`,
  atBound: 'ended exactly at start and is included',
};

/** end: a record starting after it is not "intersect this time or ended before" it (its time: its start). */
const end: FilterBound = {
  param: 'end',
  at,
  beyond: (earliest, bound) => earliest > bound,
  leaked: (earliest) => `starts after end (${earliest})`,
  atBound: 'starts exactly at end and is included',
};

test('start: records that ended after start are no crossing', () => {
  const served = [
    { id: 'a', time: at + MINUTE },
    { id: 'b', time: at + 1 },
  ];
  expect(boundCrossings(served, start)).toEqual({ problems: [], warnings: [] });
});

test('start: a record that ended before start is a problem naming it; one that ended exactly at start a warning', () => {
  const served = [
    { id: 'a', time: at + MINUTE },
    { id: 'b', time: at - 1 },
    { id: 'c', time: at },
  ];
  expect(boundCrossings(served, start)).toEqual({
    problems: [
      'start=2026-03-15T10:00:00.000Z: record b ended 2026-03-15T09:59:59.999Z, before start: it did not occur at or after start',
    ],
    warnings: ['start=2026-03-15T10:00:00.000Z: record c ended exactly at start and is included'],
  });
});

test('end: a record starting after end is a problem; one starting exactly at end a warning; earlier ones none', () => {
  const served = [
    { id: 'early', time: at - MINUTE },
    { id: 'late', time: at + 1 },
    { id: 'edge', time: at },
  ];
  expect(boundCrossings(served, end)).toEqual({
    problems: ['end=2026-03-15T10:00:00.000Z: record late starts after end (2026-03-15T10:00:00.001Z)'],
    warnings: ['end=2026-03-15T10:00:00.000Z: record edge starts exactly at end and is included'],
  });
});

test('an empty filtered page crosses no bound', () => {
  expect(boundCrossings([], end)).toEqual({ problems: [], warnings: [] });
});

/** Four records by their earliest time, newest first: two after start, one exactly at it, one before. */
const records = [
  { id: 'r3', time: at + 2 * MINUTE },
  { id: 'r2', time: at + MINUTE },
  { id: 'r1', time: at },
  { id: 'r0', time: at - MINUTE },
];

test('every record at or after start found: nothing missing, and the earlier record is not checked', () => {
  expect(missingFromStart(records, new Set(['r3', 'r2', 'r1']), at, 2)).toEqual({ problems: [], checked: 3 });
});

test('a record after start missing from the walk is a problem naming it and its start', () => {
  expect(missingFromStart(records, new Set(['r3', 'r1']), at, 2)).toEqual({
    problems: ['start=2026-03-15T10:00:00.000Z: record r2 starting 2026-03-15T10:01:00.000Z is missing'],
    checked: 3,
  });
});

test('the record starting exactly at start (inclusive) is missing: the problem says so', () => {
  expect(missingFromStart(records, new Set(['r3', 'r2', 'r0']), at, 2)).toEqual({
    problems: [
      'start=2026-03-15T10:00:00.000Z: record r1 starting 2026-03-15T10:00:00.000Z is missing (it starts exactly at start)',
    ],
    checked: 3,
  });
});

test('with no record at or after start nothing is checked', () => {
  expect(missingFromStart(records, new Set(), at + 3 * MINUTE, 0)).toEqual({ problems: [], checked: 0 });
});
