// The suite as a package: its root (specs, schemas, tests, configuration travel with it), its version,
// and how its processes load TypeScript.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * NODE_OPTIONS for Playwright's processes (runner and workers). Playwright compiles TypeScript itself, but
 * never under node_modules: an installed suite is loaded through tsx there. In a checkout, unchanged.
 */
export function typeScriptNodeOptions(current = process.env.NODE_OPTIONS): string | undefined {
  if (!packageRoot.includes(`${sep}node_modules${sep}`)) return current;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [current, `--import=${tsx}`].filter(Boolean).join(' ');
}
