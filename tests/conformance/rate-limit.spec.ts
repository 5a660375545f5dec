// RL-429: "Requests over the rate limit get 429." The seed does not show the limit, its window or the
// headers of a 429 (RL-VALUES). The suite takes the limit from the configuration (CONFORMANCE_RATE_LIMIT),
// else from what the target announces in its response headers (X-RateLimit-*, the IETF RateLimit and
// RateLimit-Policy fields: src/http/rate-limit-headers.ts), and the headers a 429 must carry from
// CONFORMANCE_RATE_LIMIT_HEADERS. One bounded burst on one cheap operation: isolated (it disturbs every
// other test of this client) and tagged @ratelimit (not run by the smoke and certification profiles).
//
// Where the probe announces what is left of its window, the burst starts at once and needs that many and one
// more; otherwise it starts in a fresh window. It stays within a request budget (CONFORMANCE_RATE_LIMIT_BUDGET):
// a limit it cannot exceed within the budget is not verified, with the numbers, never a pass nor a failure.
// The verdict does not depend on the machine's speed (src/checks/rate-limit-windows.ts): near the limit the
// burst sends one request after another, so a request served after one that left none remaining, in the same
// window by what both announce, fails whenever it came; a burst that crosses into a new window (one starting at the probe, or at a clock
// boundary) goes on in it, and is never a failure. On the embedded sandbox the burst uses a token with a
// small limit of its own (sandbox_rate_limit), so that any machine reaches it well within the window.
import {
  ALL_READ_SCOPES,
  type AnnouncedRateLimit,
  type ApiClient,
  type ApiRequest,
  announcedRateLimit,
  type CountedAnswer,
  describeOperation,
  type Exchange,
  type Operation,
  requestFor,
  type SuiteConfig,
  servedOverLimit,
  servedStatuses,
  Tags,
  test,
  userDataOperations,
  type Verdict,
  verifies,
  windowsEntered,
  windowsTouched,
} from '../../src/worker/suite/index.ts';

const CONCURRENCY = 16;
/** What the seed does not show (the values, windows and headers): recorded as observed. */
const RL_VALUES = 'RL-VALUES';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cheapest read of the catalogue: a user-data GET without parameters (the body measurement). */
const cheap = userDataOperations.find(
  (op) => op.readOnly && op.security.kind === 'user' && op.pathParams.length === 0 && !op.isCollection,
);
const cheapRead = (): Operation => {
  if (!cheap) throw new Error('the catalogue has no user-data read without parameters');
  return cheap;
};

/** The fixtures the burst's steps take. */
interface Fixtures {
  api: ApiClient;
  config: SuiteConfig;
  verdict: Verdict;
  userToken: (scopes?: readonly string[]) => Promise<string>;
  freshToken: (
    scopes: readonly string[],
    user: 'A',
    options: { sandboxRateLimit: string },
  ) => Promise<{ accessToken: string }>;
}

const remainingOf = (exchange: Exchange): number | undefined =>
  announcedRateLimit(exchange.headers)?.remaining;

/** What an answer of the burst announces, for the window reasoning. */
function counted(exchange: Exchange, servedStatus: readonly number[]): CountedAnswer {
  const announced = announcedRateLimit(exchange.headers);
  return {
    served: servedStatus.includes(exchange.status),
    remaining: announced?.remaining,
    resetSeconds: announced?.resetSeconds,
  };
}

/** The burst's token: on a target that gives a token a limit of its own, a fresh one with the configured limit. */
async function burstToken({ config, userToken, freshToken }: Fixtures): Promise<string> {
  const configured = config.rateLimit;
  if (configured === undefined || !config.capabilities.has('own-rate-limit')) return userToken();
  const sandboxRateLimit = `${configured.limit}/${configured.windowSeconds}`;
  return (await freshToken(ALL_READ_SCOPES, 'A', { sandboxRateLimit })).accessToken;
}

/** What the probe (the first request the target counts) shows of the limit the burst goes over. */
interface Limit {
  probe: Exchange;
  probeSentAt: number;
  announced?: AnnouncedRateLimit;
  limit: number;
  windowSeconds?: number;
  /** The limit as the messages quote it, with where it comes from. */
  documented: string;
}

/** The probe and the limit: the configured one, else the one the target announces; none is not verified. */
async function probeLimit(
  { api, config, verdict }: Fixtures,
  request: ApiRequest,
  op: Operation,
): Promise<Limit> {
  const configured = config.rateLimit;
  const probeSentAt = Date.now();
  const probe = await api.send(request);
  const announced = announcedRateLimit(probe.headers);
  const read = announced
    ? `${announced.sources.join(', ')}: limit ${announced.limit ?? '?'}, window ${announced.windowSeconds ?? '?'} s, remaining ${announced.remaining ?? '?'}, reset ${announced.resetSeconds ?? '?'} s`
    : 'no rate-limit header';
  const limit = configured?.limit ?? announced?.limit;
  if (limit === undefined)
    return verdict.notVerified(
      `no rate limit configured (CONFORMANCE_RATE_LIMIT) and ${describeOperation(op)} announced none (${read})`,
    );
  if (configured && announced?.limit !== undefined && announced.limit !== configured.limit)
    verdict
      .of(RL_VALUES)
      .note(`the target announces a limit of ${announced.limit} (${read}); configured ${configured.limit}`);
  const windowSeconds = configured?.windowSeconds ?? announced?.windowSeconds;
  const per = windowSeconds === undefined ? 'a window it does not state' : `${windowSeconds} s`;
  const documented = `${limit} requests per ${per} (${configured ? 'CONFORMANCE_RATE_LIMIT' : read})`;
  return { probe, probeSentAt, announced, limit, windowSeconds, documented };
}

