/**
 * Request construction: the path (and URL) of a call to an operation, its template expanded.
 */
import type { Operation } from './operation-model.ts';

export type PathParamValue = string | number | bigint;
export type QueryValue = string | number | boolean | bigint | null | undefined;

/**
 * Expands the path template of `op` with `params` (each value URI-encoded) and appends `query`
 * (entries whose value is `undefined` or `null` are skipped; values are sent as given, so invalid
 * values can be sent on purpose). Returns a path relative to `{base_url}`, e.g.
 * `buildPath(operationById('getCycleById'), { cycleId: 93845 })` → `/v2/cycle/93845`.
 * Throws when a path parameter is missing or an unknown path parameter is given.
 */
export function buildPath(
  op: Operation,
  params: Readonly<Record<string, PathParamValue>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  const expected = new Set(op.pathParams.map((p) => p.name));
  const unknown = Object.keys(params).filter((name) => !expected.has(name));
  if (unknown.length > 0)
    throw new Error(`${op.operationId}: unknown path parameter(s) ${unknown.join(', ')}`);
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const queryString = search.toString();
  return queryString === '' ? path : `${path}?${queryString}`;
}

/**
 * Absolute URL of a request: `baseUrl` (the service root, e.g. `http://host/developer`, with or
 * without a trailing slash) joined with `buildPath(op, params, query)`. Unlike `new URL(path, base)`
 * it keeps the base's path prefix.
 */
export function buildUrl(
  baseUrl: string,
  op: Operation,
  params: Readonly<Record<string, PathParamValue>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  return `${baseUrl.replace(/\/+$/, '')}${buildPath(op, params, query)}`;
}
