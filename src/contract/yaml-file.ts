// Reads a YAML document of the project (specs/*.yaml) through a JSON cache: the YAML parser takes about
// 0.4 s per document, and every worker process of every run reads both, while JSON.parse takes
// milliseconds. The cache is keyed by the text's digest, so an edited document is parsed again; it lives in
// node_modules/.cache, where tools keep what they can rebuild, and a cache that cannot be written is skipped.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/physiology-conformance/', import.meta.url));

export function readYamlFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  const cached = join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    const document: unknown = parse(text);
    try {
      mkdirSync(cacheDir, { recursive: true });
      // Written whole, then renamed: a process reading at the same time sees the file complete or not at all.
      const partial = `${cached}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(document));
      renameSync(partial, cached);
    } catch {
      // A read-only tree: parse every time.
    }
    return document;
  }
}