/**
 * One window's limit and one more, twice (a burst may cross into a new window), within the budget; else not
 * verified, with the numbers. Where the probe says what is left of its window, the burst starts at once, in
 * that window: it needs what is left and one more (the cheapest evidence of a 429).
 */
function burstSize(
  { config, verdict }: Fixtures,
  { announced, limit, documented }: Limit,
  ownLimit: boolean,
) {
  const left = ownLimit ? undefined : announced?.remaining;
  const needed = (left ?? limit) + 1;
  const maxRequests = Math.min(config.rateLimitBudget, 2 * (limit + CONCURRENCY));
  if (needed > maxRequests)
    verdict.notVerified(
      `the limit (${documented}) takes ${needed} requests in ${left === undefined ? 'one window' : `the window the probe found ${left} left in`} to exceed, over the burst's budget of ${config.rateLimitBudget} (CONFORMANCE_RATE_LIMIT_BUDGET)`,
    );
  return { left, maxRequests };
}

/** What the burst brought: the first 429, the served answers, those sent one after another, the others. */
interface Burst {
  sent: number;
  limited?: Exchange;
  lastServedAt: number;
  elapsed: number;
  answered: Exchange[];
  unexpected: string[];
  sequence: Exchange[];
}

/**
 * Far from the limit, concurrently: the requests in flight when a worker stops leave at least one remaining,
 * so no served answer of the concurrent part is past the limit. Near it, one after another, counted in the
 * order sent. Where the target announces no remaining count, concurrently all along.
 */
async function burst(
  api: ApiClient,
  request: ApiRequest,
  { probe, probeSentAt }: Limit,
  maxRequests: number,
) {
  const servedStatus = servedStatuses(cheapRead());
  const run: Burst = {
    sent: 0,
    lastServedAt: probeSentAt,
    elapsed: 0,
    answered: [],
    unexpected: [],
    sequence: [],
  };
  const started = Date.now();
  const send = async (): Promise<Exchange> => {
    run.sent++;
    const exchange = await api.send(request);
    if (exchange.status === 429) run.limited ??= exchange;
    else if (servedStatus.includes(exchange.status)) {
      run.answered.push(exchange);
      run.lastServedAt = Date.now();
    } else if (run.unexpected.length < 5)
      run.unexpected.push(`${exchange.status} ${exchange.text.slice(0, 100)}`);
    return exchange;
  };
  const fewestRemaining = () =>
    Math.min(
      ...[probe, ...run.answered].map((exchange) => remainingOf(exchange) ?? Number.POSITIVE_INFINITY),
    );
  const far = () => fewestRemaining() > CONCURRENCY + 1;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (run.limited === undefined && run.sent < maxRequests && far()) await send();
    }),
  );
  // The probe starts the sequence when nothing was sent between (a wait for a fresh window is no request).
  if (run.sent === 0) run.sequence.push(probe);
  while (run.limited === undefined && run.sent < maxRequests) run.sequence.push(await send());
  run.elapsed = Date.now() - started;
  return run;
}

/** No 429 came: not verified, unless what was served is more than any window could allow (no remaining count). */
function withoutLimit(
  verdict: Verdict,
  run: Burst,
  answers: CountedAnswer[],
  limit: Limit,
  maxRequests: number,
) {
  const { sent, answered, elapsed } = run;
  const { documented, windowSeconds } = limit;
  const entered = windowsEntered(answers);
  if (answered.some((exchange) => remainingOf(exchange) !== undefined))
    return verdict.notVerified(
      `${sent} requests (budget ${maxRequests}) got no 429 and none was served over the announced remaining count${entered > 0 ? `; the count went back up ${entered} time(s): new windows began before the limit (${documented}) was exceeded` : ''}`,
    );
  // No remaining count announced: over the limit only what no window can allow in the time the burst
  // took from the probe, however the windows are aligned.
  const sinceProbe = run.lastServedAt - limit.probeSentAt;
  const windows = windowSeconds === undefined ? undefined : windowsTouched(sinceProbe, windowSeconds);
  verdict.expectThat(
    windows === undefined || answered.length + 1 <= limit.limit * windows,
    `${answered.length + 1} requests to ${describeOperation(cheapRead())} (the probe and the burst) were served within ${sinceProbe} ms, which touches at most ${windows} window(s) of ${windowSeconds} s, more than the limit (${documented}) allows in them, and none of the ${sent} got 429`,
  );
  return verdict.notVerified(
    `${sent} requests (budget ${maxRequests}) took ${elapsed} ms and none got 429, and the target announces no remaining count: the limit (${documented}) was not seen exceeded within one window`,
  );
}

