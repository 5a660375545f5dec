// The one handler behind every collection endpoint (GET /v2/cycle, /v2/recovery, /v2/activity/sleep,
// /v2/activity/workout): query validation (Fastify schema), the start/end window, the cursor, the page.
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import type { FaultName } from '../faults/index.ts';
import { grantOf } from '../oauth/bearer.ts';
import { type OperationId, routeOptions } from '../route-table.ts';
import { queryFingerprint } from './cursor.ts';
import type { UserServices } from './services.ts';
import type { CollectionName, Entry } from './store.ts';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 25;
const DAY = 86_400_000;

export interface CollectionOperation {
  operationId: OperationId;
  collection: CollectionName;
  /** The fault that skips this operation's scope check. */
  scopeFault: FaultName;
  /** Faults that put the filtered records in a wrong order. */
  reorderFaults: Partial<Record<FaultName, (window: Entry[]) => Entry[]>>;
}

interface CollectionQuery {
  limit: number;
  start?: string;
  end?: string;
  nextToken?: string;
}

function querySchema(ctx: SandboxContext) {
  const maximum = ctx.fault('pagination-limit-25-rejected')
    ? MAX_LIMIT - 1
    : ctx.fault('pagination-limit-26-accepted')
      ? MAX_LIMIT + 1
      : MAX_LIMIT;
  const dateTime = ctx.fault('filter-malformed-date-ignored')
    ? { type: 'string' }
    : { type: 'string', format: 'date-time' };
  return {
    type: 'object',
    properties: {
      // The seed states no minimum; the sandbox rejects 0 and negative values (400) unless lenient-limits.
      limit: {
        type: ctx.fault('pagination-limit-fraction-accepted') ? 'number' : 'integer',
        minimum: 1,
        maximum,
        default: ctx.fault('pagination-default-not-10') ? DEFAULT_LIMIT + 2 : DEFAULT_LIMIT,
      },
      start: dateTime,
      end: dateTime,
      nextToken: { type: 'string', minLength: 1, maxLength: 4096 },
    },
  } as const;
}

/**
 * Ajv's type coercion takes '1e1', '0x10', ' 5' and even '1e400' (Infinity) for integers; limit must be
 * plain decimal digits before the schema coerces and range-checks it. Variant lenient-limits: an empty,
 * zero or negative integer limit is dropped, so the default applies. Variant limit-capped: an integer limit
 * over the maximum, of any size (beyond int32 too), is served as the maximum. Variant empty-filter-absent: an empty start or end is dropped.
 */
function queryHook(ctx: SandboxContext) {
  const digits = ctx.fault('pagination-limit-fraction-accepted') ? /^[0-9]+(\.[0-9]+)?$/ : /^[0-9]+$/;
  const lenient = ctx.variant('lenient-limits');
  const capped = ctx.variant('limit-capped');
  const emptyFilterAbsent = ctx.variant('empty-filter-absent');
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    if (emptyFilterAbsent) {
      if (query.start === '') delete query.start;
      if (query.end === '') delete query.end;
    }
    const raw = query.limit;
    if (lenient && typeof raw === 'string' && /^(-[0-9]+|0*)$/.test(raw)) delete query.limit;
    else if (typeof raw === 'string' && !digits.test(raw))
      throw badRequest('querystring/limit must be integer');
    else if (capped && typeof raw === 'string' && Number(raw) > MAX_LIMIT) query.limit = String(MAX_LIMIT);
  };
}

/** The UTC offset a date-time is written with (`+05:30`), when it is not Z. */
const OFFSET = /([+-])(\d{2}):?(\d{2})$/;

/**
 * A date-time query value in ms; undefined when absent (or malformed under the fault that ignores it).
 * Faults: the offset read as Z, the fraction of a second dropped, a far offset a server error, end rounded up
 * to the minute, start truncated to the second.
 */
