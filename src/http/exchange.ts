// One request/response pair as the suite sees it, and how it is shown in a failure message.
import { withoutNullProperties } from './absent-nulls.ts';
import { redactHeaders, redactText } from './redact.ts';
import { shellCurl } from './shell-curl.ts';

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One answer of the target. Its body is read as JSON through the verdict (src/worker/verdict/verdicts.ts
 * `verdict.json`: a body that is not JSON fails the rule it breaks), or observed with `bodyOf`, which never
 * throws: no read of a server's body becomes the suite's own error.
 */
export interface Exchange {
  request: SentRequest;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Pointers of the null-valued properties the body carried (empty when it is not JSON). */
  nullPointers: readonly string[];
  /** When the request was sent, and how long the target took to answer it (set by the API client). */
  timing?: ExchangeTiming;
  /** The contract's operation the request is (its operationId), where the client knows it. */
  operation?: string;
}

export interface ExchangeTiming {
  startedAt: string;
  durationMs: number;
}

type Parsed = { ok: true; value: unknown; nullPointers: string[] } | { ok: false };

/** `text` parsed as JSON as it was sent (nulls kept); not ok where it is not JSON. */
export function jsonOf(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function parse(text: string): Parsed {
  const json = jsonOf(text);
  return json.ok ? { ok: true, ...withoutNullProperties(json.value) } : json;
}

/** The body as json() reads it (nulls read as absent); not ok where it is not JSON, for a check that observes. */
export const bodyOf = <T = unknown>(
  exchange: Pick<Exchange, 'text'>,
): { ok: true; value: T } | { ok: false } => {
  const parsed = parse(exchange.text);
  return parsed.ok ? { ok: true, value: parsed.value as T } : parsed;
};

export function createExchange(
  request: SentRequest,
  status: number,
  headers: Record<string, string>,
  text: string,
  timing?: ExchangeTiming,
  operation?: string,
): Exchange {
  const parsed = parse(text);
  return {
    request,
    status,
    headers,
    text,
    timing,
    nullPointers: parsed.ok ? parsed.nullPointers : [],
    ...(operation === undefined ? {} : { operation }),
  };
}

/** The fields of an answer a failure names (JSON pointers into {status, headers, body}). */
export const STATUS = '/status';
export const BODY = '/body';
/** A JSON pointer into the body (`/records/3`; '' the body itself) as a field of the answer. */
export const bodyField = (pointer: string): string => `${BODY}${pointer}`;
/** A header of the answer (`/headers/location`), by its lower-case name. */
export const headerField = (name: string): string => `/headers/${name}`;

/** Whether the request was served: any 2xx. */
export const succeeded = (exchange: Pick<Exchange, 'status'>): boolean =>
  exchange.status >= 200 && exchange.status < 300;

/** A one-line curl reproduction, every credential a variable to set (shell-curl.ts). */
export const curl = (request: SentRequest): string =>
  shellCurl({
    method: request.method,
    url: redactText(request.url),
    headers: Object.entries(redactHeaders(request.headers)),
    body: request.body === undefined ? undefined : redactText(request.body),
  }).command;

/** `GET http://…/v2/cycle?limit=26 → 500` (redacted). */
export const exchangeLine = (exchange: Exchange): string =>
  `${exchange.request.method} ${redactText(exchange.request.url)} → ${exchange.status}`;

/** `GET http://…/v2/cycle?limit=26 → 500`, plus the curl line. */
export function describeExchange(exchange: Exchange): string {
  return `${exchangeLine(exchange)}\n  reproduce: ${curl(exchange.request)}`;
}

/** The characters of a body a report keeps. */
const BODY_LIMIT = 4000;

/** A body as reports keep it: redacted, cut at BODY_LIMIT characters, with the whole body's size in bytes. */
const keptBody = (text: string) => ({
  text: redactText(text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text),
  size: Buffer.byteLength(text),
  truncated: text.length > BODY_LIMIT,
});

/** A redacted, JSON-ready record of an exchange, as the result keeps it (src/result/schema.ts), but its id. */
export function redactedRecord(exchange: Exchange) {
  return {
    request: {
      method: exchange.request.method,
      url: redactText(exchange.request.url),
      headers: redactHeaders(exchange.request.headers),
      ...(exchange.request.body === undefined ? {} : { body: keptBody(exchange.request.body) }),
    },
    response: {
      status: exchange.status,
      headers: redactHeaders(exchange.headers),
      body: keptBody(exchange.text),
    },
    curl: curl(exchange.request),
    ...(exchange.timing ?? {}),
  };
}
