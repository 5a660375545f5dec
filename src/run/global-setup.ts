// Prepares a run: clears old results, starts the embedded target (sandbox or Prism) unless a base URL
// is configured, validates the configuration before any request, and sets up the request counter.
// Workers inherit process.env, so the target's URLs and credentials reach them through it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import type { FullConfig } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import { credentialsPath } from '../../sandbox/credentials.ts';
import { loadConfig, resolveEnvironment } from '../config/config.ts';
import { startPrism } from './prism.ts';
import { reportPath } from './reports-dir.ts';

/**
 * The embedded sandbox's rate limit, per client, high enough for the run; the 429 burst asks for a token
 * whose own limit is BURST_RATE_LIMIT (sandbox_rate_limit), small enough for any machine to exceed
 * within its window, so the verdict does not depend on the machine's speed.
 */
export const EMBEDDED_RATE_LIMIT = { limit: 500, windowSeconds: 2 };
const BURST_RATE_LIMIT = { limit: 40, windowSeconds: 3 };
const EMBEDDED_RATE_LIMIT_HEADERS = 'Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset';

function clearOldResults(): void {
  for (const name of [
    'allure-results',
    'allure',
    'conformance.json',
    'conformance.md',
    'junit.xml',
    '.run',
  ]) {
    rmSync(reportPath(name), { recursive: true, force: true });
  }
  mkdirSync(reportPath('.run'), { recursive: true });
  const log = reportPath('.run/requests.log');
  writeFileSync(log, '');
  process.env.CONFORMANCE_REQUEST_LOG = log;
  process.env.CONFORMANCE_STARTED_AT = new Date().toISOString();
}

async function startEmbeddedTarget(): Promise<(() => Promise<void>) | undefined> {
  const env = resolveEnvironment();
  if (env.CONFORMANCE_BASE_URL) return undefined;
  if (env.CONFORMANCE_TARGET === 'prism') {
    const prism = await startPrism('mock');
    // Prism accepts any credential it can see; placeholders let the partner tests reach it.
    Object.assign(process.env, {
      CONFORMANCE_TARGET: 'prism',
      CONFORMANCE_BASE_URL: prism.baseUrl,
      CONFORMANCE_PARTNER_A_CLIENT_ID: 'prism-partner-a',
      CONFORMANCE_PARTNER_A_CLIENT_SECRET: 'prism-partner-a-secret',
    });
    return prism.close;
  }
  const sandbox = await startSandbox({
    port: 0,
    environment: env.CONFORMANCE_ENVIRONMENT === 'production' ? 'production' : 'non-production',
    rateLimit: EMBEDDED_RATE_LIMIT,
    faults: (env.CONFORMANCE_SANDBOX_FAULTS ?? '').split(',').filter(Boolean),
    variants: (env.CONFORMANCE_SANDBOX_VARIANTS ?? '').split(',').filter(Boolean),
  });
  Object.assign(process.env, {
    ...parseEnv(readFileSync(credentialsPath, 'utf8')),
    ...withoutUndefined(process.env),
    CONFORMANCE_TARGET: 'sandbox',
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_RATE_LIMIT: `${BURST_RATE_LIMIT.limit}/${BURST_RATE_LIMIT.windowSeconds}`,
    CONFORMANCE_RATE_LIMIT_HEADERS: EMBEDDED_RATE_LIMIT_HEADERS,
  });
  return sandbox.close;
}

function withoutUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** CONFORMANCE_PRISM_PROXY=1: the suite talks to Prism, which forwards to the target and validates both ways. */
async function startValidatingProxy(): Promise<(() => Promise<void>) | undefined> {
  const env = resolveEnvironment();
  if (env.CONFORMANCE_PRISM_PROXY !== '1' || !env.CONFORMANCE_BASE_URL) return undefined;
  const upstream = env.CONFORMANCE_BASE_URL;
  const proxy = await startPrism('proxy', upstream);
  Object.assign(process.env, {
    // Prism serves the document's paths at its root and forwards them under the upstream's /developer prefix.
    CONFORMANCE_BASE_URL: proxy.baseUrl,
    CONFORMANCE_AUTH_URL: env.CONFORMANCE_AUTH_URL || new URL(upstream).origin,
    CONFORMANCE_UPSTREAM_URL: upstream,
  });
  return proxy.close;
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  clearOldResults();
  const stops: (() => Promise<void>)[] = [];
  try {
    const stopTarget = await startEmbeddedTarget();
    if (stopTarget) stops.push(stopTarget);
    loadConfig();
    const stopProxy = await startValidatingProxy();
    if (stopProxy) stops.unshift(stopProxy);
  } catch (error) {
    for (const stop of stops) await stop();
    throw error;
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
