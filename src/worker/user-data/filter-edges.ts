// The start and end filters probed at the edges of a record the run has read: each bound 1 ms before and
// after the record's start and its end, and how every record of the reference walk stands to each bound by
// the seed's sentences: start "include records that occurred after or during (inclusive) this time", end
// "include records that intersect this time or ended before (exclusive) it". A bound the server rounds or
// truncates moves across an edge, and a record lands on the wrong side of it.
import type { Operation } from '../../contract/operation-model.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Page } from './collections.ts';
import type { Dataset } from './dataset.ts';
import { type DataRecord, type Extent, extentOrFail, holds, identityOf, iso } from './records.ts';
import { COMPLETE_LIMIT } from './user-data-cache.ts';

/** The position in the reference walk of the record whose edges are probed (end = its start + 1 ms is
 * also FLT-DATE-TIME-FORMS' end bound: one read for both). */
export const EDGE_ANCHOR = 5;

export type BoundParam = 'start' | 'end';

/**
 * How a record stands to a bound: it must be served (in), must not be (out), is under way at a start
 * (during: either, but alike for every such start), or the seed leaves it open (an edge exactly at the
 * bound, where the suite's readings warn; a recovery whose sleep and cycle stand apart).
 */
export type Standing = 'in' | 'out' | 'during' | 'open';

/** start: a record from the bound on is in, one that ended before it out, one under way at it during. */
function toStart(extent: Extent, bound: number): Standing {
  if (extent.earliest >= bound) return 'in';
  if (extent.finish < bound) return 'out';
  return extent.latest < bound && bound < extent.earliestFinish ? 'during' : 'open';
}

/** end: a record starting after the bound is out; one begun before it (and not ending at it) in. */
function toEnd(extent: Extent, bound: number): Standing {
  if (extent.earliest > bound) return 'out';
  const endsAtBound = extent.earliestFinish === bound || extent.finish === bound;
  return extent.latest < bound && !endsAtBound ? 'in' : 'open';
}

/** How a record of `extent` stands to a bound of each filter. */
export const standingTo: Record<BoundParam, (extent: Extent, bound: number) => Standing> = {
  start: toStart,
  end: toEnd,
};

/** A record of the reference walk, its time known. */
interface Known {
  record: DataRecord;
  extent: Extent;
}

/** How one record of the walk fared under one probe. */
export interface Seen {
  known: Known;
  standing: Standing;
  /** Served, or left out of the page its start puts it on; undefined when the page cannot tell. */
  served?: boolean;
}

/** A bound set 1 ms from an edge of the anchor record, the first page it was answered with, what it showed. */
export interface EdgeProbe {
  param: BoundParam;
  bound: number;
  /** Which edge it was set at ("1 ms after the end"), and of which record ("… of record 1234"). */
  edge: string;
  at: string;
  page: Page<DataRecord>;
  seen: Seen[];
}

/** The bounds at the edges of `extent` (its end's only when it has ended), for both filters. */
function edgesOf(extent: Extent): { bound: number; edge: string }[] {
  const edges = [
    { bound: extent.earliest - 1, edge: '1 ms before the start' },
    { bound: extent.latest + 1, edge: '1 ms after the start' },
  ];
  if (Number.isFinite(extent.finish))
    edges.push(
      { bound: extent.earliestFinish - 1, edge: '1 ms before the end' },
      { bound: extent.finish + 1, edge: '1 ms after the end' },
    );
  return edges;
}

/**
 * Whether `known` was served on `page`; left out is told only where the page has no next_token or the
 * record sorts before the page's last record (whose key is `lastKey`), where its start puts it on the page.
 */
function fared(page: Page<DataRecord>, known: Known, lastKey: number | undefined): boolean | undefined {
  if (holds(page.records, known.record)) return true;
  if (page.nextToken === undefined) return false;
  return lastKey !== undefined && known.extent.key > lastKey ? false : undefined;
}

/**
 * The probes at the edges of the record at EDGE_ANCHOR of `op`'s reference walk (the oldest, in a shorter
 * one), each the first page of limit 25, read once for the run; none when the walk holds no record.
 */
