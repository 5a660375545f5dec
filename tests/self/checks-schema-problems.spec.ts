// A served body against its schema (src/checks/schema-problems.ts): each violation with the requirement its
// rule states and the body field it breaks ("strain ... scale 0 to 21", INV-STRAIN-RANGE; "score ... present
// only when score_state is SCORED", INV-CYCLE-SCORE-IFF-SCORED), and each unknown property, which the
// contract allows, as a note of the requirement of the object it stands in, alike for every record of a page.
import { expect, test } from '@playwright/test';
import { schemaProblems } from '../../src/checks/schema-problems.ts';
import { cyclePending, cycleScored, without, withValue } from './contract-fixtures.ts';

const WHERE = 'GET /v2/cycle/93845';

test('a conforming cycle has no problem and no unknown property', () => {
  expect(schemaProblems('cycle', cycleScored, WHERE)).toEqual({ problems: [], unknown: [] });
});

test('a violation names the requirement its rule states, where it was served, and the field it breaks', () => {
  expect(schemaProblems('cycle', withValue(cycleScored, '/score/strain', 22), WHERE)).toEqual({
    problems: [
      {
        requirement: 'INV-STRAIN-RANGE',
        text: `${WHERE}: cycle.json /score/strain: must be <= 21 (maximum), got 22 [cycle-score.json#/properties/strain/maximum]`,
        field: '/body/score/strain',
      },
    ],
    unknown: [],
  });
});

test('SCORED without a score breaks the score-iff-SCORED rule, at the body as a whole', () => {
  const [problem, ...others] = schemaProblems('cycle', without(cycleScored, '/score'), WHERE).problems;
  expect(others).toEqual([]);
  expect(problem).toMatchObject({ requirement: 'INV-CYCLE-SCORE-IFF-SCORED', field: '/body' });
  expect(problem?.text).toContain(
    `${WHERE}: cycle.json (root): score must be present exactly when score_state`,
  );
});

test('an unknown property is a note, never a problem; on a page it reads alike for every record', () => {
  expect(schemaProblems('cycle', { ...cyclePending, extra: 1 }, WHERE)).toEqual({
    problems: [],
    unknown: [
      { requirement: 'SCH-CYCLE', text: "cycle.json /extra: unknown property 'extra' (allowed; note only)" },
    ],
  });
  const page = {
    records: [
      { ...cyclePending, extra: 1 },
      { ...cycleScored, extra: 2 },
    ],
  };
  const note = {
    requirement: 'SCH-CYCLE',
    text: "paginated-cycle-response.json /records/*/extra: unknown property 'extra' (allowed; note only)",
  };
  expect(schemaProblems('paginated-cycle-response', page, 'GET /v2/cycle page 0')).toEqual({
    problems: [],
    unknown: [note, note],
  });
});
