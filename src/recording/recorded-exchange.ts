// One exchange read from a recording (HAR or NDJSON), in the shape the recording checks use.

export interface RecordedExchange {
  /** The recording file and the exchange's index in it (HAR: its index in log.entries; NDJSON: its line). */
  source: string;
  index: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The response body as recorded; undefined when the recording does not hold all of it. */
  body: string | undefined;
  /** Why `body` is undefined (omitted, truncated), or undefined when the body is complete. */
  bodyMissing?: string;
  /** The round trip as recorded (HAR `time`), when known. */
  durationMs?: number;
}

export type Json = Record<string, unknown>;
/** A recording's object, or an empty one where the recording holds none (absent or not an object). */
export const record = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

/** What each format records in its own way: the bodies and the round trip. */
type FormatFields = Pick<RecordedExchange, 'requestBody' | 'body' | 'bodyMissing' | 'durationMs'>;

/** An exchange from a recording's request and response objects, which HAR and NDJSON write alike. */
export function recordedExchange(
  source: string,
  index: number,
  request: Json,
  response: Json,
  fields: FormatFields,
): RecordedExchange {
  return {
    source,
    index,
    method: String(request.method ?? 'GET').toUpperCase(),
    url: String(request.url ?? ''),
    requestHeaders: headerMap(request.headers),
    status: Number(response.status ?? 0),
    responseHeaders: headerMap(response.headers),
    ...fields,
  };
}

/** `file#index`: where a finding comes from. */
export const locationOf = (exchange: RecordedExchange): string => `${exchange.source}#${exchange.index}`;

/** Header lists (HAR `[{name, value}]`) or maps, as a map with lower-case names (repeated names joined). */
export function headerMap(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: unknown, value: unknown) => {
    if (typeof name !== 'string') return;
    const key = name.toLowerCase();
    const text = String(value ?? '');
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  };
  if (Array.isArray(headers)) {
    for (const header of headers) {
      if (header && typeof header === 'object') add(header.name, header.value);
    }
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  return out;
}
