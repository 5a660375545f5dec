// The suite's configuration: which target, which credentials, which profile. Resolved once per run, from
// the environment (CONFORMANCE_*, ./variables.ts) and optionally an env file, into the run manifest
// (./run-manifest.ts); every problem is reported by variable name before any request is sent.
import { resolve } from 'node:path';
import { authSettings } from './auth-settings.ts';
import { capabilitiesOf } from './capabilities.ts';
import { ConfigError } from './config-error.ts';
import { resolveEnvironment } from './environment.ts';
import type { ReadStoreExpiries, RunOptions, SuiteConfig } from './suite-config.ts';
import { group } from './variable-group.ts';
import { type Env, read } from './variables.ts';
import { webhookSettings } from './webhook-settings.ts';

/** The configuration of a process environment (default: this process's) and the env file it names. */
export const loadConfig = (rawEnv: Env | undefined, readStore: ReadStoreExpiries): SuiteConfig =>
  configOf(resolveEnvironment(rawEnv), readStore);

/** The base URL, required: the embedded targets' is set by global setup. */
function baseUrlOf(env: Env): string {
  const baseUrl = read(env, 'CONFORMANCE_BASE_URL');
  if (baseUrl) return baseUrl;
  throw new ConfigError(
    'CONFORMANCE_BASE_URL',
    read(env, 'CONFORMANCE_TARGET') === 'remote'
      ? 'is required for a remote target (the service root, with the /developer prefix)'
      : 'is not set: the embedded target was not started (run the suite with `npm run conformance`)',
  );
}

/** The user login and the partners, each all or none of its variables, and what they must not contradict. */
function credentials(env: Env) {
  const userLogin = group(env, {
    clientId: 'CONFORMANCE_CLIENT_ID',
    clientSecret: 'CONFORMANCE_CLIENT_SECRET',
    redirectUri: 'CONFORMANCE_REDIRECT_URI',
    username: 'CONFORMANCE_USER',
    password: 'CONFORMANCE_PASSWORD',
  });
  const userTokens = read(env, 'CONFORMANCE_USER_TOKENS');
  if (read(env, 'CONFORMANCE_TARGET') !== 'prism' && !userLogin && !userTokens) {
    throw new ConfigError(
      'CONFORMANCE_CLIENT_ID',
      'and the other user OAuth variables (CONFORMANCE_CLIENT_SECRET, CONFORMANCE_REDIRECT_URI, CONFORMANCE_USER, CONFORMANCE_PASSWORD) are required, or pre-issued tokens in CONFORMANCE_USER_TOKENS',
    );
  }
  const partnerA = group(env, {
    clientId: 'CONFORMANCE_PARTNER_A_CLIENT_ID',
    clientSecret: 'CONFORMANCE_PARTNER_A_CLIENT_SECRET',
  });
  const partnerB = group(env, {
    clientId: 'CONFORMANCE_PARTNER_B_CLIENT_ID',
    clientSecret: 'CONFORMANCE_PARTNER_B_CLIENT_SECRET',
  });
  if (partnerB && !partnerA) {
    throw new ConfigError(
      'CONFORMANCE_PARTNER_A_CLIENT_ID',
      'is required when partner B is configured (ownership tests need both)',
    );
  }
  if (partnerA && partnerB && partnerA.clientId === partnerB.clientId) {
    throw new ConfigError(
      'CONFORMANCE_PARTNER_B_CLIENT_ID',
      'must name a different partner from CONFORMANCE_PARTNER_A_CLIENT_ID',
    );
  }
  const secondUser = group(env, { username: 'CONFORMANCE_USER_B', password: 'CONFORMANCE_PASSWORD_B' });
  return { userLogin, secondUser, userTokens, partnerA, partnerB };
}

