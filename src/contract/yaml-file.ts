// Reads a YAML document of the project (specs/*.yaml) through a JSON cache: the YAML parser takes about
// 0.4 s per document, and every worker process of every run reads both, while JSON.parse takes
// milliseconds. The cache is keyed by the text's digest, so an edited document is parsed again; it lives in
// node_modules/.cache, where tools keep what they can rebuild, and a cache that cannot be written is skipped.
// The parser itself is loaded on first use: its ~70 modules cost every process of a run about 70 ms, and
// with the cache warm no process of the run needs it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../run-state/package.ts';

/** Parses YAML text (the `yaml` package, loaded when first called). */
export const parseYaml = (text: string): unknown =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

const cacheDir = join(packageRoot, 'node_modules', '.cache', 'physiology-conformance');

export function readYamlFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  const cached = join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    const document = parseYaml(text);
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
