// Cursors that are not the previous response's (PAG-CURSOR-INVALID), table-driven over the catalogue's
// collections: a tampered or made-up nextToken, another user's, or one used with another query may be
// refused or served, but never answered with a 5xx or with records that are not the caller's.
import {
  ALL_READ_SCOPES,
  type ApiClient,
  buildPath,
  type DataRecord,
  describeEachCollection,
  describeOperation,
  identities,
  identityOf,
  iso,
  type Operation,
  readPage,
  test,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

/** A different character of the same kind (base64url: the top bit of its 6-bit value flipped). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
function flipAt(cursor: string, from: number): string {
  for (let index = Math.max(0, from); index < cursor.length; index++) {
    const position = ALPHABET.indexOf(cursor.charAt(index));
    if (position < 0) continue;
    const replacement = ALPHABET.charAt(position ^ 32);
    return cursor.slice(0, index) + replacement + cursor.slice(index + 1);
  }
  return `${cursor}x`;
}

/**
 * The page size a cursor is asked with, and sent back with: one record, the cheapest page that leads on (a
 * user with two records has a cursor).
 */
const CURSOR_LIMIT = 1;

/** The next_token of a user's first page (the token's user, `whose`) for `query`: the raw material of the tests. */
async function cursorOf(
  api: ApiClient,
  op: Operation,
  { token, whose, verdict }: { token: string; whose: 'A' | 'B'; verdict: Verdict },
  query: Record<string, string> = {},
): Promise<string> {
  const { requirement } = verdict;
  const limit = CURSOR_LIMIT;
  const page = await readPage<DataRecord>(api, buildPath(op), { token, query, limit, requirement });
  if (page.nextToken === undefined) {
    const asked = new URLSearchParams({ ...query, limit: String(limit) });
    return verdict.notVerified(
      `${describeOperation(op)}: user ${whose}'s first page of one record (${asked}) carries no next_token: user ${whose} holds at most one record there, so there is no cursor of user ${whose}'s to present`,
    );
  }
  return page.nextToken;
}

describeEachCollection((op, name) => {
  const path = buildPath(op);

  test(
    ...verifies(
      'PAG-CURSOR-INVALID',
      `${name} never answers a tampered or made-up nextToken with a 5xx or another user's records`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const cursor = await cursorOf(api, op, { token, whose: 'A', verdict });
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      const variants: [string, string][] = [
        ['a character in the middle changed', flipAt(cursor, Math.floor(cursor.length / 2))],
        ['its last character changed', flipAt(cursor, cursor.length - 1)],
        ['junk appended', `${cursor}AAAA`],
        ['a made-up string', 'bm90LWEtcmVhbC1jdXJzb3I'],
      ];
      for (const [what, variant] of variants) {
        const exchange = await api.send({ path, token, query: { limit: CURSOR_LIMIT, nextToken: variant } });
        verdict.expectNoLeak(exchange, `a next_token with ${what}`, own, identityOf);
      }
      verdict.evidence(`${name}: ${variants.length} altered cursors`);
    },
  );

  test(
    ...verifies(
      'PAG-CURSOR-INVALID',
      `${name} never serves user B's records to user A presenting B's nextToken`,
      { needs: ['second-user'] },
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const tokenB = await userToken(ALL_READ_SCOPES, 'B');
      const cursor = await cursorOf(api, op, { token: tokenB, whose: 'B', verdict });
      const token = await userToken();
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      const exchange = await api.send({ path, token, query: { limit: CURSOR_LIMIT, nextToken: cursor } });
      verdict.expectNoLeak(exchange, "user B's next_token used by user A", own, identityOf);
      verdict.evidence(`${name}: user B's cursor answered ${exchange.status}`);
    },
  );

  test(
    ...verifies(
      'PAG-CURSOR-INVALID',
      `${name} never answers a nextToken used with another start or end with a 5xx or another user's records`,
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const start = '2000-01-01T00:00:00.000Z';
      const cursor = await cursorOf(api, op, { token, whose: 'A', verdict }, { start });
      const own = new Set(identities((await dataset.referenceWalk(op)).records));
      for (const query of [
        {},
        { start: '2000-01-02T00:00:00.000Z' },
        { start, end: iso(Date.now() + 86_400_000) },
      ]) {
        const exchange = await api.send({
          path,
          token,
          query: { ...query, limit: CURSOR_LIMIT, nextToken: cursor },
        });
        verdict.expectNoLeak(
          exchange,
          `a next_token issued for start=${start} used with ${JSON.stringify(query)}`,
          own,
          identityOf,
        );
      }
      verdict.evidence(`${name}: a cursor reused under 3 other queries`);
    },
  );
});
