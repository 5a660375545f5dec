// The finite domains the collection requests carry, as classes a run covers by design (issue 31): every
// limit value from 1 to the maximum, the small page sizes a window is walked at deep, and the forms a start
// or end is written in. Which collection gets which value is a rotation: the budgeted plan spreads each
// domain over the four collections, so every value is sent in every run and each collection meets every
// value within a few runs; the deep plan sends every value to every collection.
import { type DateTimeForm, describeForm } from '../contract/date-time-forms.ts';
import type { OperationId } from '../contract/operation-model.ts';
import { operations } from '../contract/operations.ts';

const collections = operations.filter((op) => op.area === 'user-data' && op.isCollection);

/** The user-data collections, in the catalogue's order (a collection's index in the rotation). */
export const COLLECTIONS: readonly OperationId[] = collections.map((op) => op.operationId);

/** limit's maximum, from the catalogue's parameter schema (25 in the seed). */
export const LIMIT_MAXIMUM = (() => {
  const maximum = collections[0]?.queryParams.find((param) => param.name === 'limit')?.schema.maximum;
  if (maximum === undefined) throw new Error('the catalogue gives limit no maximum');
  return maximum;
})();

/** Every value of limit's domain: 1 to the maximum. */
export const LIMIT_VALUES: readonly number[] = Array.from({ length: LIMIT_MAXIMUM }, (_, i) => i + 1);

/** The small page sizes a window is walked at, each compared with the walk at the maximum. */
export const SMALL_PAGE_SIZES = [1, 2, 7] as const;

/** The page a walk at a small page size must reach: walks that stop at page 2 or 3 miss what goes wrong later. */
export const DEEP_PAGE = 5;

/**
 * Forms of start, and of end, besides the canonical `Z` with 3 digits. A start is read with a zero or
 * positive offset and an end with a zero or negative one: a server that drops the offset then moves the
 * bound past the record it was set at, whatever the data around it.
 */
export const START_FORMS: readonly DateTimeForm[] = [
  { offset: '+05:30', digits: 3 },
  { offset: '+14:00', digits: 6 },
  { offset: '+00:00', digits: 0 },
  { offset: '+09:45', digits: 0 },
];
/** An end is set 1 ms after a record's start (FLT-END-INCLUDES-EARLIER): always with fraction digits. */
export const END_FORMS: readonly DateTimeForm[] = [
  { offset: '-08:00', digits: 6 },
  { offset: '-03:30', digits: 3 },
  { offset: '+00:00', digits: 6 },
  { offset: '-11:00', digits: 3 },
];

/** A window of a collection's newest records, walked at `limit` and at the maximum. */
export interface WindowPlan {
  limit: number;
  records: number;
}

/** What a run sends to one collection: limit values, windows, and the forms of start and end. */
export interface CollectionClasses {
  limits: number[];
  windows: WindowPlan[];
  startForms: DateTimeForm[];
  endForms: DateTimeForm[];
}

/** Records of the budgeted window walked at `limit`: enough to reach DEEP_PAGE. */
const deepEnough = (limit: number): number => limit * (DEEP_PAGE - 1) + 1;

/** The deep plan's windows: 20 records at limits 1 and 2 (20 and 10 pages), 50 at limit 7 (8 pages). */
const DEEP_WINDOWS: readonly WindowPlan[] = [
  { limit: 1, records: 20 },
  { limit: 2, records: 20 },
  { limit: 7, records: 50 },
];

/** Each `n`th item of `items`, starting at `offset` (the rotation's share of one of `n` takers). */
const share = <T>(items: readonly T[], offset: number, n: number): T[] =>
  items.filter((_, index) => (index - offset + n * items.length) % n === 0);

/**
 * The share of a finite domain that taker `index` of `takers` (operations of one kind) gets: the whole
 * domain, its turn under the rotation, or none.
 */
export const shareOf = <T>(
  items: readonly T[],
  index: number,
  takers: number,
  rotation: number,
  scope: 'whole' | 'rotated' | 'none',
): T[] =>
  scope === 'whole' ? [...items] : scope === 'none' ? [] : share(items, (index + rotation) % takers, takers);

/**
 * The classes collection `index` (of COLLECTIONS) gets: all of them (`whole`, the deep plan), or its share
 * under rotation `rotation` (the budgeted plan); none for a plan that sends no such request (smoke).
 */
export function classesOf(
  index: number,
  rotation: number,
  scope: 'whole' | 'rotated' | 'none',
): CollectionClasses {
  const small = SMALL_PAGE_SIZES[(index + rotation) % SMALL_PAGE_SIZES.length] as number;
  const windows = {
    whole: [...DEEP_WINDOWS],
    rotated: [{ limit: small, records: deepEnough(small) }],
    none: [],
  };
  return {
    limits: shareOf(LIMIT_VALUES, index, COLLECTIONS.length, rotation, scope),
    windows: windows[scope],
    startForms: shareOf(START_FORMS, index, START_FORMS.length, rotation, scope),
    endForms: shareOf(END_FORMS, index, END_FORMS.length, rotation, scope),
  };
}

/** The classes a plan covers in one run, as a report names them (`limit 1..25`, `start +05:30, 3 digits`). */
export function plannedClasses(rotation: number, scope: 'whole' | 'rotated' | 'none'): string[] {
  const all = COLLECTIONS.map((_, index) => classesOf(index, rotation, scope));
  const limits = new Set(all.flatMap((classes) => classes.limits));
  const sizes = new Set(all.flatMap((classes) => classes.windows.map((window) => window.limit)));
  const forms = (key: 'startForms' | 'endForms') =>
    [...new Set(all.flatMap((classes) => classes[key].map(describeForm)))].join(', ');
  if (limits.size === 0) return [];
  return [
    `limit: ${limits.size} of ${LIMIT_VALUES.length} values (1..${LIMIT_MAXIMUM})`,
    `walks reaching page ${DEEP_PAGE} at limits ${[...sizes].join(', ')}`,
    `start written ${forms('startForms')}`,
    `end written ${forms('endForms')}`,
  ];
}
