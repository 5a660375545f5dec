// Reads the entries of a HAR 1.2 file one at a time, streamed (stream-json): a recording larger than
// memory is read with the memory of its largest entry.
import { createReadStream } from 'node:fs';
import pick from 'stream-json/filters/pick.js';
import parser from 'stream-json/parser.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import { type Json, type RecordedExchange, record, recordedExchange } from './recorded-exchange.ts';

/** Each element of `log.entries`, in order, with its index. */
export async function* harEntries(file: string): AsyncGenerator<{ index: number; entry: unknown }> {
  const items = createReadStream(file)
    .pipe(parser.asStream({ streamValues: false }))
    .pipe(pick.asStream({ filter: 'log.entries' }))
    .pipe(streamArray.asStream());
  for await (const item of items as AsyncIterable<{ key: number; value: unknown }>) {
    yield { index: item.key, entry: item.value };
  }
}

/** Why the recorded body is incomplete, or undefined when `text` is the whole body. */
function missingBody(content: Json, text: string | undefined, comments: string): string | undefined {
  if (/truncat/i.test(comments)) return 'the recording says the body was truncated';
  const size = typeof content.size === 'number' ? content.size : undefined;
  if (text === undefined) return size === 0 ? undefined : 'the recording omits the body (no content.text)';
  if (size !== undefined && size > Buffer.byteLength(text))
    return `the recorded body is truncated (content.size ${size} > ${Buffer.byteLength(text)} bytes recorded)`;
  return undefined;
}

/** A HAR entry as a recorded exchange. */
export function fromHarEntry(source: string, index: number, raw: unknown): RecordedExchange {
  const entry = record(raw);
  const request = record(entry.request);
  const response = record(entry.response);
  const content = record(response.content);
  const encoded = typeof content.text === 'string' ? content.text : undefined;
  const text =
    encoded !== undefined && content.encoding === 'base64'
      ? Buffer.from(encoded, 'base64').toString('utf8')
      : encoded;
  const comments = [entry.comment, response.comment, content.comment]
    .filter((c) => typeof c === 'string')
    .join(' ');
  const bodyMissing = missingBody(content, text, comments);
  const postData = record(request.postData);
  return recordedExchange(source, index, request, response, {
    requestBody: typeof postData.text === 'string' ? postData.text : undefined,
    body: bodyMissing === undefined ? (text ?? '') : undefined,
    bodyMissing,
    durationMs: typeof entry.time === 'number' && entry.time >= 0 ? entry.time : undefined,
  });
}
