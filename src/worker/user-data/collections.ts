// Reads a paginated collection to its end by following next_token, keeping every page's exchange so a
// check can name the page a record came from. Bounded, so a cursor that loops cannot hang the run, and a
// filter the server ignores cannot turn a small window into a walk of the whole history (`maxRecords`).
// A page that cannot be read is charged to what broke: a server error or a first page that fails to the
// operation's own success requirement (OP-LIST-…), a refused next_token to PAG-LAST-PAGE ("every
// next_token can be followed"); a page left without an answer, like a server error, to the operation's.
import { operations } from '../../contract/operations.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import { BODY, bodyField, bodyOf, type Exchange, STATUS } from '../../http/exchange.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { chargeUnansweredTo } from '../session/unanswered.ts';

export interface Page<T> {
  exchange: Exchange;
  records: T[];
  nextToken?: string;
}

export interface CollectionWalk<T> {
  pages: Page<T>[];
  records: T[];
  /**
   * The walk stopped past `maxRecords`: `records` are the first `maxRecords + 1` served (the same for every
   * page size), `pages` every page read, the last one's next_token not followed.
   */
  cut?: true;
}

export interface WalkOptions {
  token: string;
  query?: Record<string, string | number | undefined>;
  limit?: number;
  /** Requirement named when the first page cannot be read and the path is no collection of the catalogue. */
  requirement: string;
  maxPages?: number;
  /** Read only this many pages and stop without complaint (a sample, for targets whose cursors lead nowhere). */
  samplePages?: number;
  /** The most records the query can select: the walk stops one record past it (`cut`), not at the end. */
  maxRecords?: number;
}

export async function readPage<T>(
  api: ApiClient,
  path: string,
  options: WalkOptions,
  nextToken?: string,
): Promise<Page<T>> {
  const collection = collectionAt(path);
  const requirement = collection ? successRequirement(collection) : options.requirement;
  const exchange = await api
    .send({ path, token: options.token, query: { ...options.query, limit: options.limit, nextToken } })
    .catch(chargeUnansweredTo(requirement));
  return pageOf<T>(exchange, requirement, nextToken);
}

/**
 * The page an exchange served (`nextToken`: the cursor it followed); a first page that fails is charged to
 * `requirement` (the collection's OP-* requirement).
 */
export function pageOf<T>(exchange: Exchange, requirement: string, nextToken?: string): Page<T> {
  if (exchange.status !== 200) {
    // A refused next_token is pagination's; a server error is the operation's, wherever it happens.
    const refusedCursor = nextToken !== undefined && exchange.status < 500;
    throw new ConformanceFailure(
      refusedCursor ? 'PAG-LAST-PAGE' : requirement,
      `${nextToken === undefined ? 'the first page' : 'the page a next_token leads to'} did not answer 200 (got ${exchange.status})`,
      exchange,
      { fields: [STATUS] },
    );
  }
  const parsed = bodyOf<{ records?: unknown; next_token?: unknown }>(exchange);
  if (!parsed.ok)
    throw new ConformanceFailure('OP-JSON-BODIES', 'a page is not JSON', exchange, { fields: [BODY] });
  const body = parsed.value;
  if (!Array.isArray(body?.records))
    throw new ConformanceFailure('SCH-ENVELOPE', 'the page has no records array', exchange, {
      fields: [bodyField('/records')],
    });
  return {
    exchange,
    records: body.records as T[],
    nextToken: typeof body.next_token === 'string' && body.next_token !== '' ? body.next_token : undefined,
  };
}

/** The collection of the catalogue served at `path`, if any (its OP-* requirement is charged a page's failure). */
const collectionAt = (path: string) =>
  operations.find((candidate) => candidate.isCollection && candidate.path === path);

export async function walkCollection<T>(
  api: ApiClient,
  path: string,
  options: WalkOptions,
): Promise<CollectionWalk<T>> {
  const maxPages = options.maxPages ?? 400;
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const pages: Page<T>[] = [];
  let held = 0;
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
    held += page.records.length;
  } while (nextToken !== undefined && pages.length < (options.samplePages ?? maxPages) && held <= maxRecords);
  const records = pages.flatMap((page) => page.records);
  if (held > maxRecords) return { pages, records: records.slice(0, maxRecords + 1), cut: true };
  if (nextToken !== undefined && options.samplePages === undefined) {
    throw new ConformanceFailure(
      'PAG-LAST-PAGE',
      `${path}: still a next_token after ${maxPages} pages (a loop or an unbounded collection)`,
    );
  }
  return { pages, records };
}
