// How the sandbox writes the date-times of user records: "Timestamps are ISO 8601 date-time strings", any
// offset and any fraction digits. By default in UTC with `Z` and 3 digits (toISOString). Variant
// local-time-stamps: each record's times in its own timezone_offset (a recovery: its cycle's), without
// fraction digits, another form than any a client sends. Variant utc-microseconds: every offset normalised
// to `+00:00` (timezone_offset `Z` too) with 6 fraction digits. Applied once to the generated records.
import type { SandboxContext } from '../context.ts';
import type { UserRecords } from './types.ts';

export type TimeFormat = 'iso' | 'local' | 'utc-microseconds';

export const timeFormat = (ctx: SandboxContext): TimeFormat =>
  ctx.variant('local-time-stamps') ? 'local' : ctx.variant('utc-microseconds') ? 'utc-microseconds' : 'iso';

/** `-05:00` → -300 minutes; `Z` → 0. */
function minutesOf(offset: string): number {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** An ISO date-time rewritten in `format`, for a record whose zone is `offset`. */
function written(text: string, format: TimeFormat, offset: string): string {
  const ms = Date.parse(text);
  if (format === 'utc-microseconds') return `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;
  const zone = offset === 'Z' ? '+00:00' : offset;
  const local = new Date(ms + minutesOf(zone) * 60_000).toISOString();
  const fraction = ms % 1000 === 0 ? '' : local.slice(19, 23);
  return `${local.slice(0, 19)}${fraction}${zone}`;
}

const FIELDS = ['start', 'end', 'created_at', 'updated_at'] as const;

export function applyTimeFormats(records: UserRecords, format: TimeFormat): void {
  if (format === 'iso') return;
  const zones = new Map(records.cycles.map((cycle) => [cycle.id, cycle.timezone_offset]));
  const timed = [
    ...records.cycles,
    ...records.sleeps,
    ...records.workouts,
    ...records.recoveries,
  ] as unknown as {
    timezone_offset?: string;
    cycle_id?: number;
    [field: string]: unknown;
  }[];
  for (const record of timed) {
    const offset = record.timezone_offset ?? zones.get(record.cycle_id ?? -1) ?? 'Z';
    for (const field of FIELDS) {
      const value = record[field];
      if (typeof value === 'string') record[field] = written(value, format, offset);
    }
    if (format === 'utc-microseconds' && record.timezone_offset === 'Z') record.timezone_offset = '+00:00';
  }
}