/** The 429 carries the headers the target documents; they are noted with what the burst took. */
function limitedHeaders(
  { config, verdict }: Fixtures,
  run: Burst,
  limited: Exchange,
  { probe, documented }: Limit,
) {
  const missing = config.rateLimitHeaders.filter(
    (header) => limited.headers[header.toLowerCase()] === undefined,
  );
  verdict.expectThat(
    missing.length === 0,
    `the 429 lacks the header(s) the target documents (CONFORMANCE_RATE_LIMIT_HEADERS): ${missing.join(', ')}`,
    limited,
  );
  const shown = config.rateLimitHeaders.map(
    (header) => `${header}: ${limited.headers[header.toLowerCase()]}`,
  );
  const oneByOne = run.sequence.filter((exchange) => exchange !== probe).length;
  verdict
    .of(RL_VALUES)
    .note(
      `429 after ${run.sent} requests in ${run.elapsed} ms (${run.answered.length} served; ${oneByOne} sent one after another; limit ${documented})${shown.length ? `; ${shown.join(', ')}` : ''}`,
    );
}

/** After the window (Retry-After, else the announced reset, bounded by the window) it is served again. */
async function servedAgain(
  { api, verdict }: Fixtures,
  request: ApiRequest,
  run: Burst,
  limited: Exchange,
  limit: Limit,
) {
  const { windowSeconds } = limit;
  const retry = announcedRateLimit(limited.headers);
  const waitSeconds = Math.max(
    0,
    Math.min(
      retry?.retryAfterSeconds ?? retry?.resetSeconds ?? windowSeconds ?? 1,
      windowSeconds === undefined ? Number.POSITIVE_INFINITY : windowSeconds + 1,
    ),
  );
  await sleep(waitSeconds * 1000);
  // Sent with the burst's token renewed if the wait outlived it (src/auth/token-lifetimes.ts).
  verdict.expectStatus(await api.send(request), servedStatuses(cheapRead()));
  verdict.evidence(
    `429 after ${run.answered.length} served requests (limit ${limit.documented}); served again after ${waitSeconds} s`,
  );
}

test(
  ...verifies(
    'RL-429',
    'a bounded burst over the documented rate limit gets 429 with the documented headers, and the request is served again after the window',
    { tag: [Tags.isolated, Tags.rateLimit], needs: ['rate-limit'] },
  ),
  async ({ api, config, userToken, freshToken, verdict }, testInfo) => {
    const fixtures: Fixtures = { api, config, userToken, freshToken, verdict };
    const op = cheapRead();
    const ownLimit = config.rateLimit !== undefined && config.capabilities.has('own-rate-limit');
    const request = { ...requestFor(op), token: await burstToken(fixtures), noRetry: true };
    // What the target announces; without a configured limit, the limit the burst goes over. The probe is the
    // first request the target counts: the burst's windows are counted from it.
    const limit = await probeLimit(fixtures, request, op);
    // The burst's waits (a fresh window, the reset after the 429) are the run's: the test's timeout grows by them.
    testInfo.setTimeout(
      testInfo.timeout + 3 * (limit.windowSeconds ?? limit.announced?.resetSeconds ?? 60) * 1000,
    );
    const { left, maxRequests } = burstSize(fixtures, limit, ownLimit);
    // Otherwise start in a fresh window: a new token's own, one idle window after this client's last
    // request, or the announced reset of the current one.
    if (!ownLimit && left === undefined) {
      const idleSeconds =
        config.rateLimit?.windowSeconds ?? limit.announced?.resetSeconds ?? limit.windowSeconds ?? 0;
      await sleep(idleSeconds * 1000 + 250);
    }
    const run = await burst(api, request, limit, maxRequests);
    verdict.expectNone(run.unexpected.map((problem) => `a request of the burst answered ${problem}`));
    // Without a stated window, the reset the first response of a fresh window announces is its length.
    limit.windowSeconds ??= run.answered[0] && announcedRateLimit(run.answered[0].headers)?.resetSeconds;
    // Machine-speed independent: one request served after one that left none remaining, in the same window.
    const answers = run.sequence.map((exchange) => counted(exchange, servedStatuses(op)));
    const overServed = servedOverLimit(answers, limit.limit).map((index) => run.sequence[index] as Exchange);
    verdict.expectThat(
      overServed.length === 0,
      `${overServed.length} request(s) to ${describeOperation(op)} were served after one that left none remaining, in the same window by their announced remaining count and reset (limit ${limit.documented})`,
      overServed[0],
    );
    if (run.limited === undefined) return withoutLimit(verdict, run, answers, limit, maxRequests);
    limitedHeaders(fixtures, run, run.limited, limit);
    await servedAgain(fixtures, request, run, run.limited, limit);
  },
);
