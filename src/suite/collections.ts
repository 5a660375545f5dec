// Reads a paginated collection to its end by following next_token, keeping every page's exchange so a
// check can name the page a record came from. Bounded, so a cursor that loops cannot hang the run.
import type { ApiClient } from '../http/api-client.ts';
import type { Exchange } from '../http/exchange.ts';
import { ConformanceFailure } from './verdicts.ts';

export interface Page<T> {
  exchange: Exchange;
  records: T[];
  nextToken?: string;
}

export interface CollectionWalk<T> {
  pages: Page<T>[];
  records: T[];
}

export interface WalkOptions {
  token: string;
  query?: Record<string, string | number | undefined>;
  limit?: number;
  /** Requirement named when a page cannot be read at all. */
  requirement: string;
  maxPages?: number;
  /** Read only this many pages and stop without complaint (a sample, for targets whose cursors lead nowhere). */
  samplePages?: number;
}

export async function readPage<T>(
  api: ApiClient,
  path: string,
  options: WalkOptions,
  nextToken?: string,
): Promise<Page<T>> {
  const exchange = await api.send({
    path,
    token: options.token,
    query: { ...options.query, limit: options.limit, nextToken },
  });
  if (exchange.status !== 200) {
    throw new ConformanceFailure(
      options.requirement,
      `collection page did not answer 200 (got ${exchange.status}): ${exchange.request.method} ${path}`,
    );
  }
  const body = exchange.json<{ records?: unknown; next_token?: unknown }>();
  if (!Array.isArray(body.records))
    throw new ConformanceFailure('SCH-ENVELOPE', `page of ${path} has no records array`);
  return {
    exchange,
    records: body.records as T[],
    nextToken: typeof body.next_token === 'string' && body.next_token !== '' ? body.next_token : undefined,
  };
}

export async function walkCollection<T>(
  api: ApiClient,
  path: string,
  options: WalkOptions,
): Promise<CollectionWalk<T>> {
  const maxPages = options.maxPages ?? 400;
  const pages: Page<T>[] = [];
  let nextToken: string | undefined;
  do {
    const page = await readPage<T>(api, path, options, nextToken);
    pages.push(page);
    if (page.nextToken !== undefined && page.nextToken === nextToken) {
      throw new ConformanceFailure(
        'PAG-NEXT-TOKEN',
        `${path}: next_token did not change between pages (a loop)`,
      );
    }
    nextToken = page.nextToken;
  } while (nextToken !== undefined && pages.length < (options.samplePages ?? maxPages));
  if (nextToken !== undefined && options.samplePages === undefined) {
    throw new ConformanceFailure(
      'PAG-LAST-PAGE',
      `${path}: still a next_token after ${maxPages} pages (a loop or an unbounded collection)`,
    );
  }
  return { pages, records: pages.flatMap((page) => page.records) };
}
