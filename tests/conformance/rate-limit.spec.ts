// RL-429: "Requests over the rate limit get 429." The seed does not show the limit, its window or the
// headers of a 429 (RL-VALUES); the suite takes them from the target's configuration
// (CONFORMANCE_RATE_LIMIT, CONFORMANCE_RATE_LIMIT_HEADERS). One bounded burst on one cheap operation:
// isolated (it disturbs every other test of this client) and tagged @ratelimit (not run by the smoke and
// certification profiles).
//
// The verdict does not depend on the machine's speed: a burst that never reaches the limit within one
// window is not verified (never a pass); and where the target counts down X-RateLimit-Remaining, a request
// served after a served one that left nothing remaining, in the same window, fails whatever the timing.
// On the embedded sandbox the burst uses a token with a small limit of its own (sandbox_rate_limit), so
// that any machine reaches it well within the window.
import { Tags } from '../../src/config/profiles.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { ALL_READ_SCOPES } from '../../src/suite/fixtures.ts';
import { test } from '../../src/suite/test.ts';
import {
  describeOperation,
  requestFor,
  servedStatuses,
  userDataOperations,
} from '../../src/suite/user-catalogue.ts';
import { note, notVerified } from '../../src/suite/verdicts.ts';
import { verifies } from '../../src/suite/verifies.ts';

const CONCURRENCY = 16;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cheapest read of the catalogue: a user-data GET without parameters (the body measurement). */
const cheap = userDataOperations.find(
  (op) => op.readOnly && op.security.kind === 'user' && op.pathParams.length === 0 && !op.isCollection,
);

const remainingOf = (exchange: Exchange): number | undefined => {
  const value = Number(exchange.headers['x-ratelimit-remaining']);
  return exchange.headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(value)
    ? value
    : undefined;
};

test(
  ...verifies(
    'RL-429',
    'a bounded burst over the documented rate limit gets 429 with the documented headers, and the request is served again after the window',
    { tag: [Tags.isolated, Tags.rateLimit] },
  ),
  async ({ api, config, userToken, tokenPool, requires, verdict }, testInfo) => {
    requires('rate-limit');
    const rateLimit = config.rateLimit;
    if (!rateLimit || !cheap) throw new Error('unreachable: rate-limit capability without a rate limit');
    const windowMs = rateLimit.windowSeconds * 1000;
    testInfo.setTimeout(3 * windowMs + 60_000);
    const documented = `${rateLimit.limit} requests per ${rateLimit.windowSeconds} s`;
    const ownLimit = config.capabilities.has('own-rate-limit');
    const token = ownLimit
      ? (
          await tokenPool.fresh(ALL_READ_SCOPES, 'A', {
            sandboxRateLimit: `${rateLimit.limit}/${rateLimit.windowSeconds}`,
          })
        ).accessToken
      : await userToken();
    const request = { ...requestFor(cheap), token, noRetry: true };

    // Start in a fresh window: a new token's own, or one idle window after this client's last request.
    if (!ownLimit) await sleep(windowMs + 250);
    const maxRequests = Math.ceil(rateLimit.limit * 1.2) + 20;
    let sent = 0;
    let limited: Exchange | undefined;
    const started = Date.now();
    const served: Exchange[] = [];
    const unexpected: string[] = [];
    const burst = async () => {
      while (limited === undefined && sent < maxRequests) {
        sent++;
        const exchange = await api.send(request);
        if (exchange.status === 429) limited ??= exchange;
        else if (servedStatuses(cheap).includes(exchange.status)) served.push(exchange);
        else if (unexpected.length < 5) unexpected.push(`${exchange.status} ${exchange.text.slice(0, 100)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, burst));
    const elapsed = Date.now() - started;
    verdict.expectNone(unexpected.map((problem) => `a request of the burst answered ${problem}`));

    // Machine-speed independent: after a served response left 0 remaining, the next served one in the
    // same window (its Remaining did not go back up) was over the limit.
    const overServed = served.filter(
      (exchange, index) =>
        index > 0 && remainingOf(exchange) === 0 && remainingOf(served[index - 1] as Exchange) === 0,
    );
    verdict.expectThat(
      overServed.length === 0,
      `${overServed.length} request(s) to ${describeOperation(cheap)} were served after X-RateLimit-Remaining had reached 0 in the same window (documented ${documented})`,
      overServed[0],
    );
    if (limited === undefined) {
      // Requests answered before the first one's window can have closed were all counted in that window.
      const servedInWindow = served.length;
      verdict.expectThat(
        elapsed > windowMs || servedInWindow <= rateLimit.limit,
        `${servedInWindow} requests to ${describeOperation(cheap)} were served within one window of the documented limit (${documented}) and none of the ${sent} got 429`,
      );
      notVerified(
        `${sent} requests took ${elapsed} ms, so the documented limit (${documented}) was never exceeded within one window`,
      );
    }

    // The 429 carries the headers the target documents.
    const missing = rateLimit.headers.filter(
      (header) => limited?.headers[header.toLowerCase()] === undefined,
    );
    verdict.expectThat(
      missing.length === 0,
      `the 429 lacks the header(s) the target documents (CONFORMANCE_RATE_LIMIT_HEADERS): ${missing.join(', ')}`,
      limited,
    );
    const shown = rateLimit.headers.map((header) => `${header}: ${limited?.headers[header.toLowerCase()]}`);
    note(
      'RL-VALUES',
      `429 after ${sent} requests in ${elapsed} ms (${served.length} served; documented ${documented}); ${shown.join(', ')}`,
    );

    // After the window (Retry-After, bounded by the documented window) the same request is served.
    const retryAfter = Number(limited.headers['retry-after']);
    const waitSeconds = Math.min(
      Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : rateLimit.windowSeconds,
      rateLimit.windowSeconds + 1,
    );
    await sleep(waitSeconds * 1000);
    verdict.expectStatus(await api.send(request), servedStatuses(cheap));
    verdict.evidence(
      `429 after ${served.length} served requests (documented ${documented}); served again after ${waitSeconds} s`,
    );
  },
);
