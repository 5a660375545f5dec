// The conformance suite's Playwright fixtures: configuration, the recorded and guarded HTTP client,
// user tokens minted through the real authorization code flow (once per scope set, worker and target, never
// printed; sign-ins.ts), partner clients, capability checks and profile enforcement (test-guards.ts), and
// failure attachments (kept-exchanges.ts).
import { _baseTest as base } from '@playwright/test';
import { PartnerClient, type PartnerTokenFailure, partnerTokenSettings } from '../../auth/partner-client.ts';
import { SignInServerFailure } from '../../auth/sign-in-errors.ts';
import { runTokens } from '../../auth/token-lifetimes.ts';
import type { AuthorizationOptions, UserToken } from '../../auth/user-oauth.ts';
import type { UserName, UserTokenPool } from '../../auth/user-token-pool.ts';
import { requestGuard } from '../../config/profiles.ts';
import { type Isolation, targetNameOf } from '../../config/run-plan.ts';
import { normaliseScopes } from '../../config/scope-set.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { USER_SCOPES } from '../../contract/operation-model.ts';
import { operationById } from '../../contract/operations.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import { appendToRecording } from '../../http/har-writer.ts';
import { processTally, REQUESTS_ANNOTATION, tallySince } from '../../http/request-counter.ts';
import { collectTestExchanges } from '../../protocol/exchange-sink.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { findingsOf, recordFinding } from '../../protocol/finding.ts';
import { isolatedFirstShown } from '../../protocol/isolated-first.ts';
import { keptFailuresShown } from '../../protocol/kept-failures.ts';
import { latencyAnnotation } from '../../protocol/latency-samples.ts';
import { ended } from '../../run-state/isolated-finished.ts';
import { recordedRunError } from '../../run-state/run-error.ts';
import { setupFinished } from '../../run-state/setup-finished.ts';
import { releaseRequisitions } from '../partner-data/requisition-claims.ts';
import { answerWatch } from '../session/answer-watch.ts';
import { type TargetSession, TargetSessions } from '../session/target-session.ts';
import { unchargedUnanswered } from '../session/unanswered.ts';
import { withGrantGuard } from '../user-data/grant-guard.ts';
import { notVerified } from '../verdict/stops.ts';
import { declaredVerdict, type Verdict } from '../verdict/verdicts.ts';
import {
  failedOnChecksAlone,
  failWith,
  judgedFixtures,
  stoppedByRunError,
  uncaughtFindings,
} from './ending-recorder.ts';
import { attachKeptExchanges } from './kept-exchanges.ts';
import { injectedError } from './self-test-hooks.ts';
import { serverFailure, signedIn, tokenFor, triedToken } from './sign-ins.ts';
import { guardNeeds, guardProfile } from './test-guards.ts';

/** The six read scopes of the seed (the operation catalogue's list). */
export const ALL_READ_SCOPES = USER_SCOPES;

interface WorkerFixtures {
  /** The target instance each target's tests of the worker's project use, by target name (option). */
  targetInstances: Record<string, number>;
  /**
   * Where the isolated tests share the target with the others (src/config/run-plan.ts `isolatedFirst`): the
   * worker's tests are isolated ones run first or last (the 429 burst), or the others, run between (option).
   */
  isolation: Isolation;
  /** The others wait for the isolated tests: the run's reporters tell them when those have ended. */
  _isolatedFirst: boolean;
  /**
   * A check's failure keeps the worker: where the run's reporters start with the one that shows such a
   * failure as a failure again (src/runner/report/kept-failures-reporter.ts). Else Playwright replaces the worker.
   */
  _failureKeepsWorker: boolean;
  /**
   * The run's global setup has finished (auto, first): it goes on while the workers start; and where the
   * worker's tests come after the isolated ones, those have ended.
   */
  _runSetUp: undefined;
  /** The worker's session with each target instance its tests use (src/worker/session/target-session.ts). */
  _targetSessions: TargetSessions;
}

