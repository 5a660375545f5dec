// CONFORMANCE_RECORD_HAR: the live suite's exchanges as a HAR 1.2. Each worker appends its tests'
// exchanges, already redacted, as one HAR entry per line to its own file under reports/.run/; at the
// end of the run the reporter streams those lines into the HAR file.

import { once } from 'node:events';
import {
  appendFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { reportPath } from '../run-state/reports-dir.ts';
import type { Exchange } from './exchange.ts';
import { redactHeaders, redactText } from './redact.ts';

const PARTS_PREFIX = 'har-';
const partsDir = () => reportPath('.run');
const harHeaders = (headers: Record<string, string>) =>
  Object.entries(redactHeaders(headers)).map(([name, value]) => ({ name, value }));

/** A redacted HAR 1.2 entry of an exchange. */
export function toHarEntry(exchange: Exchange): object {
  const { request } = exchange;
  const url = new URL(request.url);
  const text = redactText(exchange.text);
  const durationMs = Math.round((exchange.timing?.durationMs ?? 0) * 1000) / 1000;
  return {
    startedDateTime: exchange.timing?.startedAt ?? new Date().toISOString(),
    time: durationMs,
    request: {
      method: request.method,
      url: redactText(request.url),
      httpVersion: 'HTTP/1.1',
      headers: harHeaders(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({
        name,
        value: redactText(`${name}=${value}`).slice(name.length + 1),
      })),
      cookies: [],
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      ...(request.body === undefined
        ? {}
        : { postData: { mimeType: request.headers['content-type'] ?? '', text: redactText(request.body) } }),
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: harHeaders(exchange.headers),
      cookies: [],
      content: { size: Buffer.byteLength(text), mimeType: exchange.headers['content-type'] ?? '', text },
      redirectURL: redactText(exchange.headers.location ?? ''),
      headersSize: -1,
      bodySize: Buffer.byteLength(text),
    },
    cache: {},
    timings: { send: 0, wait: durationMs, receive: 0 },
  };
}

/** Appends exchanges to this worker's part file. */
export function appendToRecording(exchanges: readonly Exchange[]): void {
  if (exchanges.length === 0) return;
  mkdirSync(partsDir(), { recursive: true });
  const lines = exchanges.map((exchange) => `${JSON.stringify(toHarEntry(exchange))}\n`).join('');
  appendFileSync(`${partsDir()}/${PARTS_PREFIX}${process.pid}.ndjson`, lines);
}

/** Streams every worker's part into one HAR 1.2 file; returns the number of entries. */
export async function assembleHar(file: string): Promise<number> {
  mkdirSync(dirname(file), { recursive: true });
  const out = createWriteStream(file);
  out.write(
    '{"log":{"version":"1.2","creator":{"name":"physiology-conformance","version":"0.1.0"},"entries":[',
  );
  let count = 0;
  const parts = existsSync(partsDir())
    ? readdirSync(partsDir())
        .filter((name) => name.startsWith(PARTS_PREFIX))
        .sort()
    : [];
  for (const part of parts) {
    const lines = createInterface({
      input: createReadStream(`${partsDir()}/${part}`),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line === '') continue;
      if (!out.write(`${count === 0 ? '\n' : ',\n'}${line}`)) await once(out, 'drain');
      count += 1;
    }
  }
  out.end('\n]}}\n');
  await once(out, 'finish');
  return count;
}
