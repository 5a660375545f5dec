// The conforming variants of the input classes (issue 31): timestamps written in another offset and precision
// than the client's, offsets normalised, short last pages below the maximum limit, a long history. Each one
// changes what it says, and every page still conforms (see sandbox-variants.spec.ts).
import { expect, test } from '@playwright/test';
import { collections } from './sandbox-client.ts';
import {
  collectionEntries,
  conforms,
  DAY,
  idOf,
  iso,
  ms,
  pageSchemas,
  pages,
  type Rec,
  recordsOf,
  userSandbox,
} from './sandbox-variant-support.ts';

const TIMES = ['start', 'end', 'created_at', 'updated_at'] as const;

/**
 * The first page (limit 25) of each collection under a variant and without it, record by record: every time
 * names the same instant, written in the `form`; `alsoCheck` sees each varied record.
 */
async function expectSameInstants(
  variant: ReturnType<typeof userSandbox>,
  plain: ReturnType<typeof userSandbox>,
  form: RegExp,
  alsoCheck: (varied: Rec) => void,
): Promise<void> {
  for (const [name, path] of collectionEntries) {
    const varied = (await pages(variant(), path, { limit: '25' }))[0] as Rec;
    const canonical = (await pages(plain(), path, { limit: '25' }))[0] as Rec;
    conforms(pageSchemas[name], varied);
    const records = varied.records as Rec[];
    (canonical.records as Rec[]).forEach((record, index) => {
      const other = records[index] as Rec;
      for (const field of TIMES) {
        if (record[field] === undefined) continue;
        expect(ms(other[field]), `${name} ${field}`).toBe(ms(record[field]));
        expect(String(other[field])).toMatch(form);
      }
      alsoCheck(other);
    });
  }
}

test.describe('variants local-time-stamps and utc-microseconds', () => {
  const plain = userSandbox([]);
  const local = userSandbox(['local-time-stamps']);
  const micro = userSandbox(['utc-microseconds']);

  test("local-time-stamps: every time in the record's own offset, no fraction digits, the same instants", async () => {
    await expectSameInstants(local, plain, /T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/, (other) => {
      if (typeof other.timezone_offset === 'string' && other.timezone_offset !== 'Z')
        expect(String(other.start)).toMatch(new RegExp(`${other.timezone_offset.replace('+', '\\+')}$`));
    });
  });

  test('utc-microseconds: every time in +00:00 with 6 fraction digits, the same instants', async () => {
    await expectSameInstants(micro, plain, /\.\d{6}\+00:00$/, (other) => {
      expect(other.timezone_offset).not.toBe('Z');
    });
  });
});

test.describe('variant small-limits-short-last-page', () => {
  const run = userSandbox(['small-limits-short-last-page']);

  test('below 25 a full page always leads on, so a window that fills its pages ends on an empty one; 25 looks ahead', async () => {
    const { clock } = run();
    const window = { start: iso(clock.ms - 6 * DAY) };
    const by25 = await pages(run(), collections.cycle, { ...window, limit: '25' });
    expect(by25).toHaveLength(1);
    const count = recordsOf(by25).length;
    const byOne = await pages(run(), collections.cycle, { ...window, limit: '1' });
    expect(byOne.map((page) => (page.records as Rec[]).length)).toEqual([...Array(count).fill(1), 0]);
    expect(recordsOf(byOne).map(idOf)).toEqual(recordsOf(by25).map(idOf));
    for (const page of byOne) conforms(pageSchemas.cycle, page);
  });
});

test.describe('variant long-history', () => {
  const run = userSandbox(['long-history']);

  test('about three years of cycles, each page still conforming', async () => {
    const { clock } = run();
    const oldest = await pages(run(), collections.cycle, { end: iso(clock.ms - 1000 * DAY), limit: '25' });
    const [first] = oldest;
    expect((first?.records as Rec[] | undefined)?.length).toBe(25);
    conforms(pageSchemas.cycle, first);
  });
});
