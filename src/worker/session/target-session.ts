// What a worker keeps for a target instance its tests talk to: the instance's run manifest and configuration,
// one HTTP client (paced by the run's rate budgets, counted in the run's request log), the user
// tokens and the partner tokens. A worker of a matrix run (the mutation and variant gates) serves every
// target of the run, so it keeps one session per instance, opened by the first test that needs it and
// closed with the worker (src/worker/suite/fixtures.ts).
import { runJournal } from '../../auth/sign-in-journal.ts';
import { runTokens } from '../../auth/token-lifetimes.ts';
import { UserTokenPool } from '../../auth/user-token-pool.ts';
import { profileRow, requestGuard } from '../../config/profiles.ts';
import { currentRunManifest, type RunManifest } from '../../config/run-manifest.ts';
import { secretsOf } from '../../config/secrets.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { operationUnder } from '../../contract/match-operation.ts';
import type { OperationId } from '../../contract/operation-model.ts';
import { ApiClient, USER_CREDENTIAL } from '../../http/api-client.ts';
import type { SentRequest } from '../../http/exchange.ts';
import { appendToRecording } from '../../http/har-writer.ts';
import { budgetKey, leasingPacer, type Pacer, targetPacer } from '../../http/pacer.ts';
import type { ShownRate } from '../../http/rate-window.ts';
import { registerSecret } from '../../http/redact.ts';
import { RequestCounter, UnansweredRequests } from '../../http/request-counter.ts';
import {
  type LearnedTable,
  learnedTimeouts,
  methodAndPath,
  type RequestTimeouts,
} from '../../http/request-timeout.ts';
import { nodeTransport, type Transport } from '../../http/transport.ts';
import { ROUTES } from '../../protocol/coordinator-routes.ts';
import { runningTestExchanges } from '../../protocol/exchange-sink.ts';
import {
  type CoordinatorCall,
  coordinatedShown,
  coordinatedTurns,
  coordinatorCall,
} from './coordinator-client.ts';
import { rateLimitJudge } from './rate-limit-judge.ts';
import { RunMemo, secretTokenCodec } from './run-memo.ts';
import { extendTestTimeout, waitForTarget } from './run-waits.ts';
import { slowRequestWatch } from './slow-request-watch.ts';
import { sharedRead, unansweredFailure } from './unanswered.ts';

export interface TargetSession {
  manifest: RunManifest;
  config: SuiteConfig;
  /** The session's client; each test derives its own (recorded, guarded by the test's tags). */
  api: ApiClient;
  tokenPool: UserTokenPool;
  /** Partner tokens by client, for the partner clients of the session's tests. */
  partnerTokens: Map<string, string>;
  /**
   * What the session's tests share that `create` makes once per session (the user's data, the schema
   * check's findings), by a key of its own.
   */
  shared<Value>(key: string, create: () => Value): Value;
  /**
   * A read the session's tests share, by a key of its own: kept for later askers unless it fails, and then
   * sent again by the next asker (a request without an answer: src/worker/session/unanswered.ts).
   */
  sharedRead<Value>(key: string, read: () => Promise<Value>): Promise<Value>;
  /** What the run's workers share with this target instance: reads made once for the whole run. */
  memo: RunMemo;
  /** What the target showed of the user OAuth client's rate limit so far, by every worker's answers. */
  userRate(): Promise<ShownRate | undefined>;
  close(): Promise<void>;
}

/** The worker's line to the run's coordinator and its pacer, shared by the sessions of every target. */
interface RunLine {
  call: CoordinatorCall;
  pacer: Pacer;
}

/** Request timeouts learned with every worker of the run, per operation of the contract, for one target. */
const runTimeouts = (call: CoordinatorCall, target: string): RequestTimeouts =>
  learnedTimeouts(
    (request) => operationUnder(target, request.method, request.url)?.operationId ?? methodAndPath(request),
    async (answers) => (await call(ROUTES.timeouts, { target, answers })) as LearnedTable,
  );

const PARTNER_TOKEN_OPERATION: OperationId = 'requestPartnerToken';

/**
 * Whether a request late or lost is sent again beside the first: a read of the contract or a page of the
 * sign-in (a GET changes nothing), and the partner token request (a client-credentials grant changes nothing
 * either: RFC 9112 §9.3.1's "means to know that the request semantics are actually idempotent"); a write of
 * data, or a step that spends what it sends (a code, a refresh token), never. Every other request waits for
 * its answer up to the bound, the rest of the run going on.
 */
export function sentAgainWhenLate(baseUrl: string, { method, url }: SentRequest, signIn: boolean): boolean {
  const operation = operationUnder(baseUrl, method, url);
  if (method === 'GET') return operation !== undefined || signIn;
  return operation?.operationId === PARTNER_TOKEN_OPERATION;
}

