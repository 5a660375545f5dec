// Pagination of the four collections (PAG-*), table-driven over the catalogue's collection operations:
// limit (default, maximum, over the maximum, type, minimum), page sizes, the first and last pages, and
// next_token (complete, no duplicates, no gaps, independent of the page size, bound to its user and query).
//
// Reference data: the complete walk of each collection with limit 20 (memoised per worker), and walks of
// one start-filtered window (~20 and ~60 records) with limits 1, 7 and 25, which bound the cost of small
// page sizes. Comparisons between walks of the same query need no reading of the filter semantics.

import { duplicateProblems } from '../../src/checks/invariants.ts';
import type { Operation } from '../../src/contract/operation-model.ts';
import { buildPath } from '../../src/contract/request-paths.ts';
import type { ApiClient } from '../../src/http/api-client.ts';
import { describeExchange, type Exchange } from '../../src/http/exchange.ts';
import { type CollectionWalk, type Page, readPage } from '../../src/suite/collections.ts';
import { ALL_READ_SCOPES } from '../../src/suite/fixtures.ts';
import { type DataRecord, extentOrFail, identities, identityOf, iso } from '../../src/suite/records.ts';
import { test } from '../../src/suite/test.ts';
import { describeOperation, userCollections } from '../../src/suite/user-catalogue.ts';
import { REFERENCE_LIMIT } from '../../src/suite/user-data.ts';

const COMPLETE = `complete walk, limit=${REFERENCE_LIMIT}`;

import {
  ConformanceFailure,
  evidence,
  expectNo5xx,
  expectNone,
  expectStatus,
  expectThat,
  notVerified,
  warn,
} from '../../src/suite/verdicts.ts';

/** limit's default and maximum, from the operation's parameter schema (10 and 25 in the seed). */
function limitRules(op: Operation): { byDefault: number; maximum: number } {
  const schema = op.queryParams.find((param) => param.name === 'limit')?.schema;
  if (typeof schema?.default !== 'number' || schema.maximum === undefined) {
    throw new Error(`${op.operationId}: the catalogue gives limit no default or maximum`);
  }
  return { byDefault: schema.default, maximum: schema.maximum };
}

/**
 * A start that selects roughly the newest `size` records: the time of the size-th record of the complete
 * walk (its start; a recovery, which has none, its created_at). Only walks of the same query are compared,
 * so the exact window does not matter.
 */
function windowQuery(all: readonly DataRecord[], size: number): Record<string, string> {
  const record = all[Math.min(size, all.length) - 1];
  const time = record?.start ?? record?.created_at;
  return typeof time === 'string' ? { start: time } : {};
}

const sameSequence = (a: readonly string[], b: readonly string[]): string | undefined => {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    if (a[index] !== b[index]) {
      return `first difference at position ${index}: ${a[index] ?? '(end)'} vs ${b[index] ?? '(end)'} (${a.length} vs ${b.length} records)`;
    }
  }
  return undefined;
};

/** A different character of the same kind (base64url: the top bit of its 6-bit value flipped). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
function flipAt(cursor: string, from: number): string {
  for (let index = Math.max(0, from); index < cursor.length; index++) {
    const position = ALPHABET.indexOf(cursor.charAt(index));
    if (position < 0) continue;
    const replacement = ALPHABET.charAt(position ^ 32);
    return cursor.slice(0, index) + replacement + cursor.slice(index + 1);
  }
  return `${cursor}x`;
}

/** A first page that has a next_token: its cursor is the raw material of the cursor tests. */
async function cursorOf(
  api: ApiClient,
  op: Operation,
  token: string,
  query: Record<string, string> = {},
): Promise<{ page: Page<DataRecord>; cursor: string }> {
  const page = await readPage<DataRecord>(api, buildPath(op), {
    token,
    query,
    limit: 5,
    requirement: 'PAG-CURSOR-INVALID',
  });
  if (page.nextToken === undefined)
    notVerified(
      `${describeOperation(op)}: a first page of 5 records carries no next_token, so there is no cursor to test (the collection needs more than 5 records)`,
    );
  return { page, cursor: page.nextToken };
}

/**
 * PAG-CURSOR-INVALID: an opaque cursor that is not the previous response's may be refused (the suite's
 * reading: 400) or served; it must never get a 5xx or serve another user's records (`own`: the identities
 * of the caller's complete collection).
 */
