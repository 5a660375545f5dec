// Pages and walks by next_token (src/checks/pagination.ts): the first page holds the newest records, with and
// without end (PAG-FIRST-PAGE); a walk visits each record once and none the reference walk did not
// (PAG-NEXT-TOKEN); walks of one query at two page sizes visit the same records (PAG-PAGE-SIZE-INDEPENDENT).
import { expect, test } from '@playwright/test';
import {
  endCutProblems,
  type KeyedId,
  newerThanFirstProblems,
  pageSizeProblems,
  walkProblems,
} from '../../src/checks/pagination.ts';

const t0 = Date.parse('2026-03-15T00:00:00.000Z');
const HOUR = 3_600_000;
/** Five records an hour apart, newest first: r4 (t0 + 4 h) down to r0 (t0). */
const all: KeyedId[] = [4, 3, 2, 1, 0].map((hour) => ({ id: `r${hour}`, key: t0 + hour * HOUR }));
const [r4, r3, r2, r1, r0] = all as [KeyedId, KeyedId, KeyedId, KeyedId, KeyedId];

test('a first page that begins with the newest record: nothing newer', () => {
  expect(newerThanFirstProblems(r4, all)).toEqual([]);
});

test('a first page that begins with an older record: each newer record is named, with both times', () => {
  expect(newerThanFirstProblems(r3, all)).toEqual([
    'record r4 (time 2026-03-15T04:00:00.000Z) is newer than the first record of the first page, r3 (2026-03-15T03:00:00.000Z)',
  ]);
});

test('an empty first page has no first record to judge', () => {
  expect(newerThanFirstProblems(undefined, all)).toEqual([]);
});

const cut = r2.key;
/** The records that started before end = r2's start. */
const before = [r1, r0];

test('with end, a first page holding the newest records before it is no problem, even cut by its limit', () => {
  expect(endCutProblems(cut, before, [r1, r0])).toEqual([]);
  expect(endCutProblems(cut, before, [r1])).toEqual([]);
});

test('with end, a first page that skips a record newer than its oldest names it', () => {
  expect(endCutProblems(cut, before, [r0])).toEqual([
    'with end=2026-03-15T02:00:00.000Z: record r1 (2026-03-15T01:00:00.000Z) is newer than records on the first page but is not on it',
  ]);
});

test('with end, an empty first page while records started before it is a problem saying how many', () => {
  expect(endCutProblems(cut, before, [])).toEqual([
    'with end=2026-03-15T02:00:00.000Z the first page is empty although 2 records started before it',
  ]);
  expect(endCutProblems(r0.key, [], [])).toEqual([]);
});

const known = new Set(all.map((record) => record.id));

test('walks that visit known records once each are no problem', () => {
  expect(
    walkProblems(
      [
        { what: 'the complete walk', ids: ['r4', 'r3', 'r2', 'r1', 'r0'] },
        { what: 'limit 1 over the window', ids: ['r3', 'r2'] },
      ],
      known,
    ),
  ).toEqual([]);
});

test('a record visited twice is named with the visit it repeats; one the reference walk never visited is a gap', () => {
  expect(walkProblems([{ what: 'limit 7 over the window', ids: ['r4', 'r3', 'r9', 'r3'] }], known)).toEqual([
    'limit 7 over the window: record 3 (id r3): repeats record 1',
    'limit 7 over the window: record r9 was never visited by the reference walk (a gap)',
  ]);
});

test('two page sizes visiting the same records (in any order here) are no problem', () => {
  const small = { what: 'limit 1', ids: ['r4', 'r3', 'r2'] };
  const whole = { what: 'limit 25', ids: ['r4', 'r2', 'r3'] };
  expect(pageSizeProblems([{ small, whole }])).toEqual([]);
});

test('a record only one page size visits is named with both walks, either way round', () => {
  const small = { what: 'limit 1', ids: ['r4', 'r3'] };
  const whole = { what: 'limit 25', ids: ['r4', 'r2'] };
  expect(pageSizeProblems([{ small, whole }])).toEqual([
    'r3 is visited with limit 1 but not with limit 25',
    'r2 is visited with limit 25 but not with limit 1',
  ]);
});
