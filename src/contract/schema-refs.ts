/**
 * Navigation in the schema set: a schema node together with the file it belongs to, `$ref`
 * resolution between files, and the reverse lookup from a loaded node to its location.
 *
 * Refs are resolved by file name, so `cycle-score.json`, `../schemas/cycle-score.json` and
 * `https://conformance.example/schemas/cycle-score.json` all name the same schema; fragments must be
 * JSON pointers (`#/$defs/uuid`).
 */
import { isJsonObject, type JsonSchema, type JsonSchemaObject, loadSchema, loadSchemas } from './schemas.ts';

/** A schema node and its context: the file (schema name) it belongs to and that file's root. */
export interface SchemaAt {
  readonly schema: JsonSchema;
  /** Schema name of the enclosing file; undefined for a standalone schema (e.g. an OpenAPI parameter). */
  readonly file: string | undefined;
  /** The document `#` fragments resolve against. */
  readonly root: JsonSchema;
}

/** The root of a loaded schema. */
export function schemaAt(name: string): SchemaAt {
  const schema = loadSchema(name);
  return { schema, file: name, root: schema };
}

/** A schema given by value; `rootName` names the file it comes from, for its relative refs. */
export function standaloneAt(schema: JsonSchema, rootName?: string): SchemaAt {
  return { schema, file: rootName, root: rootName === undefined ? schema : loadSchema(rootName) };
}

/** A child node in the same file (e.g. `child(at, 'properties', 'score')`). */
export function childAt(at: SchemaAt, ...segments: (string | number)[]): SchemaAt {
  return { ...at, schema: getPointer(at.schema, segments.map(String), describeAt(at)) };
}

/** Resolves a `$ref` value found in `from`. */
export function resolveRef(ref: string, from: SchemaAt): SchemaAt {
  const hash = ref.indexOf('#');
  const path = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : decodeURIComponent(ref.slice(hash + 1));
  let target: SchemaAt = from;
  if (path !== '') {
    const fileName = path.slice(path.lastIndexOf('/') + 1);
    if (!fileName.endsWith('.json')) throw new Error(`unsupported $ref '${ref}' in ${describeAt(from)}`);
    target = schemaAt(fileName.slice(0, -'.json'.length));
  } else {
    target = { ...from, schema: from.root };
  }
  if (fragment === '') return target;
  if (!fragment.startsWith('/')) throw new Error(`$ref '${ref}': only JSON-pointer fragments are supported`);
  return { ...target, schema: getPointer(target.root, parsePointer(fragment), ref) };
}

/** Location `file.json#/pointer` of a node of a loaded schema (by identity), or undefined. */
export function locate(node: unknown): { file: string; pointer: string } | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  locations ??= indexLocations();
  return locations.get(node);
}

/** Human-readable location of a node, for error messages. */
export function describeAt(at: SchemaAt): string {
  const where = locate(at.schema);
  if (where !== undefined) return `${where.file}.json#${where.pointer}`;
  return at.file === undefined ? 'standalone schema' : `a node of ${at.file}.json`;
}

export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function getPointer(root: JsonSchema, tokens: readonly string[], context: string): JsonSchema {
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node)) node = node[token];
    else node = undefined;
    if (node === undefined) throw new Error(`${context}: no schema at /${tokens.join('/')}`);
  }
  if (typeof node !== 'boolean' && !isJsonObject(node)) {
    throw new Error(`${context}: /${tokens.join('/')} is not a schema`);
  }
  return node;
}

let locations: WeakMap<object, { file: string; pointer: string }> | undefined;

function indexLocations(): WeakMap<object, { file: string; pointer: string }> {
  const index = new WeakMap<object, { file: string; pointer: string }>();
  const visit = (node: unknown, file: string, pointer: string): void => {
    if (typeof node !== 'object' || node === null || index.has(node)) return;
    index.set(node, { file, pointer });
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((child, i) => [String(i), child])
      : Object.entries(node as JsonSchemaObject);
    for (const [key, child] of entries) visit(child, file, `${pointer}/${escapePointerToken(key)}`);
  };
  for (const [name, schema] of Object.entries(loadSchemas())) visit(schema, name, '');
  return index;
}