function expectNoLeak(exchange: Exchange, what: string, own: ReadonlySet<string>): void {
  if (exchange.status >= 500)
    throw new ConformanceFailure(
      'PAG-CURSOR-INVALID',
      `${what}: server error ${exchange.status}\n${describeExchange(exchange)}`,
    );
  if (exchange.status === 400) return;
  if (exchange.status === 200) {
    const records = exchange.json<{ records?: DataRecord[] }>().records ?? [];
    const foreign = records.filter((record) => !own.has(identityOf(record)));
    if (foreign.length > 0)
      throw new ConformanceFailure(
        'PAG-CURSOR-INVALID',
        `${what}: served ${foreign.length} record(s) that are not the caller's (e.g. ${identityOf(foreign[0] as DataRecord)})\n${describeExchange(exchange)}`,
      );
  }
  warn('PAG-CURSOR-INVALID', `${what}: answered ${exchange.status}, not 400`, exchange);
}

const pageProblems = (walk: CollectionWalk<DataRecord>, limit: number, what: string): string[] =>
  walk.pages.flatMap((page, index) =>
    page.records.length > limit
      ? [`${what}, page ${index + 1}: ${page.records.length} records for limit ${limit}`]
      : [],
  );

for (const op of userCollections) {
  const path = buildPath(op);
  const name = describeOperation(op);
  const { byDefault, maximum } = limitRules(op);

  test.describe(name, () => {
    // The checks read real, persistent data (a mock answers with fixed examples).
    test.beforeEach(({ requires }) => requires('stateful'));

    test(`PAG-LIMIT-DEFAULT: ${name} without limit returns ${byDefault} records when more exist`, {
      tag: ['@PAG-LIMIT-DEFAULT'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const first = await readPage<DataRecord>(api, path, { token, requirement: 'PAG-LIMIT-DEFAULT' });
      const all = await dataset.referenceWalk(op);
      const count = first.records.length;
      expectThat(
        'PAG-LIMIT-DEFAULT',
        count <= byDefault,
        `the first page without limit holds ${count} records, more than the default ${byDefault}`,
        first.exchange,
      );
      if (all.records.length <= byDefault)
        notVerified(
          `${name} holds ${all.records.length} records: the default page size needs more than ${byDefault}`,
        );
      expectThat(
        'PAG-LIMIT-DEFAULT',
        count === byDefault,
        `the first page without limit holds ${count} records, not ${byDefault}, although the collection has ${all.records.length}`,
        first.exchange,
      );
      evidence('PAG-LIMIT-DEFAULT', `${name}: ${count} records without limit, of ${all.records.length}`);
    });

    test(`PAG-LIMIT-MAX: ${name} accepts limit=${maximum} and returns ${maximum} records when more exist`, {
      tag: ['@PAG-LIMIT-MAX'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const exchange = await api.send({ path, token, query: { limit: maximum } });
      expectStatus('PAG-LIMIT-MAX', exchange, 200);
      const records = exchange.json<{ records?: unknown[] }>().records ?? [];
      const all = await dataset.referenceWalk(op);
      expectThat(
        'PAG-LIMIT-MAX',
        records.length <= maximum,
        `limit=${maximum} returned ${records.length} records`,
        exchange,
      );
      if (all.records.length <= maximum)
        notVerified(`${name} holds ${all.records.length} records: a full page of ${maximum} needs more`);
      expectThat(
        'PAG-LIMIT-MAX',
        records.length === maximum,
        `limit=${maximum} returned ${records.length} records although the collection has ${all.records.length}`,
        exchange,
      );
      evidence(
        'PAG-LIMIT-MAX',
        `${name}: ${records.length} records for limit=${maximum}, of ${all.records.length}`,
      );
    });

    test(`PAG-LIMIT-OVER-MAX: ${name} answers 400 to limit=${maximum + 1} and limit=${maximum * 4}`, {
      tag: ['@PAG-LIMIT-OVER-MAX'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      for (const limit of [maximum + 1, maximum * 4]) {
        expectStatus('PAG-LIMIT-OVER-MAX', await api.send({ path, token, query: { limit } }), 400);
      }
    });

    test(`PAG-LIMIT-TYPE: ${name} answers 400 to limit=1.5 and limit=abc (and, by the suite's reading, to an empty limit)`, {
      tag: ['@PAG-LIMIT-TYPE'],
    }, async ({ api, userToken }) => {
      const token = await userToken();
      for (const limit of ['1.5', 'abc']) {
        expectStatus('PAG-LIMIT-TYPE', await api.send({ path, token, query: { limit } }), 400);
      }
      const empty = await api.send({ path, token, query: { limit: '' } });
      expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', empty);
      if (empty.status !== 400)
        warn('PAG-LIMIT-TYPE', `an empty limit answered ${empty.status}, not 400`, empty);
    });

    test(`PAG-LIMIT-MINIMUM: ${name} answers limit=0 and limit=-1 without a 5xx (minimum not shown)`, {
      tag: ['@PAG-LIMIT-MINIMUM'],
    }, async ({ api, userToken, note }) => {
      const token = await userToken();
      for (const limit of ['0', '-1']) {
        const exchange = await api.send({ path, token, query: { limit } });
        expectNo5xx('ERR-NO-5XX-ON-CLIENT-INPUT', exchange);
        const served =
          exchange.status === 200
            ? ` with ${(exchange.json<{ records?: unknown[] }>().records ?? []).length} records`
            : '';
        note('PAG-LIMIT-MINIMUM', `${name} limit=${limit}: answered ${exchange.status}${served}`);
      }
    });

    test(`PAG-PAGE-WITHIN-LIMIT: ${name} never returns more records than the limit asked for`, {
      tag: ['@PAG-PAGE-WITHIN-LIMIT'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const problems: string[] = [];
      for (const limit of [1, 3, 7, 13, maximum]) {
        const first = await readPage<DataRecord>(api, path, {
          token,
          limit,
          requirement: 'PAG-PAGE-WITHIN-LIMIT',
        });
        const pages = [first];
        if (first.nextToken !== undefined) {
          pages.push(
            await readPage<DataRecord>(
              api,
              path,
              { token, limit, requirement: 'PAG-PAGE-WITHIN-LIMIT' },
              first.nextToken,
            ),
          );
        }
        pages.forEach((page, index) => {
          if (page.records.length > limit) {
            problems.push(
              `limit=${limit}, page ${index + 1}: ${page.records.length} records (${page.exchange.request.url.replace(/nextToken=[^&]*/, 'nextToken=…')})`,
            );
          }
        });
      }
      problems.push(...pageProblems(await dataset.referenceWalk(op), REFERENCE_LIMIT, COMPLETE));
      expectNone('PAG-PAGE-WITHIN-LIMIT', problems);
    });

    test(`PAG-FIRST-PAGE: ${name} without nextToken returns the newest records`, {
      tag: ['@PAG-FIRST-PAGE'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const all = await dataset.referenceWalk(op);
      const extentOf = await dataset.extents(op);
      const key = (record: DataRecord) => extentOrFail(extentOf, record, 'PAG-FIRST-PAGE').key;
      if (all.records.length < 3)
        notVerified(`${name} holds ${all.records.length} records; the check needs at least 3`);
      const problems: string[] = [];

      // The first page is the head of the complete walk, and its first record is the newest of all.
      const first = await readPage<DataRecord>(api, path, {
        token,
        limit: 10,
        requirement: 'PAG-FIRST-PAGE',
      });
      const head = identities(all.records).slice(0, first.records.length);
      const difference = sameSequence(identities(first.records), head);
      if (difference)
        problems.push(`the first page (limit=10) is not the head of the complete walk: ${difference}`);
      const newest = first.records[0];
      if (newest) {
        const newer = all.records.filter((record) => key(record) > key(newest));
        for (const record of newer) {
          problems.push(
            `record ${identityOf(record)} (time ${iso(key(record))}) is newer than the first record of the first page, ${identityOf(newest)} (${iso(key(newest))})`,
          );
        }
      }

      // With end = the start of the 6th record, the first page must begin with the newest record that
      // certainly falls before end (a record the complete walk found), not skip it.
      const cut = extentOrFail(
        extentOf,
        all.records[Math.min(5, all.records.length - 2)] as DataRecord,
        'PAG-FIRST-PAGE',
      ).earliest;
      const before = all.records.filter(
        (record) => extentOrFail(extentOf, record, 'PAG-FIRST-PAGE').latest < cut,
      );
      const filtered = await readPage<DataRecord>(api, path, {
        token,
        limit: 10,
        query: { end: iso(cut) },
        requirement: 'PAG-FIRST-PAGE',
      });
      const onPage = new Set(identities(filtered.records));
      const oldestOnPage = Math.min(...filtered.records.map(key));
      if (before.length > 0 && filtered.records.length === 0) {
        problems.push(
          `with end=${iso(cut)} the first page is empty although ${before.length} records started before it`,
        );
      }
      for (const record of before) {
        if (!onPage.has(identityOf(record)) && key(record) > oldestOnPage) {
          problems.push(
            `with end=${iso(cut)}: record ${identityOf(record)} (${iso(key(record))}) is newer than records on the first page but is not on it`,
          );
        }
      }
      expectNone('PAG-FIRST-PAGE', problems, filtered.exchange);
      evidence(
        'PAG-FIRST-PAGE',
        `${name}: first pages compared with a complete walk of ${all.records.length} records`,
      );
    });

    test(`PAG-NEXT-TOKEN: ${name} following next_token visits every record exactly once (limits 1, 7, 20, 25)`, {
      tag: ['@PAG-NEXT-TOKEN'],
    }, async ({ dataset }) => {
      const all = await dataset.referenceWalk(op);
      const known = new Set(identities(all.records));
      const wide = windowQuery(all.records, 60);
      const narrow = windowQuery(all.records, 20);
      const walks: [string, CollectionWalk<DataRecord>][] = [
        [COMPLETE, all],
        [
          `start=${wide.start}, limit=25`,
          await dataset.walk(op, { limit: 25, query: wide, requirement: 'PAG-NEXT-TOKEN' }),
        ],
        [
          `start=${wide.start}, limit=7`,
          await dataset.walk(op, { limit: 7, query: wide, requirement: 'PAG-NEXT-TOKEN' }),
        ],
        [
          `start=${narrow.start}, limit=25`,
          await dataset.walk(op, { limit: 25, query: narrow, requirement: 'PAG-NEXT-TOKEN' }),
        ],
        [
          `start=${narrow.start}, limit=1`,
          await dataset.walk(op, { limit: 1, query: narrow, requirement: 'PAG-NEXT-TOKEN' }),
        ],
      ];
      const problems: string[] = [];
      for (const [what, walk] of walks) {
        problems.push(
          ...duplicateProblems(walk.records, (record) => identityOf(record as DataRecord)).map(
            (p) => `${what}: ${p}`,
          ),
        );
        for (const record of walk.records) {
          if (!known.has(identityOf(record))) {
            problems.push(
              `${what}: record ${identityOf(record)} was never visited by the complete walk (a gap)`,
            );
          }
        }
      }
      // The same query walked with different page sizes visits the same records.
      for (const [a, b] of [
        [1, 2],
        [3, 4],
      ] as const) {
        const [nameA, walkA] = walks[a] as [string, CollectionWalk<DataRecord>];
        const [nameB, walkB] = walks[b] as [string, CollectionWalk<DataRecord>];
        const setB = new Set(identities(walkB.records));
        const setA = new Set(identities(walkA.records));
        for (const id of setA)
          if (!setB.has(id)) problems.push(`${id} is visited with ${nameA} but not with ${nameB}`);
        for (const id of setB)
          if (!setA.has(id)) problems.push(`${id} is visited with ${nameB} but not with ${nameA}`);
      }
      expectNone('PAG-NEXT-TOKEN', problems);
      const followed = walks.reduce((sum, [, walk]) => sum + walk.pages.length - 1, 0);
      if (followed === 0) notVerified(`${name}: every walk fits on one page, so no next_token was followed`);
      evidence('PAG-NEXT-TOKEN', `${name}: ${followed} next_tokens followed over ${walks.length} walks`);
    });

    test(`PAG-PAGE-SIZE-INDEPENDENT: ${name} gives the same sequence for limits 1, 7 and 25`, {
      tag: ['@PAG-PAGE-SIZE-INDEPENDENT'],
    }, async ({ dataset }) => {
      const all = await dataset.referenceWalk(op);
      const problems: string[] = [];
      for (const [query, limits] of [
        [windowQuery(all.records, 20), [1, 7, 25]],
        [windowQuery(all.records, 60), [7, 25]],
      ] as const) {
        const sequences: [number, string[]][] = [];
        for (const limit of limits) {
          const walk = await dataset.walk(op, {
            limit,
            query,
            requirement: 'PAG-PAGE-SIZE-INDEPENDENT',
          });
          sequences.push([limit, identities(walk.records)]);
        }
        const [reference, ...rest] = sequences;
        for (const [limit, sequence] of rest) {
          const difference = sameSequence(sequence, (reference as [number, string[]])[1]);
          if (difference) {
            problems.push(
              `start=${query.start}: limit=${limit} vs limit=${(reference as [number, string[]])[0]}: ${difference}`,
            );
          }
        }
      }
      expectNone('PAG-PAGE-SIZE-INDEPENDENT', problems);
      if (all.records.length < 2)
        notVerified(`${name} holds ${all.records.length} record(s): no order to compare`);
      evidence('PAG-PAGE-SIZE-INDEPENDENT', `${name}: windows of up to 60 of ${all.records.length} records`);
    });

    test(`PAG-LAST-PAGE: ${name} walks end on a page without next_token, every next_token can be followed, and a full last page carries none`, {
      tag: ['@PAG-LAST-PAGE'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const all = await dataset.referenceWalk(op);
      const narrow = windowQuery(all.records, 20);
      const window = await dataset.walk(op, {
        limit: 7,
        query: narrow,
        requirement: 'PAG-LAST-PAGE',
      });
      // The walks themselves (collections.ts) fail PAG-LAST-PAGE on a next_token that cannot be followed
      // or that never ends. A next_token leading to an empty last page is a cursor that does not look
      // ahead: the seed does not forbid it, the suite's reading does.
      for (const [what, walk] of [
        [COMPLETE, all],
        [`start=${narrow.start}, limit=7`, window],
      ] as const) {
        walk.pages.forEach((page, index) => {
          const next = walk.pages[index + 1];
          if (page.nextToken !== undefined && next && next.records.length === 0)
            warn(
              'PAG-LAST-PAGE',
              `${what}: page ${index + 1} carries a next_token, but the page it leads to is empty`,
              next.exchange,
            );
        });
      }
      // A page that holds the whole window is the last page: by the reading, no next_token.
      const count = window.records.length;
      if (count > 0 && count <= 25) {
        const whole = await readPage<DataRecord>(api, path, {
          token,
          limit: count,
          query: narrow,
          requirement: 'PAG-LAST-PAGE',
        });
        if (whole.records.length === count && whole.nextToken !== undefined) {
          warn(
            'PAG-LAST-PAGE',
            `start=${narrow.start}, limit=${count}: the page holds all ${count} records of the window yet carries a next_token`,
            whole.exchange,
          );
          await readPage<DataRecord>(
            api,
            path,
            { token, limit: count, query: narrow, requirement: 'PAG-LAST-PAGE' },
            whole.nextToken,
          );
        }
      }
      evidence(
        'PAG-LAST-PAGE',
        `${name}: ${all.pages.length + window.pages.length} pages of two walks ended without next_token`,
      );
    });

    test(`PAG-CURSOR-INVALID: ${name} never answers a tampered or made-up nextToken with a 5xx or another user's records`, {
      tag: ['@PAG-CURSOR-INVALID'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const { cursor } = await cursorOf(api, op, token);
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      const variants: [string, string][] = [
        ['a character in the middle changed', flipAt(cursor, Math.floor(cursor.length / 2))],
        ['its last character changed', flipAt(cursor, cursor.length - 1)],
        ['junk appended', `${cursor}AAAA`],
        ['a made-up string', 'bm90LWEtcmVhbC1jdXJzb3I'],
      ];
      for (const [what, variant] of variants) {
        const exchange = await api.send({ path, token, query: { limit: 5, nextToken: variant } });
        expectNoLeak(exchange, `a next_token with ${what}`, own);
      }
      evidence('PAG-CURSOR-INVALID', `${name}: ${variants.length} altered cursors`);
    });

    test(`PAG-CURSOR-INVALID: ${name} never serves user B's records to user A presenting B's nextToken`, {
      tag: ['@PAG-CURSOR-INVALID'],
    }, async ({ api, dataset, userToken, requires }) => {
      requires('second-user');
      const { cursor } = await cursorOf(api, op, await userToken(ALL_READ_SCOPES, 'B'));
      const token = await userToken();
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      const exchange = await api.send({ path, token, query: { limit: 5, nextToken: cursor } });
      expectNoLeak(exchange, "user B's next_token used by user A", own);
      evidence('PAG-CURSOR-INVALID', `${name}: user B's cursor answered ${exchange.status}`);
    });

    test(`PAG-CURSOR-INVALID: ${name} never answers a nextToken used with another start or end with a 5xx or another user's records`, {
      tag: ['@PAG-CURSOR-INVALID'],
    }, async ({ api, dataset, userToken }) => {
      const token = await userToken();
      const start = '2000-01-01T00:00:00.000Z';
      const { cursor } = await cursorOf(api, op, token, { start });
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      for (const query of [
        {},
        { start: '2000-01-02T00:00:00.000Z' },
        { start, end: iso(Date.now() + 86_400_000) },
      ]) {
        const exchange = await api.send({ path, token, query: { ...query, limit: 5, nextToken: cursor } });
        expectNoLeak(
          exchange,
          `a next_token issued for start=${start} used with ${JSON.stringify(query)}`,
          own,
        );
      }
      evidence('PAG-CURSOR-INVALID', `${name}: a cursor reused under 3 other queries`);
    });
  });
}