/** The session's HTTP client: paced and counted for the run, judged on its rate limits, its exchanges recorded. */
function sessionClient(manifest: RunManifest, transport: Transport, { pacer, call }: RunLine) {
  const { config } = manifest;
  const judge = rateLimitJudge(config, call);
  const slow = slowRequestWatch(config.baseUrl);
  const api = new ApiClient(transport, {
    baseUrl: config.baseUrl,
    pacer: targetPacer(pacer, config.baseUrl),
    requests: new RequestCounter(
      manifest.requestLog,
      profileRow(config.profile).requestBudget ? config.requestBudget : undefined,
    ),
    unanswered: new UnansweredRequests(manifest.unansweredLog, config.unansweredBudget),
    onWait: extendTestTimeout,
    onTargetWait: waitForTarget,
    rateLimited: (credential, answers, cannotWait) =>
      judge(budgetKey(config.baseUrl, credential), answers, cannotWait),
    guard: requestGuard(config.profile, config.environment, []),
    timeoutMs: config.requestTimeoutMs,
    timeouts: runTimeouts(call, config.baseUrl),
    sendsAgain: (request, signIn) => sentAgainWhenLate(config.baseUrl, request, signIn),
    onSlow: slow.onSlow,
    // Each exchange names its operation: a body that is not JSON fails OP-JSON-BODIES wherever it is read.
    operationOf: ({ method, url }) => operationUnder(config.baseUrl, method, url)?.operationId,
    // After any wait, a token the run keeps goes out renewed by its stated expiry.
    currentToken: (token, client) => runTokens.current(token, client),
    unansweredError: (failure) => unansweredFailure(failure, config.baseUrl),
    // Session-level reads (shared datasets, tokens) belong to the test they are made for; outside a test
    // they are recorded as they happen.
    onExchange: (exchange) => {
      const running = runningTestExchanges();
      if (running) running.push(exchange);
      else if (config.recordHar) appendToRecording([exchange]);
    },
  });
  return { api, slow };
}

function openSession(instance: number, line: (url: string) => RunLine): TargetSession {
  const manifest = currentRunManifest(instance);
  if (!manifest)
    throw new Error('no run manifest: run the suite with playwright.config.ts, whose global setup writes it');
  const { config } = manifest;
  // Redaction stays process-wide, so that every text the worker writes is covered: fed from the manifest.
  for (const secret of secretsOf(config)) registerSecret(secret);
  const transport = nodeTransport();
  const runLine = line(manifest.coordinatorUrl);
  const { call } = runLine;
  const { api, slow } = sessionClient(manifest, transport, runLine);
  const memo = new RunMemo(call, config.baseUrl);
  // A token from another worker's sign-in is a secret here too, before anything could print it.
  const tokenPool = new UserTokenPool(
    api,
    config,
    true,
    (key, mint) => memo.remember(`user token ${key}`, mint, secretTokenCodec),
    runJournal(config.authUrl),
  );
  const shared = new Map<string, unknown>();
  const reads = new Map<string, Promise<unknown>>();
  return {
    manifest,
    config,
    api,
    tokenPool,
    partnerTokens: new Map(),
    memo,
    shared: <Value>(key: string, create: () => Value): Value => {
      if (!shared.has(key)) shared.set(key, create());
      return shared.get(key) as Value;
    },
    sharedRead: <Value>(key: string, read: () => Promise<Value>): Promise<Value> =>
      sharedRead(reads, key, read) as Promise<Value>,
    userRate: () => runLine.pacer.shown(budgetKey(config.baseUrl, USER_CREDENTIAL)),
    close: async () => {
      // A first sending a check went on without is judged once it settles, by its bound at the latest.
      await slow.settled();
      await tokenPool.close();
      transport.dispose();
    },
  };
}

/** A worker's sessions, one per target instance, by index. */
export class TargetSessions {
  private readonly open = new Map<number, TargetSession>();
  private runLine?: RunLine;

  /** The line to the run's coordinator, opened once per worker (every instance of a run has the same). */
  private line = (url: string): RunLine => {
    if (!this.runLine) {
      const call = coordinatorCall(url);
      this.runLine = { call, pacer: leasingPacer(coordinatedTurns(call), coordinatedShown(call)) };
    }
    return this.runLine;
  };

  of(instance: number): TargetSession {
    let session = this.open.get(instance);
    if (!session) {
      session = openSession(instance, this.line);
      this.open.set(instance, session);
    }
    return session;
  }

  async close(): Promise<void> {
    for (const session of this.open.values()) await session.close();
  }
}