interface TestFixtures {
  /** The worker's session with the test's target instance. */
  session: TargetSession;
  /** The suite's configuration for the test's target, with its secrets (never written: the manifest refers to them). */
  config: SuiteConfig;
  tokenPool: UserTokenPool;
  /** Skips the test, not verified, when global setup recorded a run error (auto, first). */
  _runErrorGuard: undefined;
  /**
   * Records what ended the test that no catch saw (a test timeout: the suite's own error) and the unanswered
   * requests it sent; with `_failureKeepsWorker`, marks a check's failure expected (auto, torn down last).
   */
  _failureFindings: undefined;
  /** Every exchange of the current test (attached, redacted, when the test fails). */
  _exchanges: Exchange[];
  /**
   * The HTTP client of the current test: recorded, counted, paced and guarded by the profile and by the
   * grants of its tokens (a request needing a scope its token's stated grant lacks, and that the target
   * refused the token when it was tried on it, is not sent: the check is not verified, naming the grant and
   * the refusal; src/worker/user-data/grant-guard.ts).
   */
  api: ApiClient;
  /**
   * A user token for the scope set (default: all six read scopes), cached per worker and target; the pool
   * knows the scope its grant is stated to carry (src/auth/granted-scope.ts), and the token is tried once on
   * each scope asked for that the statement lacks (src/worker/user-data/grant-guard.ts).
   */
  userToken: (scopes?: readonly string[], user?: UserName) => Promise<string>;
  /** A newly minted user token (a grant of its own, e.g. to revoke), stopped like userToken's on a failed sign-in. */
  freshToken: (
    scopes: readonly string[],
    user?: UserName,
    options?: AuthorizationOptions,
  ) => Promise<UserToken>;
  partnerA: PartnerClient;
  partnerB: PartnerClient;
  /** The verdicts of the requirement the check declares (src/worker/suite/test.ts `verifies`; src/worker/verdict/verdicts.ts). */
  verdict: Verdict;
  /** Omits a test its profile refuses, and leaves one that writes not verified on a stateless target (auto). */
  _profileGuard: undefined;
  /** Leaves the test not verified, naming what would supply it, when the target lacks what it needs (auto). */
  _needs: undefined;
  /** Releases the configured requisitions the test claimed (auto). */
  _requisitionClaims: undefined;
  /** Records the requests the test sent, by kind of credential, for the report's tally by family (auto). */
  _requestCount: undefined;
  /** Strict mode: a test that recorded a warning fails (auto). */
  _strictWarnings: undefined;
}

function partnerFor(
  config: SuiteConfig,
  name: 'A' | 'B',
  api: ApiClient,
  tokens: Map<string, string>,
): PartnerClient {
  const credentials = name === 'A' ? config.partnerA : config.partnerB;
  if (!credentials)
    notVerified(
      `partner ${name} is not configured (CONFORMANCE_PARTNER_${name}_CLIENT_ID, CONFORMANCE_PARTNER_${name}_CLIENT_SECRET)`,
    );
  const settings = { ...partnerTokenSettings(config, credentials, api), failed: partnerTokenFailure };
  return new PartnerClient(api, credentials, tokens, settings);
}

/** A token request the server failed, in a check: its failure of OP-PARTNER-TOKEN, on the answer. */
const partnerTokenFailure = ({ exchange, problem, field }: PartnerTokenFailure): ConformanceFailure =>
  new ConformanceFailure(
    successRequirement(operationById('requestPartnerToken')),
    `the partner token request ${problem}`,
    exchange,
    { fields: [field] },
  );

/**
 * The suite's fixtures are not test steps (`box: 'self'`): a step costs the worker a captured stack and two
 * messages to the runner, a test sets up a dozen fixtures, and the reports would hide them anyway. Plumbing
 * no spec takes is named `_…` and titled, as Playwright's own is (a fixture's timeout names its title).
 */
export const internal = { box: 'self' } as const;

