/**
 * Loader of the resource schemas in `schemas/` (JSON Schema 2020-12, one file per resource).
 *
 * The files are read at runtime (no build step). A schema's name is its file name without `.json`
 * (`cycle`, `paginated-cycle-response`, ...); its `$id` is `SCHEMA_BASE_URI + <file>`.
 * The loaded objects are shared and frozen: Ajv instances and the ref resolver rely on their identity.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../run-state/package.ts';

/** A JSON Schema object (boolean schemas `true`/`false` are allowed below the root). */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}
export type JsonSchema = boolean | JsonSchemaObject;

/** Absolute path of the `schemas/` directory. */
export const schemasDir: string = join(packageRoot, 'schemas/');

/** Base URI of every schema `$id`; relative `$ref`s between files resolve against it. */
export const SCHEMA_BASE_URI = 'https://conformance.example/schemas/';

/** Names of all schemas (file names without `.json`), sorted. */
export const schemaNames: readonly string[] = Object.freeze(
  readdirSync(schemasDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort(),
);

/** The `$id` a schema must declare. */
export function schemaIdFor(name: string): string {
  return `${SCHEMA_BASE_URI}${name}.json`;
}

/** Path of a schema's file. */
export function schemaFileFor(name: string): string {
  return join(schemasDir, `${name}.json`);
}

let cache: Readonly<Record<string, JsonSchemaObject>> | undefined;

/** All schemas by name. Loaded once; the objects are deep-frozen and must not be mutated. */
export function loadSchemas(): Readonly<Record<string, JsonSchemaObject>> {
  cache ??= Object.freeze(Object.fromEntries(schemaNames.map((name) => [name, readSchemaFile(name)])));
  return cache;
}

/** One schema by name; throws on an unknown name, listing the known ones. */
export function loadSchema(name: string): JsonSchemaObject {
  const schema = loadSchemas()[name];
  if (schema === undefined) {
    throw new Error(`unknown schema '${name}'; known schemas: ${schemaNames.join(', ')}`);
  }
  return schema;
}

function readSchemaFile(name: string): JsonSchemaObject {
  const file = schemaFileFor(name);
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`${file}: a schema file must hold a JSON object`);
  if (parsed.$id !== schemaIdFor(name)) {
    throw new Error(`${file}: $id must be ${schemaIdFor(name)}, found ${String(parsed.$id)}`);
  }
  return deepFreeze(parsed);
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
