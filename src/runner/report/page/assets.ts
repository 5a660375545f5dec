// The page's own style and script, inlined (the script as compiled from client.ts, client.generated.js), each
// with the SHA-256 the page's Content-Security-Policy allows it by (nothing else may load or run).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface InlineAsset {
  text: string;
  /** `'sha256-…'`, as a CSP source. */
  hash: string;
}

const inline = (text: string): InlineAsset => ({
  text,
  hash: `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
});

const source = (name: string): string => readFileSync(new URL(name, import.meta.url), 'utf8');

let assets: { style: InlineAsset; script: InlineAsset } | undefined;

export function pageAssets(): { style: InlineAsset; script: InlineAsset } {
  assets ??= {
    style: inline(source('./page.css')),
    script: inline(source('./client.generated.js')),
  };
  return assets;
}