/** The core fixtures; specs take `test` from test.ts, which merges them with the other domains'. */
export const coreTest = base.extend<TestFixtures, WorkerFixtures>(
  judgedFixtures({
    targetInstances: [{ '': 0 }, { scope: 'worker', option: true }],
    isolation: ['apart', { scope: 'worker', option: true }],
    _isolatedFirst: [
      async ({ isolation }, use, workerInfo) =>
        use(isolation !== 'apart' && isolatedFirstShown(workerInfo.config.reporter)),
      { scope: 'worker', title: 'whether the others wait for the isolated tests', ...internal },
    ],
    _failureKeepsWorker: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
      async ({}, use, workerInfo) => use(keptFailuresShown(workerInfo.config.reporter)),
      { scope: 'worker', title: "whether a check's failure keeps the worker", ...internal },
    ],
    _runSetUp: [
      async ({ isolation, _isolatedFirst }, use) => {
        await setupFinished();
        if (isolation === 'after' && _isolatedFirst) await ended('first');
        if (isolation === 'last' && _isolatedFirst) await ended('after');
        await use(undefined);
      },
      // Global setup's own time, and the other groups', is the run's (bounded by its timeout), not a test's.
      { scope: 'worker', auto: true, timeout: 0, title: "the run's global setup", ...internal },
    ],
    _targetSessions: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
      async ({}, use) => {
        const sessions = new TargetSessions();
        await use(sessions);
        await sessions.close();
      },
      // Closing waits for the first sendings still in flight, each by its bound (CONFORMANCE_REQUEST_TIMEOUT_MS).
      { scope: 'worker', timeout: 0, title: "the worker's sessions with its targets", ...internal },
    ],
    session: [
      async ({ targetInstances, _targetSessions }, use, testInfo) => {
        const target = targetNameOf(testInfo.annotations);
        const instance = targetInstances[target];
        if (instance === undefined) throw new Error(`the project has no instance of target "${target}"`);
        await use(_targetSessions.of(instance));
      },
      internal,
    ],
    config: [async ({ session }, use) => use(session.config), internal],
    tokenPool: [async ({ session }, use) => use(session.tokenPool), internal],

    // Before any other: a run error (src/run-state/run-error.ts) leaves nothing to judge, and no test may
    // send a request or open a session.
    _runErrorGuard: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
      async ({}, use, testInfo) => {
        const runError = recordedRunError();
        if (runError) stoppedByRunError(testInfo, runError);
        await use(undefined);
      },
      { auto: true, title: 'a run error stops the test', ...internal },
    ],
    // First of the other auto fixtures, so torn down after them (a strict-mode failure happens in one).
    _failureFindings: [
      async ({ _failureKeepsWorker }, use, testInfo) => {
        await use(undefined);
        // What Playwright recorded that no catch saw (a test timeout): the suite's own (ERROR `suite`).
        for (const finding of uncaughtFindings(testInfo)) recordFinding(testInfo, finding);
        // A request the test sent and got no answer to is its failure, whatever the check made of it.
        const failed = findingsOf(testInfo.annotations).flatMap((f) =>
          f.outcome === 'fail' ? [f.requirement] : [],
        );
        const unanswered = unchargedUnanswered(new Set(failed));
        for (const failure of unanswered) recordFinding(testInfo, failure.finding);
        const [charged] = testInfo.status === 'failed' ? [] : unanswered;
        // Only failures the checks raised: a crash or a timeout still replaces the worker. The reporter takes
        // the status from the result, so the failure stays a failure.
        if (_failureKeepsWorker && (charged || failedOnChecksAlone(testInfo)))
          testInfo.expectedStatus = 'failed';
        if (charged) failWith(testInfo, charged);
      },
      { auto: true, title: 'what ended the test that no check caught', ...internal },
    ],
    _profileGuard: [
      async ({ config, isolation, _isolatedFirst }, use, testInfo) => {
        guardProfile(config, { isolation, isolatedFirst: _isolatedFirst }, testInfo);
        await use(undefined);
      },
      { auto: true, title: 'what the profile allows the test', ...internal },
    ],
    _needs: [
      async ({ config }, use, testInfo) => {
        guardNeeds(config, testInfo);
        await use(undefined);
      },
      { auto: true, title: 'what the check needs of its target', ...internal },
    ],
    _requisitionClaims: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
      async ({}, use) => {
        await use(undefined);
        releaseRequisitions();
      },
      { auto: true, title: 'the requisitions the test claimed', ...internal },
    ],
    _requestCount: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
      async ({}, use, testInfo) => {
        const before = { ...processTally };
        await use(undefined);
        const sent = tallySince(before, processTally);
        testInfo.annotations.push({ type: REQUESTS_ANNOTATION, description: JSON.stringify(sent) });
      },
      { auto: true, title: 'the requests the test sent', ...internal },
    ],
    _strictWarnings: [
      async ({ config }, use, testInfo) => {
        await use(undefined);
        // Strict mode: the suite's readings become the team's rules, so a warning fails the test.
        const warnings = findingsOf(testInfo.annotations).filter((finding) => finding.outcome === 'warning');
        const [first] = warnings;
        if (!config.strict || !first || testInfo.status !== 'passed') return;
        throw new ConformanceFailure(
          first.requirement,
          `strict mode (CONFORMANCE_STRICT=1) fails the suite's readings:\n${warnings.map((w) => `  - ${w.requirement}: ${w.message}`).join('\n')}`,
        );
      },
      { auto: true, title: "strict mode's warnings", ...internal },
    ],
    _exchanges: [
      async ({ config }, use, testInfo) => {
        const exchanges: Exchange[] = [];
        collectTestExchanges(exchanges, testInfo.testId);
        await use(exchanges);
        collectTestExchanges(undefined);
        if (config.recordHar) appendToRecording(exchanges);
        // The answer times go to the reporter, which builds the latency table from every test's.
        const latency = latencyAnnotation(exchanges);
        if (latency) testInfo.annotations.push(latency);
        // The failures that ended the test kept what they rest on where caught (src/worker/suite/ending-recorder.ts).
        await attachKeptExchanges(exchanges, testInfo);
      },
      { auto: true, title: "the test's exchanges", ...internal },
    ],
    api: [
      async ({ session, _exchanges, config, tokenPool }, use, testInfo) => {
        const watch = answerWatch(testInfo, config.baseUrl);
        const client = session.api.withOptions({
          onExchange: (exchange) => {
            _exchanges.push(exchange);
            watch(exchange);
          },
          guard: withGrantGuard(
            requestGuard(config.profile, config.environment, testInfo.tags),
            tokenPool,
            config.baseUrl,
          ),
          // A renewal may sign in again: the server's failure there is the check's failure of AUTH-CODE-FLOW.
          renewToken: (token, exchange) =>
            tokenPool.renew(token, exchange).catch((error: unknown) => {
              throw error instanceof SignInServerFailure ? serverFailure(error) : error;
            }),
          // A user token renewed by its stated expiry is a sign-in as any other.
          currentToken: (token, client) => {
            const renewal = runTokens.current(token, client);
            const user = tokenPool.grantOf(token)?.user;
            return user ? signedIn(renewal, `no new user ${user} token in place of one expiring`) : renewal;
          },
        });
        await use(client);
      },
      internal,
    ],
    userToken: [
      async ({ tokenPool, config, session }, use) => {
        await use(async (scopes = ALL_READ_SCOPES, user = 'A') => {
          const token = tokenPool.cached(scopes, user);
          if (!token)
            notVerified(
              config.userTokens
                ? `no pre-issued token for scope set "${normaliseScopes(scopes)}" (CONFORMANCE_USER_TOKENS)`
                : `no credentials for user ${user} (CONFORMANCE_USER${user === 'B' ? '_B, CONFORMANCE_PASSWORD_B' : ', CONFORMANCE_PASSWORD'})`,
            );
          return (await triedToken(signedIn(token, tokenFor(scopes, user)), session)).accessToken;
        });
      },
      internal,
    ],
    freshToken: [
      async ({ tokenPool, session }, use) => {
        await use((scopes, user = 'A', options = {}) =>
          triedToken(signedIn(tokenPool.fresh(scopes, user, options), tokenFor(scopes, user)), session),
        );
      },
      internal,
    ],
    partnerA: [
      async ({ config, api, session }, use) => use(partnerFor(config, 'A', api, session.partnerTokens)),
      internal,
    ],
    partnerB: [
      async ({ config, api, session }, use) => use(partnerFor(config, 'B', api, session.partnerTokens)),
      internal,
    ],
    verdict: [
      async ({ config }, use, testInfo) => {
        await injectedError(config, testInfo);
        await use(declaredVerdict(testInfo));
      },
      internal,
    ],
  }),
);