export async function edgeProbes(dataset: Dataset, op: Operation, requirement: string): Promise<EdgeProbe[]> {
  const { records, extentOf } = await dataset.timed(op);
  const known = records.map((record) => ({ record, extent: extentOrFail(extentOf, record, requirement) }));
  const anchor = known[Math.min(EDGE_ANCHOR, known.length - 1)];
  if (!anchor) return [];
  const probes: EdgeProbe[] = [];
  for (const param of ['start', 'end'] as const)
    for (const { bound, edge } of edgesOf(anchor.extent)) {
      const query = { [param]: iso(bound) };
      const walk = await dataset.walk(op, { limit: COMPLETE_LIMIT, query, requirement, pages: 1 });
      const page = walk.pages[0] as Page<DataRecord>;
      const last = page.records.at(-1);
      const lastKey = last && known.find((one) => identityOf(one.record) === identityOf(last))?.extent.key;
      const seen = known.map((one) => ({
        known: one,
        standing: standingTo[param](one.extent, bound),
        served: fared(page, one, lastKey),
      }));
      const at = `${edge} of record ${identityOf(anchor.record)}`;
      probes.push({ param, bound, edge, at, page, seen });
    }
  return probes;
}

/** What the probes showed of one standing: the records that fared otherwise, and how many were judged. */
export interface Departures {
  problems: string[];
  /** The first page that showed a problem. */
  exchange?: Exchange;
  judged: number;
}

/** What a record that fared otherwise than `want` did, by the filter's sentence. */
const departure: Record<BoundParam, Record<'in' | 'out', (extent: Extent) => string>> = {
  start: {
    in: (extent) => `starting ${iso(extent.earliest)}, at or after start, is left out`,
    out: (extent) => `which ended ${iso(extent.finish)}, before start, is served`,
  },
  end: {
    in: (extent) => `begun ${iso(extent.latest)}, before end, is left out`,
    out: (extent) => `starting ${iso(extent.earliest)}, after end, is served`,
  },
};

/** On probes of one filter, every record the sentence puts `want` (in or out) that fared otherwise. */
export function departures(probes: readonly EdgeProbe[], want: 'in' | 'out'): Departures {
  const result: Departures = { problems: [], judged: 0 };
  for (const probe of probes) {
    for (const { known, standing, served } of probe.seen) {
      if (standing !== want || served === undefined) continue;
      result.judged++;
      if (served === (want === 'in')) continue;
      const what = departure[probe.param][want](known.extent);
      result.problems.push(
        `${probe.param}=${iso(probe.bound)} (${probe.at}): record ${identityOf(known.record)}, ${what}`,
      );
      result.exchange ??= probe.page.exchange;
    }
  }
  return result;
}

/**
 * On the start probes, the records under way at two or more of them: each must fare alike at every one
 * (FLT-START-DURING); `judged` counts the records seen so.
 */
export function duringDepartures(probes: readonly EdgeProbe[]): Departures {
  const byRecord = new Map<string, { known: Known; fates: { probe: EdgeProbe; served: boolean }[] }>();
  for (const probe of probes.filter(({ param }) => param === 'start'))
    for (const { known, standing, served } of probe.seen) {
      if (standing !== 'during' || served === undefined) continue;
      const id = identityOf(known.record);
      const entry = byRecord.get(id) ?? { known, fates: [] };
      entry.fates.push({ probe, served });
      byRecord.set(id, entry);
    }
  const result: Departures = { problems: [], judged: 0 };
  for (const [id, { fates }] of byRecord) {
    if (fates.length < 2) continue;
    result.judged++;
    const included = fates.find(({ served }) => served);
    const left = fates.find(({ served }) => !served);
    if (!included || !left) continue;
    result.problems.push(
      `record ${id}, under way at both, is served with start=${iso(included.probe.bound)} (${included.probe.at}) and left out with start=${iso(left.probe.bound)} (${left.probe.at})`,
    );
    result.exchange ??= included.probe.page.exchange;
  }
  return result;
}
