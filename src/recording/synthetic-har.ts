// Synthetic recordings for the recording self tests and the benchmark: valid bodies of every operation
// (generated from the schemas, seeded), HAR 1.2 entries around them, and a streamed writer for large HAR
// files.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fc from 'fast-check';
import { validArbitrary } from '../contract/arbitraries.ts';
import type { Operation } from '../contract/operation-model.ts';
import { buildUrl } from '../contract/request-paths.ts';

export const HOST = 'https://recorded.example/developer';
export const BEARER = 'recorded-bearer-token-0123456789';

type Body = Record<string, unknown>;

/** A path parameter value of the right kind for any operation. */
const PARAM = '7d2e2a7c-1f4e-4b8e-9a44-1c0ffee00001';
const paramsOf = (op: Operation) =>
  Object.fromEntries(op.pathParams.map((p) => [p.name, p.schema.type === 'integer' ? 93845 : PARAM]));

/**
 * `record` with its start and end in order: the schemas do not say a record ends after it starts
 * (INV-END-NOT-BEFORE-START), so a generated one may not.
 */
function inOrder(record: Body): Body {
  const { start, end } = record;
  if (typeof start !== 'string' || typeof end !== 'string' || Date.parse(end) >= Date.parse(start))
    return record;
  return { ...record, start: end, end: start };
}

/** A valid body of `op`'s success response (seeded); a collection page holds 3 records, newest first. */
export function validBody(op: Operation, seed = 7): Body | undefined {
  if (op.responseSchema === null) return undefined;
  const [body] = fc.sample(validArbitrary(op.responseSchema), { seed, numRuns: 1 }) as Body[];
  if (!op.isCollection || !body) return body && inOrder(body);
  const items =
    op.responseSchema === 'recovery-collection'
      ? 'recovery'
      : op.responseSchema.replace(/^paginated-|-collection$|-response$/g, '');
  const records = (fc.sample(validArbitrary(items), { seed, numRuns: 3 }) as Body[]).map(inOrder);
  records.sort((a, b) => Date.parse(String(b.start)) - Date.parse(String(a.start)));
  return { ...body, records };
}

export interface EntryOptions {
  status?: number;
  body?: unknown;
  /** Text as recorded (overrides body); `null` omits content.text. */
  text?: string | null;
  /** content.size when it differs from the text's length (a truncated recording). */
  size?: number;
  comment?: string;
  url?: string;
  time?: number;
}

/** A HAR 1.2 entry of `op`, answered with `options`. */
export function harEntry(op: Operation, options: EntryOptions = {}): object {
  const text =
    options.text === null
      ? undefined
      : (options.text ?? (options.body === undefined ? '' : JSON.stringify(options.body)));
  return {
    startedDateTime: '2026-11-21T10:00:00.000Z',
    time: options.time ?? 12,
    request: {
      method: op.method,
      url: options.url ?? buildUrl(HOST, op, paramsOf(op)),
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'Authorization', value: `Bearer ${BEARER}` },
        { name: 'Cookie', value: 'session=recorded-session-cookie-value' },
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: options.status ?? op.successStatus,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      cookies: [],
      content: {
        size: options.size ?? Buffer.byteLength(text ?? ''),
        mimeType: 'application/json',
        ...(text === undefined ? {} : { text }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: options.time ?? 12, receive: 0 },
    ...(options.comment ? { comment: options.comment } : {}),
  };
}

const HEAD = '{"log":{"version":"1.2","creator":{"name":"recording self test","version":"1"},"entries":[\n';
const TAIL = '\n]}}\n';

/** A whole HAR document of `entries`. */
export const harText = (entries: readonly object[]): string =>
  `${HEAD}${entries.map((e) => JSON.stringify(e)).join(',\n')}${TAIL}`;

/** Writes a HAR of `count` entries (entry(i)) to `file`, streamed, honouring back-pressure. */
export async function writeLargeHar(
  file: string,
  count: number,
  entry: (i: number) => object,
): Promise<number> {
  const out = createWriteStream(file);
  out.write(HEAD);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${i === 0 ? '' : ',\n'}${JSON.stringify(entry(i))}`)) await once(out, 'drain');
  }
  out.end(TAIL);
  await once(out, 'finish');
  return out.bytesWritten;
}
