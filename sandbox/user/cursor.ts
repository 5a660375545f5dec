// Pagination cursors (next_token). Opaque to clients; inside it is
//
//   base64url(JSON {u: user id, c: client id, q: query fingerprint, o: offset}) "." base64url(HMAC-SHA256)
//
// The HMAC (key derived from the seed) detects tampering; the user, client and query fingerprint bind the
// cursor to the request it was issued for. Any mismatch is a client error (400).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.ts';

export interface CursorClaims {
  userId: number;
  clientId: string;
  /** Fingerprint of the collection and its start/end filter (see `queryFingerprint`). */
  query: string;
  offset: number;
}

/** Checks a lax codec skips (fault injection). */
export interface CursorLaxness {
  ignoreSignature?: boolean;
  ignoreUser?: boolean;
  ignoreQuery?: boolean;
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

export class CursorCodec {
  readonly #key: Buffer;

  constructor(
    secret: string,
    private readonly laxness: CursorLaxness = {},
  ) {
    this.#key = createHash('sha256').update(`cursor-key|${secret}`).digest();
  }

  #sign(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest();
  }

  issue(claims: CursorClaims): string {
    const payload: Payload = { u: claims.userId, c: claims.clientId, q: claims.query, o: claims.offset };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.#sign(body).toString('base64url')}`;
  }

  /** The offset of a cursor issued for `expected` (user, client and query); throws a 400 otherwise. */
  open(token: string, expected: Omit<CursorClaims, 'offset'>): number {
    const invalid = () => badRequest('nextToken is not a next_token issued for this query');
    const [body, signature, extra] = token.split('.');
    if (!body || signature === undefined || extra !== undefined) throw invalid();
    if (!this.laxness.ignoreSignature) {
      const given = Buffer.from(signature, 'base64url');
      const wanted = this.#sign(body);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid();
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
    if (!this.laxness.ignoreUser && (u !== expected.userId || c !== expected.clientId)) throw invalid();
    if (!this.laxness.ignoreQuery && q !== expected.query) throw invalid();
    return o;
  }
}
