// Page sizes of the four collections (PAG-LIMIT-*, PAG-PAGE-WITHIN-LIMIT), table-driven over the catalogue's
// collections: limit's default and maximum (from the operation's parameter schema), a limit over the maximum,
// of the wrong type or below one, and no page larger than the limit asked for, over every value of limit's
// domain in every run (each collection its share, src/config/input-classes.ts).
import {
  buildPath,
  COMPLETE_LIMIT,
  COMPLETE_WALK,
  type CollectionWalk,
  covered,
  type DataRecord,
  describeEachCollection,
  type Operation,
  type Page,
  readPage,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

/** limit's default and maximum, from the operation's parameter schema (10 and 25 in the seed). */
function limitRules(op: Operation): { byDefault: number; maximum: number } {
  const schema = op.queryParams.find((param) => param.name === 'limit')?.schema;
  if (typeof schema?.default !== 'number' || schema.maximum === undefined) {
    throw new Error(`${op.operationId}: the catalogue gives limit no default or maximum`);
  }
  return { byDefault: schema.default, maximum: schema.maximum };
}

const pageProblems = (walk: CollectionWalk<DataRecord>, limit: number, what: string): string[] =>
  walk.pages.flatMap((page, index) =>
    page.records.length > limit
      ? [`${what}, page ${index + 1}: ${page.records.length} records for limit ${limit}`]
      : [],
  );

/** A read with a page size, and how many records its query selects: more than the limit, or none can break it. */
interface SizedRead {
  what: string;
  limit: number;
  walk: CollectionWalk<DataRecord>;
  selected: number;
}

describeEachCollection((op, name) => {
  const path = buildPath(op);
  const { byDefault, maximum } = limitRules(op);

  test(
    ...verifies('PAG-LIMIT-DEFAULT', `${name} without limit returns ${byDefault} records when more exist`),
    async ({ dataset, verdict }) => {
      const first = await dataset.firstPage(op);
      const all = await dataset.referenceWalk(op);
      const count = first.records.length;
      verdict.expectThat(
        count <= byDefault,
        `the first page without limit holds ${count} records, more than the default ${byDefault}`,
        first.exchange,
      );
      if (all.records.length <= byDefault)
        verdict.notVerified(
          `${name} holds ${all.records.length} records: the default page size needs more than ${byDefault}`,
        );
      verdict.expectThat(
        count === byDefault,
        `the first page without limit holds ${count} records, not ${byDefault}, although the collection has ${all.records.length}`,
        first.exchange,
      );
      verdict.evidence(`${name}: ${count} records without limit, of ${all.records.length}`);
    },
  );

  test(
    ...verifies(
      'PAG-LIMIT-MAX',
      `${name} accepts limit=${maximum} and returns ${maximum} records when more exist`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      // The complete walk's first page is this request; it is sent again when that walk failed (to see why).
      const outcome = await dataset.outcome(op);
      const exchange =
        outcome.ok && maximum === COMPLETE_LIMIT
          ? (outcome.value.pages[0] as Page<DataRecord>).exchange
          : await api.send({ path, token: await userToken(), query: { limit: maximum } });
      verdict.expectStatus(exchange, 200);
      const records = verdict.pageRecords(exchange);
      const all = await dataset.referenceWalk(op);
      verdict.expectThat(
        records.length <= maximum,
        `limit=${maximum} returned ${records.length} records`,
        exchange,
      );
      if (all.records.length <= maximum)
        verdict.notVerified(
          `${name} holds ${all.records.length} records: a full page of ${maximum} needs more`,
        );
      verdict.expectThat(
        records.length === maximum,
        `limit=${maximum} returned ${records.length} records although the collection has ${all.records.length}`,
        exchange,
      );
      verdict.evidence(`${name}: ${records.length} records for limit=${maximum}, of ${all.records.length}`);
    },
  );

  test(
    ...verifies(
      'PAG-LIMIT-OVER-MAX',
      `${name} never serves more than ${maximum} records to limit=${maximum + 1} and limit=${maximum * 4} (by the suite's reading, 400)`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      for (const limit of [maximum + 1, maximum * 4]) {
        const exchange = await api.send({ path, token, query: { limit } });
        verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
        if (exchange.status === 400) continue;
        // The seed states the maximum ("maximum 25"), not that a larger limit is refused: a page beyond the
        // maximum breaks it; a page capped at the maximum departs from the suite's reading only.
        const served = exchange.status === 200 ? verdict.pageRecords(exchange).length : 0;
        verdict.expectThat(
          served <= maximum,
          `limit=${limit} returned ${served} records, more than the maximum ${maximum}`,
          exchange,
        );
        verdict.warn(
          `limit=${limit} answered ${exchange.status}${exchange.status === 200 ? ` with ${served} records` : ''}, not 400`,
          exchange,
        );
      }
      // A page over the maximum can be served only from a collection that holds more.
      const held = (await dataset.referenceWalk(op)).records.length;
      if (held <= maximum)
        verdict.notVerified(
          `${name} holds ${held} records: no answer to limit=${maximum + 1} could hold more than ${maximum}`,
        );
      verdict.evidence(`${name}: ${held} records, never more than ${maximum} on a page for a larger limit`, {
        count: held,
      });
    },
  );

  test(
    ...verifies(
      'PAG-LIMIT-TYPE',
      `${name} answers 400 to limit=1.5 and limit=abc (and, by the suite's reading, to an empty limit)`,
    ),
    async ({ api, userToken, verdict }) => {
      const token = await userToken();
      for (const limit of ['1.5', 'abc']) {
        const exchange = await api.send({ path, token, query: { limit } });
        verdict.expectStatus(exchange, 400);
        verdict.evidence('a limit that is no int32 refused', { exchange });
      }
      const empty = await api.send({ path, token, query: { limit: '' } });
      verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(empty);
      if (empty.status !== 400) verdict.warn(`an empty limit answered ${empty.status}, not 400`, empty);
    },
  );

  test(
    ...verifies(
      'PAG-LIMIT-MINIMUM',
      `${name} answers limit=0 and limit=-1 without a 5xx (minimum not shown)`,
    ),
    async ({ api, userToken, verdict }) => {
      const token = await userToken();
      for (const limit of ['0', '-1']) {
        const exchange = await api.send({ path, token, query: { limit } });
        verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
        const served = exchange.status === 200 ? ` with ${verdict.pageRecords(exchange).length} records` : '';
        verdict.note(`${name} limit=${limit}: answered ${exchange.status}${served}`);
      }
    },
  );

  test(
    ...verifies(
      'PAG-PAGE-WITHIN-LIMIT',
      `${name} never returns more records than the limit asked for, over the run's share of limits 1 to ${maximum}`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const complete = await dataset.referenceWalk(op);
      const held = complete.records.length;
      const reads: SizedRead[] = [
        { what: COMPLETE_WALK, limit: COMPLETE_LIMIT, walk: complete, selected: held },
      ];
      const classes = await dataset.classes(op);
      // Every page of the windows the pagination checks walk (src/config/input-classes.ts), then a first
      // page for each other limit value this collection gets in this run.
      for (const { limit, small, whole } of await dataset.windowWalks(op, verdict.requirement))
        for (const [size, { what, walk }] of [
          [limit, small],
          [COMPLETE_LIMIT, whole],
        ] as const)
          reads.push({ what, limit: size, walk, selected: walk.records.length });
      const walked = new Set(reads.map(({ limit }) => limit));
      for (const limit of classes.limits.filter((value) => !walked.has(value))) {
        const first = await readPage<DataRecord>(api, path, {
          token,
          limit,
          requirement: verdict.requirement,
        });
        const walk = { pages: [first], records: first.records };
        reads.push({ what: `limit=${limit}`, limit, walk, selected: held });
      }
      verdict.expectNone(reads.flatMap(({ what, limit, walk }) => pageProblems(walk, limit, what)));
      // A page that leads to another is not the last: by the reading, it holds the limit asked for.
      for (const { what, limit, walk } of reads)
        walk.pages.forEach((page, index) => {
          if (page.nextToken !== undefined && page.records.length < limit)
            verdict.warn(
              `${what}, page ${index + 1}: ${page.records.length} records for limit ${limit}, though a next_token follows`,
              page.exchange,
            );
        });
      const telling = reads.filter(({ limit, selected }) => selected > limit);
      if (telling.length === 0)
        verdict.notVerified(`${name} holds ${held} record(s): no read selected more records than its limit`);
      const tellingLimits = [...new Set(telling.map(({ limit }) => limit))];
      covered('limit', tellingLimits, name);
      verdict.evidence(
        `${name}: ${telling.length} reads over more records than their limit, limits ${tellingLimits.sort((a, b) => a - b).join(', ')}`,
      );
    },
  );
});
