// The forms an instant takes as an ISO 8601 date-time ("Timestamps are ISO 8601 date-time strings"): any UTC
// offset (`Z`, `+00:00`, `+05:30`, `-08:00`, up to `+14:00`) and any number of fraction digits. Every form
// names the same instant, so a filter must select the same records whichever a client writes.

/** How an instant is written: its UTC offset (`Z`, or ±hh:mm) and how many fraction digits it carries. */
export interface DateTimeForm {
  offset: string;
  digits: 0 | 3 | 6;
}

/** `+05:30` → 330 minutes; `Z` → 0. */
export function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!match) throw new Error(`not a UTC offset: ${offset}`);
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** Whether an instant can be written with `digits` fraction digits without changing it. */
export const writable = (ms: number, { digits }: DateTimeForm): boolean => digits > 0 || ms % 1000 === 0;

/** The instant `ms` written in `form`: `2026-11-21T13:51:42.000+05:30` for 08:21:42Z in `+05:30`. */
export function writeInstant(ms: number, form: DateTimeForm): string {
  if (!writable(ms, form)) throw new Error(`${new Date(ms).toISOString()} has milliseconds: it needs digits`);
  const local = new Date(ms + offsetMinutes(form.offset) * 60_000).toISOString(); // …THH:MM:SS.mmmZ
  const seconds = local.slice(0, 19);
  const fraction = form.digits === 0 ? '' : `.${local.slice(20, 23)}${'0'.repeat(form.digits - 3)}`;
  return `${seconds}${fraction}${form.offset}`;
}

/** How a report names a form: `+05:30 with 3 fraction digits`. */
export const describeForm = ({ offset, digits }: DateTimeForm): string =>
  `${offset} with ${digits} fraction digits`;