function instant(ctx: SandboxContext, name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const offset = OFFSET.exec(text);
  if (offset && Number(offset[2]) > 12 && ctx.fault('filter-far-offset-500'))
    throw new Error(`Injected fault: ${name} offset ${offset[0]} out of the zone table`);
  const read = offset && ctx.fault('filter-offset-dropped') ? text.replace(OFFSET, 'Z') : text;
  const ms = Date.parse(read);
  if (Number.isNaN(ms)) {
    if (ctx.fault('filter-malformed-date-ignored')) return undefined;
    throw badRequest(`${name} is not a valid date-time`);
  }
  if (ctx.fault('filter-fraction-truncated')) return floorTo(ms, SECOND);
  if (name === 'end' && ctx.fault('filter-end-rounded-up')) return -floorTo(-ms, MINUTE);
  if (name === 'start' && ctx.fault('filter-start-truncated')) return floorTo(ms, SECOND);
  return ms;
}

const SECOND = 1000;
const MINUTE = 60_000;
/** `ms` rounded down to a multiple of `unit` (before the epoch too). */
const floorTo = (ms: number, unit: number): number => ms - (((ms % unit) + unit) % unit);

/** Index of the first entry of a newest-first list for which `past` holds (`past` is monotone). */
function firstIndex(list: readonly Entry[], past: (entry: Entry) => boolean): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (past(list[middle] as Entry)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The window [from, to) of a newest-first list that the query selects. The seed says start "include[s]
 * records that occurred after or during (inclusive) this time" and end "include[s] records that intersect
 * this time or ended before (exclusive) it; defaults to now". The sandbox implements both on the record's
 * start: record.start >= start && record.start < end. Variant closed-interval-filters: the records that
 * intersect [start, end], record.start <= end && record.end >= start (a record without end is ongoing);
 * a user's records of one collection do not overlap, so their ends descend like their starts.
 */
function window(
  ctx: SandboxContext,
  list: readonly Entry[],
  start: number | undefined,
  end: number | undefined,
) {
  const now = ctx.options.now().getTime();
  const upper = end ?? (ctx.fault('filter-end-default-not-now') ? now - DAY : now);
  const given = ctx.fault('filter-start-ignored') ? undefined : start;
  const lower = given ?? (ctx.fault('filter-lower-bound-30-days') ? now - 30 * DAY : undefined);
  if (start !== undefined && end !== undefined && start > end) {
    if (!ctx.variant('start-after-end-empty')) throw badRequest('start is after end');
    return { from: 0, to: 0 };
  }
  const closed = ctx.variant('closed-interval-filters');
  let from = firstIndex(list, closed ? (entry) => entry.key <= upper : (entry) => entry.key < upper);
  // The fault also lets in the newest record starting strictly after end.
  if (ctx.fault('filter-end-ignored'))
    from = Math.max(0, firstIndex(list, (entry) => entry.key <= upper) - 1);
  if (lower === undefined) return { from, to: list.length };
  const startExclusive = ctx.fault('filter-start-exclusive');
  let to = firstIndex(
    list,
    closed
      ? (entry) => entry.end < lower
      : (entry) => (startExclusive ? entry.key <= lower : entry.key < lower),
  );
  if (start !== undefined && ctx.fault('filter-start-ignored-earlier')) to = Math.min(list.length, to + 2);
  return { from, to: Math.max(from, to) };
}

/** The records with each adjacent pair (2k, 2k+1) swapped; an odd last record stays in place. */
function swapPairs(window: Entry[]): Entry[] {
  return window.map(
    (_, index) => window[index % 2 === 0 ? index + 1 : index - 1] ?? (window[index] as Entry),
  );
}

/** The records with each run of equal keys in reverse order (variant start-ties, on small pages). */
function tiesReversed(window: Entry[]): Entry[] {
  const runs: Entry[][] = [];
  for (const entry of window) {
    const last = runs.at(-1);
    if (last?.[0]?.key === entry.key) last.push(entry);
    else runs.push([entry]);
  }
  return runs.flatMap((run) => run.reverse());
}

/** How late the `slow` variant sends every collection response. */
export const SLOW_VARIANT_DELAY_MS = 60;

const delayed = async (_request: FastifyRequest, _reply: unknown, payload: unknown) => {
  await setTimeout(SLOW_VARIANT_DELAY_MS);
  return payload;
};

export function registerCollection(
  app: FastifyInstance,
  services: UserServices,
  operation: CollectionOperation,
): void {
  const { ctx, store, cursors } = services;
  const reorder = Object.entries(operation.reorderFaults).find(([name]) => ctx.fault(name as FaultName))?.[1];
  const noLookahead = ctx.variant('no-lookahead-cursor');
  const smallNoLookahead = ctx.variant('small-limits-short-last-page');
  const lastPageToken = ctx.fault('pagination-next-token-on-last-page');

  const route = routeOptions(operation.operationId);
  app.route({
    ...route,
    schema: { querystring: querySchema(ctx) },
    preValidation: queryHook(ctx),
    // The `slow` variant (sandbox/variants.ts): the answer leaves SLOW_VARIANT_DELAY_MS late.
    onSend: ctx.variant('slow') ? delayed : undefined,
    config: { ...route.config, userScopeFault: operation.scopeFault },
    handler: (request, reply) => {
      const grant = grantOf(request);
      const query = request.query as CollectionQuery;
      const limit = Math.trunc(query.limit);
      const start = instant(ctx, 'start', query.start);
      const end = instant(ctx, 'end', query.end);
      const binding = {
        userId: grant.userId,
        clientId: grant.clientId,
        query: queryFingerprint(operation.collection, start, end),
      };
      const position =
        query.nextToken === undefined
          ? { offset: ctx.fault('pagination-first-page-skips-newest') ? 1 : 0, userId: grant.userId }
          : cursors.open(query.nextToken, binding);
      const { offset } = position;
      const list = store.users.get(position.userId)?.collections[operation.collection] ?? [];
      const { from, to } = window(ctx, list, start, end);
      const offByOne = ctx.fault('pagination-limit-off-by-one') && limit >= 14 && limit <= 19;
      const size = ctx.fault('pagination-page-exceeds-limit') || offByOne ? limit + 1 : limit;
      // Fault pagination-deep-page-drops-record: from page 5 on, a small page starts one record late.
      const late =
        ctx.fault('pagination-deep-page-drops-record') && limit < DEFAULT_LIMIT && offset >= 4 * limit;
      const first = late ? offset + 1 : offset;
      const pairsSwapped = limit < DEFAULT_LIMIT && ctx.fault('pagination-small-pages-reordered');
      // Like a database whose plan for a small LIMIT returns rows of equal start in another order.
      const tiesSwapped = limit < DEFAULT_LIMIT && ctx.variant('start-ties');
      let page: Entry[];
      if (reorder || pairsSwapped || tiesSwapped) {
        let sequence = list.slice(from, to);
        if (reorder) sequence = reorder(sequence);
        if (pairsSwapped) sequence = swapPairs(sequence);
        if (tiesSwapped) sequence = tiesReversed(sequence);
        page = sequence.slice(first, first + size);
      } else {
        page = list.slice(from + first, Math.min(to, from + first + size));
      }

      let next = first + page.length;
      if (ctx.fault('pagination-duplicate-across-pages')) next = Math.max(offset + 1, next - 1);
      if (ctx.fault('pagination-skips-record')) next += 1;
      // Variant small-limits-short-last-page: below the maximum, a full page always leads to another.
      const lookahead = !noLookahead && !(smallNoLookahead && limit < MAX_LIMIT);
      const more = lookahead ? next < to - from : page.length > 0 && page.length >= limit;
      // The fault's last-page cursor points at offset -1, which every cursor codec refuses (400).
      const nextOffset = more ? next : page.length > 0 && lastPageToken ? -1 : undefined;

      let body = `{"records":[${page.map((entry) => entry.json).join(',')}]`;
      if (nextOffset !== undefined)
        body += `,"next_token":${JSON.stringify(cursors.issue({ ...binding, offset: nextOffset }))}`;
      return reply.type('application/json; charset=utf-8').send(`${body}}`);
    },
  });
}
