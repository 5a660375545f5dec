// The oracles of a record's edges, without a target: how a record stands to a bound 1 ms from its edges
// (src/worker/user-data/filter-edges.ts) and a record that ends before it starts (src/checks/invariants.ts).
import { expect, test } from '@playwright/test';
import { endBeforeStartProblems } from '../../src/checks/invariants.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import {
  type BoundParam,
  departures,
  duringDepartures,
  type EdgeProbe,
  standingTo,
} from '../../src/worker/user-data/filter-edges.ts';
import { type DataRecord, iso, ownExtent } from '../../src/worker/user-data/records.ts';

const HOUR = 3_600_000;
const t0 = Date.parse('2026-03-15T10:00:17Z');
/** Three cycles of a day each, newest first: c2 (t0 + 2 days on), c1, c0. */
const cycles: DataRecord[] = [2, 1, 0].map((day) => ({
  id: `c${day}`,
  start: iso(t0 + day * 24 * HOUR),
  end: iso(t0 + (day + 1) * 24 * HOUR),
}));
const known = cycles.map((record) => ({
  record,
  extent: ownExtent(record) as NonNullable<ReturnType<typeof ownExtent>>,
}));

/** A probe whose page served `served` (the whole selection: no next_token), judged as filter-edges does. */
function probe(param: BoundParam, bound: number, served: string[]): EdgeProbe {
  const records = cycles.filter((record) => served.includes(String(record.id)));
  return {
    param,
    bound,
    edge: 'an edge',
    at: 'an edge of record c1',
    page: { exchange: {} as Exchange, records },
    seen: known.map((one) => ({
      known: one,
      standing: standingTo[param](one.extent, bound),
      served: served.includes(String(one.record.id)),
    })),
  };
}

const c1 = known[1]?.extent as NonNullable<ReturnType<typeof ownExtent>>;

test("how a record stands to a bound 1 ms from its edges, by the seed's sentences", () => {
  const stand = (param: BoundParam, bound: number) => standingTo[param](c1, bound);
  expect(
    [c1.earliest - 1, c1.latest + 1, c1.earliestFinish - 1, c1.finish + 1].map((b) => stand('start', b)),
  ).toEqual(['in', 'during', 'during', 'out']);
  expect(
    [c1.earliest - 1, c1.latest + 1, c1.earliestFinish - 1, c1.finish + 1].map((b) => stand('end', b)),
  ).toEqual(['out', 'in', 'in', 'in']);
  // Exactly at an edge the seed is loose: the readings of filters.spec.ts warn there, these never judge.
  expect([stand('start', c1.finish), stand('end', c1.earliest)]).toEqual(['open', 'open']);
});

test('end rounded up: a record starting after end, served, departs from "out"', () => {
  const rounded = probe('end', c1.earliest - 1, ['c1', 'c0']);
  const { problems, judged } = departures([rounded], 'out');
  expect(judged).toBe(2);
  expect(problems).toEqual([
    expect.stringMatching(/^end=.*: record c1, starting 2026-03-16T10:00:17.000Z, after end, is served$/),
  ]);
  expect(departures([probe('end', c1.earliest - 1, ['c0'])], 'out').problems).toEqual([]);
});

test('start truncated: a record under way at two starts, served at one and left out at the other, departs', () => {
  const afterStart = probe('start', c1.latest + 1, ['c2', 'c1']);
  const beforeEnd = probe('start', c1.finish - 1, ['c2']);
  const { problems, judged } = duringDepartures([afterStart, beforeEnd]);
  expect(judged).toBe(1);
  expect(problems).toEqual([expect.stringMatching(/^record c1, under way at both, is served with start=/)]);
  // Left out at both (a filter on the record's start), or served at both (the plain "during"): alike.
  expect(duringDepartures([probe('start', c1.latest + 1, ['c2']), beforeEnd]).problems).toEqual([]);
});

test('an end before its start is a problem of that record; an open or ordered record is none', () => {
  const records = [
    { id: 1, start: '2026-03-15T10:00:00Z' },
    { id: 2, start: '2026-03-15T10:00:00Z', end: '2026-03-15T10:00:00Z' },
    { id: 3, start: '2026-03-15T10:00:00Z', end: '2026-03-15T09:59:59.999Z' },
  ];
  expect(endBeforeStartProblems(records)).toEqual([
    { index: 2, id: 3, text: 'ends 2026-03-15T09:59:59.999Z, before it starts (2026-03-15T10:00:00Z)' },
  ]);
});
