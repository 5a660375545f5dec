// The cross-field and cross-record rules of src/checks/invariants.ts (endBeforeStartProblems is
// suite-filter-edges.spec.ts's): "score ... present only when score_state is SCORED", sorted "by start time,
// descending", "end ... absent means the user is currently in this cycle", "Sleep.v1_id does not exist past
// 2025-09-01", and no record twice.
import { expect, test } from '@playwright/test';
import {
  descendingProblems,
  describeRecordProblem,
  duplicateProblems,
  openCycleProblems,
  scoreStateProblems,
  v1IdCutoffProblems,
} from '../../src/checks/invariants.ts';
import { cycleScore } from './contract-fixtures.ts';

test('a record problem reads with its index, where it was served and its id (when it has one)', () => {
  expect(describeRecordProblem({ index: 57, id: 1234, text: 'x is wrong' }, ' (page 2, #7)')).toBe(
    'record 57 (page 2, #7) (id 1234): x is wrong',
  );
  expect(describeRecordProblem({ index: 0, text: 'x is wrong' })).toBe('record 0: x is wrong');
});

test('a score exactly when SCORED is no problem; a null score reads as absent', () => {
  expect(
    scoreStateProblems([
      { id: 1, score_state: 'SCORED', score: cycleScore },
      { id: 2, score_state: 'PENDING_SCORE' },
      { id: 3, score_state: 'UNSCORABLE', score: null },
    ]),
  ).toEqual([]);
});

test('SCORED without a score, or a score without SCORED, is a problem of that record', () => {
  expect(
    scoreStateProblems([
      { id: 1, score_state: 'SCORED' },
      { id: 2, score_state: 'PENDING_SCORE', score: cycleScore },
      { score_state: 'UNSCORABLE', score: cycleScore },
    ]),
  ).toEqual([
    { index: 0, id: 1, text: 'score_state SCORED but score is absent' },
    { index: 1, id: 2, text: 'score_state PENDING_SCORE but score is present' },
    { index: 2, text: 'score_state UNSCORABLE but score is present' },
  ]);
});

const startOf = (record: { start?: unknown }) => record.start;

test('records sorted by start descending, equal starts included, are no problem', () => {
  const records = [
    { id: 'c', start: '2026-03-15T10:00:00Z' },
    { id: 'b', start: '2026-03-15T10:00:00.000+00:00' },
    { id: 'a', start: '2026-03-14T10:00:00Z' },
  ];
  expect(descendingProblems(records, startOf, 'start')).toEqual([]);
  expect(descendingProblems([], startOf, 'start')).toEqual([]);
});

test('a record later than the one before it breaks the descending order, named with both times', () => {
  const records = [
    { id: 'b', start: '2026-03-14T10:00:00Z' },
    { id: 'c', start: '2026-03-15T10:00:00Z' },
  ];
  expect(descendingProblems(records, startOf, 'start')).toEqual([
    {
      index: 1,
      id: 'c',
      text: "start 2026-03-15T10:00:00Z is later than the previous record's 2026-03-14T10:00:00Z (expected descending)",
    },
  ]);
});

test('only the newest cycle may lack end', () => {
  const current = { id: 3, start: '2026-03-15T10:00:00Z' };
  const ended = { id: 2, start: '2026-03-14T10:00:00Z', end: '2026-03-15T10:00:00Z' };
  expect(openCycleProblems([current, ended])).toEqual([]);
  expect(openCycleProblems([])).toEqual([]);
  expect(openCycleProblems([current, { id: 2, start: '2026-03-14T10:00:00Z' }])).toEqual([
    { index: 1, id: 2, text: 'has no end but is not the newest cycle (start 2026-03-14T10:00:00Z)' },
  ]);
});

test('v1_id on sleeps starting before the cutoff, and none after it, is no problem', () => {
  expect(
    v1IdCutoffProblems([
      { id: 'a', start: '2025-08-31T22:00:00Z', v1_id: 101 },
      // Still 2025-09-01 in UTC: the seed does not say in which time zone the date ends.
      { id: 'b', start: '2025-09-01T23:00:00Z', v1_id: 102 },
      { id: 'c', start: '2025-09-03T22:00:00Z' },
    ]),
  ).toEqual([]);
});

test('a sleep past 2025-09-01 in every time zone that carries v1_id is a problem naming its start and v1_id', () => {
  expect(v1IdCutoffProblems([{ id: 'd', start: '2025-09-03T22:00:00Z', v1_id: 104 }])).toEqual([
    { index: 0, id: 'd', text: 'starts 2025-09-03T22:00:00Z, past 2025-09-01, yet carries v1_id 104' },
  ]);
});

// The date has not ended west of UTC until 2025-09-02T12:00:00Z (-12:00): this sleep starts at 22:00 on
// 2025-09-01 by its own timezone_offset, so a server ending the date in the user's time zone conforms.
test('a sleep starting on 2025-09-01 in its own time zone (-04:00) may carry v1_id; one starting once the date has ended everywhere may not', () => {
  const sleep = { id: 'e', start: '2025-09-02T02:00:00Z', timezone_offset: '-04:00', v1_id: 105 };
  expect(v1IdCutoffProblems([sleep])).toEqual([]);
  expect(v1IdCutoffProblems([{ ...sleep, start: '2025-09-02T12:00:00Z' }])).toEqual([
    { index: 0, id: 'e', text: 'starts 2025-09-02T12:00:00Z, past 2025-09-01, yet carries v1_id 105' },
  ]);
});

test('a record repeated is a problem naming the record it repeats; distinct ids are none', () => {
  expect(duplicateProblems([{ id: 1 }, { id: 2 }, { id: 3 }])).toEqual([]);
  expect(duplicateProblems([{ id: 1 }, { id: 2 }, { id: 1 }, { id: 1 }])).toEqual([
    { index: 2, id: 1, text: 'repeats record 0' },
    { index: 3, id: 1, text: 'repeats record 0' },
  ]);
});
