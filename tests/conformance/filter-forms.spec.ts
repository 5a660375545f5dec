// The start/end filters of the four collections written in every form the seed allows, and at their
// boundaries (FLT-DATE-TIME-FORMS, FLT-END-EXCLUSIVE, FLT-START-EXCLUDES-EARLIER; a bound 1 ms from a
// record's edges is filter-edges.spec.ts').
//
// "Timestamps are ISO 8601 date-time strings": an instant may be written with `Z`, `+00:00` or any other
// offset, and with 0, 3 or 6 fraction digits. The oracle needs no knowledge of the data: the same instant
// in two forms must select the same records. Starts are written with zero or positive offsets and ends with
// zero or negative ones (src/config/input-classes.ts), so a server that drops the offset moves the bound
// past the record it was set at. The boundary: start = end = a record's start selects nothing beyond either
// bound; whether that record itself is included is the suite's reading of "exclusive" (FLT-END-EXCLUSIVE), a
// warning.
import {
  buildPath,
  COMPLETE_LIMIT,
  covered,
  type DataRecord,
  type Dataset,
  type DateTimeForm,
  describeEachCollection,
  describeForm,
  EDGE_ANCHOR,
  extentOrFail,
  holds,
  identityOf,
  iso,
  type LoadedCollection,
  type Operation,
  pageOf,
  recordDifference,
  test,
  type Verdict,
  verifies,
  writable,
  writeInstant,
} from '../../src/worker/suite/index.ts';

/** The position of the record an end is set at (1 ms after its start): the record whose edges are probed. */
const END_ANCHOR = EDGE_ANCHOR;

/** One bound of the filter at the start of a record, and the walk (its first page) of its canonical form. */
interface Bound {
  param: 'start' | 'end';
  record: DataRecord;
  instant: number;
  canonical: LoadedCollection;
}

/** The first page (limit 25) of a query, read once per worker and shared by the checks of this file. */
const firstPage = (dataset: Dataset, op: Operation, query: Record<string, string>, requirement: string) =>
  dataset.walk(op, { limit: COMPLETE_LIMIT, query, requirement, pages: 1 });

/**
 * The bounds the checks set: start at the start of the record that bounds the plan's first window (its walk
 * is the pagination checks'), and end 1 ms after the start of the record at END_ANCHOR.
 */
async function boundsOf(dataset: Dataset, op: Operation, requirement: string): Promise<Bound[]> {
  const { records, extentOf } = await dataset.timed(op);
  const [window] = (await dataset.classes(op)).windows;
  const bounds: Bound[] = [];
  for (const [param, index, after] of [
    ['start', (window?.records ?? 1) - 1, 0],
    ['end', END_ANCHOR, 1],
  ] as const) {
    const record = records[Math.min(index, records.length - 1)];
    if (!record) continue;
    const instant = extentOrFail(extentOf, record, requirement).earliest + after;
    const canonical = await firstPage(dataset, op, { [param]: iso(instant) }, requirement);
    bounds.push({ param, record, instant, canonical });
  }
  return bounds;
}

describeEachCollection((op, name) => {
  const path = buildPath(op);

  test(
    ...verifies(
      'FLT-DATE-TIME-FORMS',
      `${name} selects the same records for one instant written in other offsets and fraction digits`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const classes = await dataset.classes(op);
      const bounds = await boundsOf(dataset, op, verdict.requirement);
      if (bounds.length === 0) verdict.notVerified(`${name} holds no record to set a bound at`);
      const problems: string[] = [];
      const sent: { param: string; form: DateTimeForm }[] = [];
      for (const { param, instant, canonical } of bounds) {
        const forms = param === 'start' ? classes.startForms : classes.endForms;
        for (const form of forms.filter((candidate) => writable(instant, candidate))) {
          const written = writeInstant(instant, form);
          const exchange = await api.send({
            path,
            token,
            query: { [param]: written, limit: COMPLETE_LIMIT },
          });
          verdict.expectStatus(exchange, 200);
          const page = pageOf<DataRecord>(exchange, verdict.requirement);
          const found = recordDifference(page.records, canonical.records);
          if (found)
            problems.push(
              `${param}=${written} (${describeForm(form)}) vs ${param}=${iso(instant)}: ${found}`,
            );
          sent.push({ param, form });
        }
      }
      verdict.expectNone(problems);
      if (sent.length === 0)
        verdict.notVerified(`${name}: no form of this run's share could write the instants`);
      for (const param of ['start', 'end'])
        covered(
          `${param} form`,
          sent.filter((one) => one.param === param).map(({ form }) => describeForm(form)),
          name,
        );
      verdict.evidence(
        `${name}: ${sent.length} other forms (${sent.map(({ param, form }) => `${param} ${form.offset}/${form.digits}`).join(', ')}) selected what the Z form did`,
      );
    },
  );

  /** start = end = a record's start: the records beyond either bound, in one read shared by two checks. */
  async function emptyWindow(dataset: Dataset, verdict: Verdict) {
    const { records, extentOf } = await dataset.timed(op);
    const [window] = (await dataset.classes(op)).windows;
    const record = records[Math.min((window?.records ?? 1) - 1, records.length - 1)];
    if (!record) return verdict.notVerified(`${name} holds no record to set the bounds at`);
    const at = extentOrFail(extentOf, record, verdict.requirement).earliest;
    const walk = await firstPage(dataset, op, { start: iso(at), end: iso(at) }, verdict.requirement);
    const extent = (one: DataRecord) => extentOrFail(extentOf, one, verdict.requirement);
    covered('filter boundary', ["start = end = a record's start"], name);
    return { at, record, walk, extent };
  }

  test(
    ...verifies(
      'FLT-END-EXCLUSIVE',
      `${name} with start = end = a record's start returns no record starting after end (that record left out, by the suite's reading)`,
    ),
    async ({ dataset, verdict }) => {
      const { at, record, walk, extent } = await emptyWindow(dataset, verdict);
      const exchange = walk.pages[0]?.exchange;
      const later = walk.records.filter((one) => extent(one).earliest > at);
      verdict.expectNone(
        later.map(
          (one) =>
            `start=end=${iso(at)}: record ${identityOf(one)} starts after end (${iso(extent(one).earliest)})`,
        ),
        exchange,
      );
      if (holds(walk.records, record))
        verdict.warn(
          `start=end=${iso(at)}: record ${identityOf(record)}, starting exactly at end, is included`,
          exchange,
        );
      verdict.evidence(
        `${name}: start=end=${iso(at)} answered ${walk.records.length} record(s), none later`,
        { exchange },
      );
    },
  );

  test(
    ...verifies(
      'FLT-START-EXCLUDES-EARLIER',
      `${name} with start = end = a record's start returns no record that ended before start`,
    ),
    async ({ dataset, verdict }) => {
      const { at, walk, extent } = await emptyWindow(dataset, verdict);
      const exchange = walk.pages[0]?.exchange;
      const earlier = walk.records.filter((one) => extent(one).finish < at);
      verdict.expectNone(
        earlier.map(
          (one) =>
            `start=end=${iso(at)}: record ${identityOf(one)} ended before start (${iso(extent(one).finish)})`,
        ),
        exchange,
      );
      verdict.evidence(
        `${name}: start=end=${iso(at)} answered ${walk.records.length} record(s), none earlier`,
        { exchange },
      );
    },
  );
});
