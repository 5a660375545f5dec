// Shared state and options of one running sandbox instance. The user-data side (sandbox/user, sandbox/oauth)
// and the partner side (sandbox/partner) both receive this object; nothing else is global.
import type { FaultName } from './faults/index.ts';

export type Environment = 'production' | 'non-production';

export interface SandboxOptions {
  host: string;
  port: number;
  environment: Environment;
  /** Seed of the deterministic data generator. */
  seed: number;
  rateLimit: { limit: number; windowSeconds: number };
  faults: ReadonlySet<FaultName>;
  logRequests: boolean;
  /** Clock; injectable so tests can move time (token expiry, rate-limit windows). */
  now: () => Date;
}

export interface WebhookSender {
  /** Sends a signed webhook (header Service-Signed) to every URL registered by `owner`. */
  send(owner: string, signingSecret: string, event: unknown): void;
}

export interface SandboxContext {
  options: SandboxOptions;
  fault(name: FaultName): boolean;
  webhooks: WebhookSender;
}
