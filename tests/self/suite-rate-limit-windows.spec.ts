// RL-429's window reasoning (src/checks/rate-limit-windows.ts) on the answers of bursts against windows of
// every alignment: it rests on what the answers announce, so no case here depends on a clock.
import { expect, test } from '@playwright/test';
import {
  type CountedAnswer,
  servedOverLimit,
  windowsEntered,
  windowsTouched,
} from '../../src/checks/rate-limit-windows.ts';

/** Served answers announcing `remaining` counts, each with `reset` seconds to go. */
const served = (reset: number, ...remaining: number[]): CountedAnswer[] =>
  remaining.map((count) => ({ served: true, remaining: count, resetSeconds: reset }));
const limited = (reset: number): CountedAnswer => ({ served: false, remaining: 0, resetSeconds: reset });
const countdown = (from: number, to: number): number[] =>
  Array.from({ length: from - to + 1 }, (_, index) => from - index);

const cases: { name: string; limit: number; sequence: CountedAnswer[]; over: number[]; entered: number }[] = [
  {
    name: 'a window that starts at the probe, exceeded within it',
    limit: 20,
    sequence: [...served(1, ...countdown(19, 0)), limited(1)],
    over: [],
    entered: 0,
  },
  {
    name: 'a burst that crosses into a window starting at its next request, then exceeds that one',
    limit: 20,
    sequence: [...served(1, ...countdown(19, 6)), ...served(1, ...countdown(19, 0)), limited(1)],
    over: [],
    entered: 1,
  },
  {
    name: 'a window aligned to the clock, the probe in its last moment (reset going up at the boundary)',
    limit: 20,
    sequence: [...served(1, 3, 2, 1, 0), ...served(3, ...countdown(19, 0)), limited(3)],
    over: [],
    entered: 1,
  },
  {
    name: 'a limit of 1 across a boundary: two answers of 0 remaining whose reset does not go down',
    limit: 1,
    sequence: [...served(3, 0), ...served(3, 0), limited(2)],
    over: [],
    entered: 0,
  },
  {
    name: 'a limit of 1 served twice in one window (the reset went down)',
    limit: 1,
    sequence: [...served(3, 0), ...served(2, 0)],
    over: [1],
    entered: 0,
  },
  {
    name: 'a target serving past 0 remaining in the same window',
    limit: 20,
    sequence: served(1, 2, 1, 0, 0, 0),
    over: [3, 4],
    entered: 0,
  },
  {
    name: 'a target serving past 0 remaining whose reset counts down meanwhile',
    limit: 20,
    sequence: [...served(2, 1, 0), ...served(1, 0)],
    over: [2],
    entered: 0,
  },
  {
    name: 'a target announcing no remaining count',
    limit: 2,
    sequence: [{ served: true }, { served: true }, { served: true }, { served: true }],
    over: [],
    entered: 0,
  },
];

for (const { name, limit, sequence, over, entered } of cases)
  test(`the requests served over the limit: ${name}`, () => {
    expect(servedOverLimit(sequence, limit)).toEqual(over);
    expect(windowsEntered(sequence)).toBe(entered);
  });

test('the windows a stretch of time can touch, however they are aligned', () => {
  expect(windowsTouched(0, 1)).toBe(1);
  expect(windowsTouched(500, 1)).toBe(2);
  expect(windowsTouched(1000, 1)).toBe(2);
  expect(windowsTouched(1500, 1)).toBe(3);
  expect(windowsTouched(113_000, 60)).toBe(3);
});
