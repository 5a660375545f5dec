// Which operation of specs/openapi.yaml a recorded request is: by method and path template, with or
// without the `/developer` prefix, under any host. Templates with fewer parameters win a tie
// (`/v2/cycle/{cycleId}/sleep` is not `/v2/cycle/{cycleId}` with a longer id).

import { escapeRegExp } from '../text/escape-reg-exp.ts';
import type { Operation } from './operation-model.ts';
import { operations } from './operations.ts';

const routes = operations
  .map((op) => ({
    op,
    pattern: new RegExp(
      `^(?:/developer)?${op.path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+')}/?$`,
    ),
    params: op.pathParams.length,
  }))
  .sort((a, b) => a.params - b.params);

/** The path of a URL (absolute, or a path), without query. */
export function pathOf(url: string): string {
  try {
    return new URL(url, 'http://recording.invalid').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

export function matchOperation(method: string, url: string): Operation | undefined {
  const path = pathOf(url);
  return routes.find((route) => route.op.method === method.toUpperCase() && route.pattern.test(path))?.op;
}

/**
 * The operation a request to `url` is on a target served at `baseUrl`: its path under the base URL's path
 * (`/developer`, or whatever prefix the target serves), whatever the host's spelling.
 */
export function operationUnder(baseUrl: string, method: string, url: string): Operation | undefined {
  const prefix = pathOf(baseUrl).replace(/\/$/, '');
  const path = pathOf(url);
  return path.startsWith(prefix) ? matchOperation(method, path.slice(prefix.length)) : undefined;
}
