// What a worker keeps for a target instance its tests talk to: the instance's run manifest and configuration,
// one HTTP client (throttled by the target's rate-limit headers, counted in the run's request log), the user
// tokens and the partner tokens. A worker of a matrix run (the mutation and variant gates) serves every
// target of the run, so it keeps one session per instance, opened by the first test that needs it and
// closed with the worker (src/suite/fixtures.ts).
import { UserTokenPool } from '../auth/user-token-pool.ts';
import { type SuiteConfig, secretsOf } from '../config/config.ts';
import { requestGuard } from '../config/profiles.ts';
import { currentRunManifest, type RunManifest } from '../config/run-manifest.ts';
import { ApiClient } from '../http/api-client.ts';
import { registerSecret } from '../http/redact.ts';
import { RequestCounter } from '../http/request-counter.ts';
import { Throttle } from '../http/throttle.ts';
import { nodeTransport } from '../http/transport.ts';
import { appendToRecording } from '../recording/har-writer.ts';

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
  close(): Promise<void>;
}

function openSession(instance: number): TargetSession {
  const manifest = currentRunManifest(instance);
  if (!manifest)
    throw new Error('no run manifest: run the suite with playwright.config.ts, whose global setup writes it');
  const { config } = manifest;
  // Redaction stays process-wide, so that every text the worker writes is covered: fed from the manifest.
  for (const secret of secretsOf(config)) registerSecret(secret);
  const transport = nodeTransport();
  const api = new ApiClient(transport, {
    baseUrl: config.baseUrl,
    throttle: new Throttle(),
    requests: new RequestCounter(
      manifest.requestLog,
      config.profile === 'smoke' ? config.requestBudget : undefined,
    ),
    guard: requestGuard(config.profile, config.environment, []),
    timeoutMs: config.requestTimeoutMs,
    // Session-level reads (shared datasets, tokens) are recorded as they happen.
    onExchange: config.recordHar ? (exchange) => appendToRecording([exchange]) : undefined,
  });
  const tokenPool = new UserTokenPool(api, config);
  const shared = new Map<string, unknown>();
  return {
    manifest,
    config,
    api,
    tokenPool,
    partnerTokens: new Map(),
    shared: <Value>(key: string, create: () => Value): Value => {
      if (!shared.has(key)) shared.set(key, create());
      return shared.get(key) as Value;
    },
    close: async () => {
      await tokenPool.close();
      transport.dispose();
    },
  };
}

/** A worker's sessions, one per target instance, by index. */
export class TargetSessions {
  private readonly open = new Map<number, TargetSession>();

  of(instance: number): TargetSession {
    let session = this.open.get(instance);
    if (!session) {
      session = openSession(instance);
      this.open.set(instance, session);
    }
    return session;
  }

  async close(): Promise<void> {
    for (const session of this.open.values()) await session.close();
  }
}