/** The configuration of resolved variables (./run-manifest.ts resolves them once per run). */
export function configOf(env: Env, readStore: ReadStoreExpiries): SuiteConfig {
  const baseUrl = baseUrlOf(env);
  const target = read(env, 'CONFORMANCE_TARGET');
  const prismProxy = read(env, 'CONFORMANCE_PRISM_PROXY');
  if (prismProxy && target === 'prism') {
    throw new ConfigError(
      'CONFORMANCE_PRISM_PROXY',
      'validates exchanges with a real target; it cannot be combined with CONFORMANCE_TARGET=prism',
    );
  }
  const users = credentials(env);
  const authUrl = read(env, 'CONFORMANCE_AUTH_URL');
  const owners = { baseUrl, authUrl, userLogin: users.userLogin, partnerA: users.partnerA };
  const config: Omit<SuiteConfig, 'capabilities'> = {
    target,
    baseUrl,
    authUrl,
    environment: read(env, 'CONFORMANCE_ENVIRONMENT'),
    profile: read(env, 'CONFORMANCE_PROFILE'),
    ...users,
    productionBaseUrl: read(env, 'CONFORMANCE_PRODUCTION_BASE_URL'),
    partnerRequisitionIds: read(env, 'CONFORMANCE_PARTNER_REQUISITION_IDS'),
    signingSecret: read(env, 'CONFORMANCE_PARTNER_A_SIGNING_SECRET'),
    webhooks: webhookSettings(env),
    requestBudget: read(env, 'CONFORMANCE_REQUEST_BUDGET'),
    requestTimeoutMs: read(env, 'CONFORMANCE_REQUEST_TIMEOUT_MS'),
    unansweredBudget: read(env, 'CONFORMANCE_UNANSWERED_BUDGET'),
    propertySeed: read(env, 'CONFORMANCE_SEED'),
    depth: read(env, 'CONFORMANCE_DEPTH'),
    explore: read(env, 'CONFORMANCE_EXPLORE'),
    failureStore: resolve(read(env, 'CONFORMANCE_FAILURE_STORE')),
    insufficientScopeStatuses: read(env, 'CONFORMANCE_ACCEPT_403') ? [401, 403] : [401],
    rateLimit: read(env, 'CONFORMANCE_RATE_LIMIT'),
    rateLimitHeaders: read(env, 'CONFORMANCE_RATE_LIMIT_HEADERS'),
    rateLimitBudget: read(env, 'CONFORMANCE_RATE_LIMIT_BUDGET'),
    expectationsFile: read(env, 'CONFORMANCE_EXPECTATIONS'),
    signingKeyFile: read(env, 'CONFORMANCE_SIGNING_KEY_FILE'),
    prismProxy,
    strict: read(env, 'CONFORMANCE_STRICT'),
    allowIncomplete: read(env, 'CONFORMANCE_ALLOW_INCOMPLETE'),
    latencyBudgets: read(env, 'CONFORMANCE_LATENCY_BUDGET'),
    recordHar: read(env, 'CONFORMANCE_RECORD_HAR'),
    baseline: read(env, 'CONFORMANCE_BASELINE'),
    failOn: read(env, 'CONFORMANCE_FAIL_ON'),
    sandboxFaults: read(env, 'CONFORMANCE_SANDBOX_FAULTS'),
    sandboxVariants: read(env, 'CONFORMANCE_SANDBOX_VARIANTS'),
    auth: authSettings(env, owners, readStore),
  };
  return { ...config, capabilities: capabilitiesOf(target, config) };
}

/** The run options of resolved variables: the Playwright configuration's part of the resolution. */
export const runOptions = (env: Env): RunOptions => ({
  profile: read(env, 'CONFORMANCE_PROFILE'),
  grep: read(env, 'CONFORMANCE_GREP'),
  workers: read(env, 'CONFORMANCE_WORKERS'),
  runTimeoutSeconds: read(env, 'CONFORMANCE_RUN_TIMEOUT_S'),
  embeddedSandbox: !env.CONFORMANCE_BASE_URL && env.CONFORMANCE_TARGET !== 'prism',
});
