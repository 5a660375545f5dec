// Any recording file as a stream of exchanges: HAR (a JSON object) or NDJSON (one exchange per line),
// told apart by the first non-blank character (`{"log"` …) and the extension.
import { open } from 'node:fs/promises';
import { fromHarEntry, harEntries } from './har-entries.ts';
import { fromNdjsonLine, ndjsonLines } from './ndjson-lines.ts';
import type { RecordedExchange } from './recorded-exchange.ts';

export type RecordingFormat = 'har' | 'ndjson';

/** HAR when the extension says so, or when the file's first JSON line is not a whole exchange. */
export async function formatOf(file: string): Promise<RecordingFormat> {
  if (/\.har$/i.test(file)) return 'har';
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').trimStart();
    return /^\{\s*"log"\s*:/.test(head) ? 'har' : 'ndjson';
  } finally {
    await handle.close();
  }
}

export async function* readRecording(file: string): AsyncGenerator<RecordedExchange> {
  if ((await formatOf(file)) === 'har') {
    for await (const { index, entry } of harEntries(file)) yield fromHarEntry(file, index, entry);
  } else {
    for await (const { index, entry } of ndjsonLines(file)) yield fromNdjsonLine(file, index, entry);
  }
}
