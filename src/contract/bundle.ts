/**
 * Bundles `specs/openapi.yaml` and the JSON Schema files it references into one self-contained
 * document, `specs/openapi.bundled.json`, for tools that cannot follow external references or that
 * mishandle `$id` (Prism 5 misses violations when external schema files carry `$id`).
 *
 * The bundling itself is done by Redocly CLI (`redocly bundle`): every external `$ref` becomes a
 * `#/components/schemas/...` reference. The result is then post-processed: every `$id` and every
 * nested `$schema` is removed (the dialect is stated once, by `jsonSchemaDialect`), and the output is
 * checked to contain no external `$ref`. The command is `npm run bundle` (src/dev/bundle-openapi.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { packageRoot } from '../run-state/package.ts';

/** Source document (multi-file). */
export const OPENAPI_SOURCE = join(packageRoot, 'specs', 'openapi.yaml');
/** Default output of the bundler (git-ignored). */
export const OPENAPI_BUNDLED = join(packageRoot, 'specs', 'openapi.bundled.json');

/** Keys dropped from every object of the bundled document. */
const DROPPED_KEYS: ReadonlySet<string> = new Set(['$id', '$schema']);

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

function redoclyCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
}

function run(command: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: packageRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/** Returns a deep copy of `value` without any `$id` / `$schema` key, at any depth. */
export function stripSchemaIdentifiers(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(stripSchemaIdentifiers);
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      if (!DROPPED_KEYS.has(key)) out[key] = stripSchemaIdentifiers(child);
    }
    return out;
  }
  return value;
}

/** A key as a JSON Pointer token (RFC 6901: `~` and `/` escaped). */
const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Every member of every object within `value`, in document order, with the pointer of the object holding it. */
function* members(value: JsonValue, at = '#'): Generator<{ at: string; key: string; child: JsonValue }> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* members(item, `${at}/${index}`);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      yield { at, key, child };
      yield* members(child, `${at}/${pointerToken(key)}`);
    }
  }
}

/** Every `$ref` value of the document that does not point inside it (does not start with `#`). */
export function externalRefs(value: JsonValue): string[] {
  return [...members(value)]
    .filter(({ key, child }) => key === '$ref' && typeof child === 'string' && !child.startsWith('#'))
    .map(({ at, child }) => `${at}: ${String(child)}`);
}

/** Every key path at which a `$id` or `$schema` key occurs. */
export function schemaIdentifierKeys(value: JsonValue): string[] {
  return [...members(value)]
    .filter(({ key }) => DROPPED_KEYS.has(key))
    .map(({ at, key }) => `${at}/${pointerToken(key)}`);
}

/**
 * Bundles the OpenAPI document into a single object: external references inlined into
 * `components/schemas`, no `$id`, no nested `$schema`. Rejects when Redocly cannot bundle (for
 * example an unresolved reference) or when an external `$ref` survives.
 */
export async function bundleOpenApi(source: string = OPENAPI_SOURCE): Promise<JsonObject> {
  const workDir = await mkdtemp(join(tmpdir(), 'openapi-bundle-'));
  try {
    const target = join(workDir, 'openapi.json');
    const { code, output } = await run(process.execPath, [
      redoclyCli(),
      'bundle',
      source,
      '--output',
      target,
      '--ext',
      'json',
      '--lint-config',
      'off',
      '--component-renaming-conflicts-severity',
      'error',
    ]);
    if (code !== 0) throw new Error(`redocly bundle failed (exit ${code}):\n${output}`);
    const bundled = stripSchemaIdentifiers(JSON.parse(await readFile(target, 'utf8')) as JsonValue);
    if (bundled === null || typeof bundled !== 'object' || Array.isArray(bundled)) {
      throw new Error('redocly bundle produced something other than a JSON object');
    }
    const leftovers = externalRefs(bundled);
    if (leftovers.length > 0) {
      throw new Error(`bundled document still has external $refs:\n${leftovers.join('\n')}`);
    }
    return bundled;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Bundles and writes the result (pretty-printed JSON); resolves to the absolute output path. */
export async function writeBundledOpenApi(output: string = OPENAPI_BUNDLED): Promise<string> {
  const target = resolve(output);
  const bundled = await bundleOpenApi();
  await writeFile(target, `${JSON.stringify(bundled, null, 2)}\n`, 'utf8');
  return target;
}
