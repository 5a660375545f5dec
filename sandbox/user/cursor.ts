// Pagination cursors (next_token). Opaque to clients; inside it is
//
//   base64url(JSON {u: user id, c: client id, q: query fingerprint, o: offset}) "." base64url(HMAC-SHA256)
//
// The HMAC (key derived from the seed) detects tampering; the user, client and query fingerprint bind the
// cursor to the request it was issued for. Any mismatch is a client error (400).
//
// Variant offset-cursor: base64url(JSON {o: offset}), unsigned and bound to nothing; any decodable cursor is
// served at its offset (from the caller's own data, for the current query), an undecodable one gets 400.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.ts';

export interface CursorClaims {
  userId: number;
  clientId: string;
  /** Fingerprint of the collection and its start/end filter (see `queryFingerprint`). */
  query: string;
  offset: number;
}

export interface CursorOptions {
  /** Variant offset-cursor: unsigned offset cursors, bound to neither user nor query. */
  unsigned?: boolean;
  /** Fault pagination-tampered-cursor-500: a broken signature is a server error. */
  brokenSignatureFails?: boolean;
  /** Fault pagination-foreign-cursor-leaks: another user's cursor is served from that user's data. */
  servesForeignUser?: boolean;
}

/** Where a cursor points: an offset in the data of a user (the caller, unless a fault leaks). */
export interface CursorPosition {
  offset: number;
  userId: number;
}

interface Payload {
  u: number;
  c: string;
  q: string;
  o: number;
}

export function queryFingerprint(
  collection: string,
  start: number | undefined,
  end: number | undefined,
): string {
  return createHash('sha256')
    .update(`${collection}|${start ?? ''}|${end ?? ''}`)
    .digest('base64url')
    .slice(0, 16);
}

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export class CursorCodec {
  readonly #key: Buffer;

  constructor(
    secret: string,
    private readonly options: CursorOptions = {},
  ) {
    this.#key = createHash('sha256').update(`cursor-key|${secret}`).digest();
  }

  #sign(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest();
  }

  issue(claims: CursorClaims): string {
    if (this.options.unsigned) return encode({ o: claims.offset });
    const body = encode({ u: claims.userId, c: claims.clientId, q: claims.query, o: claims.offset });
    return `${body}.${this.#sign(body).toString('base64url')}`;
  }

  /** The position of a cursor issued for `expected` (user, client and query); throws a 400 otherwise. */
  open(token: string, expected: Omit<CursorClaims, 'offset'>): CursorPosition {
    const invalid = () => badRequest('nextToken is not a next_token issued for this query');
    const [body, signature, extra] = token.split('.');
    if (!body || extra !== undefined || (signature === undefined) !== !!this.options.unsigned)
      throw invalid();
    if (signature !== undefined) {
      const given = Buffer.from(signature, 'base64url');
      const wanted = this.#sign(body);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        if (this.options.brokenSignatureFails)
          throw new Error('Injected fault: cursor signature check crashed');
        throw invalid();
      }
    }
    let payload: Partial<Payload>;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
    } catch {
      throw invalid();
    }
    if (typeof payload !== 'object' || payload === null) throw invalid();
    const { u, c, q, o } = payload;
    if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw invalid();
    if (this.options.unsigned) return { offset: o, userId: expected.userId };
    if (q !== expected.query) throw invalid();
    if (u === expected.userId && c === expected.clientId) return { offset: o, userId: u };
    if (this.options.servesForeignUser && typeof u === 'number') return { offset: o, userId: u };
    throw invalid();
  }
}
