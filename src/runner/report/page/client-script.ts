// The page's script as the page inlines it: client.ts compiled to one minified function, kept in
// client.generated.js (written by `npm run docs:tables`; a self test fails while they differ), so that no run
// starts a compiler to write its page.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

export const clientScriptFile = fileURLToPath(new URL('./client.generated.js', import.meta.url));

/** The compiled script, from client.ts. */
export const clientScriptText = (): string =>
  transformSync(readFileSync(new URL('./client.ts', import.meta.url), 'utf8'), {
    loader: 'ts',
    format: 'iife',
    target: 'es2020',
    minify: true,
  }).code;
