// Reads an NDJSON recording line by line: `{request: {method, url, headers, body}, response: {status,
// headers, body}}` per line (optional `durationMs`). Bodies may be strings or JSON values.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type RecordedExchange, record, recordedExchange } from './recorded-exchange.ts';

const bodyText = (body: unknown): string | undefined =>
  body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);

/** Each non-blank line, parsed, with its line number (1-based); a line that is not JSON throws, naming it. */
export async function* ndjsonLines(file: string): AsyncGenerator<{ index: number; entry: unknown }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let index = 0;
  for await (const line of lines) {
    index += 1;
    if (line.trim() === '') continue;
    try {
      yield { index, entry: JSON.parse(line) as unknown };
    } catch (error) {
      throw new Error(`${file}:${index}: not a JSON line (${(error as Error).message})`);
    }
  }
}

export function fromNdjsonLine(source: string, index: number, raw: unknown): RecordedExchange {
  const line = record(raw);
  const request = record(line.request);
  const response = record(line.response);
  const body = bodyText(response.body);
  return recordedExchange(source, index, request, response, {
    requestBody: bodyText(request.body),
    body,
    bodyMissing: body === undefined ? 'the recording omits the body' : undefined,
    durationMs: typeof line.durationMs === 'number' ? line.durationMs : undefined,
  });
}
