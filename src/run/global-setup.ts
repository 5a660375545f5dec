// Prepares a run: clears old results, starts the embedded target (sandbox or Prism) unless a base URL is
// configured, and resolves the configuration once, before any request, into the run manifest
// (src/config/run-manifest.ts) that the workers and the reporter read. The started target's URLs and
// credentials are layers of that resolution, over or under the environment's; the process environment is
// left as it was, but for the manifest's path.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import { credentialsPath } from '../../sandbox/credentials.ts';
import { listOf, type SuiteConfig } from '../config/config.ts';
import {
  environmentLayers,
  fileVariables,
  handManifestToWorkers,
  merged,
  type VariableLayer,
} from '../config/environment.ts';
import { RUN_MANIFEST_FILE, resolveRun, writeRunManifest } from '../config/run-manifest.ts';
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
const PRISM_CREDENTIALS = fileURLToPath(new URL('./prism-credentials.env', import.meta.url));

function clearOldResults(): void {
  for (const name of [
    'allure-results',
    'allure',
    'conformance.json',
    'conformance.md',
    'junit.xml',
    RUN_MANIFEST_FILE,
    '.run',
  ]) {
    rmSync(reportPath(name), { recursive: true, force: true });
  }
  mkdirSync(reportPath('.run'), { recursive: true });
  writeFileSync(reportPath('.run/requests.log'), '');
}

/** A target the run started, and the variables of the run once it runs (first layer first). */
interface StartedTarget {
  layers: VariableLayer[];
  stop: () => Promise<void>;
}

const fileLayer = (file: string): VariableLayer => ({ variables: fileVariables(file), file });

async function startEmbeddedTarget(layers: readonly VariableLayer[]): Promise<StartedTarget | undefined> {
  const env = merged(layers);
  if (env.CONFORMANCE_BASE_URL) return undefined;
  if (env.CONFORMANCE_TARGET === 'prism') {
    const prism = await startPrism('mock');
    const target = { CONFORMANCE_TARGET: 'prism', CONFORMANCE_BASE_URL: prism.baseUrl };
    return {
      layers: [{ variables: target, computed: true }, fileLayer(PRISM_CREDENTIALS), ...layers],
      stop: prism.close,
    };
  }
  const sandbox = await startSandbox({
    port: 0,
    environment: env.CONFORMANCE_ENVIRONMENT === 'production' ? 'production' : 'non-production',
    rateLimit: EMBEDDED_RATE_LIMIT,
    faults: listOf(env, 'CONFORMANCE_SANDBOX_FAULTS'),
    variants: listOf(env, 'CONFORMANCE_SANDBOX_VARIANTS'),
  });
  const target = {
    CONFORMANCE_TARGET: 'sandbox',
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_RATE_LIMIT: `${BURST_RATE_LIMIT.limit}/${BURST_RATE_LIMIT.windowSeconds}`,
    CONFORMANCE_RATE_LIMIT_HEADERS: EMBEDDED_RATE_LIMIT_HEADERS,
  };
  // The sandbox's credentials: under the process environment, over the env file.
  const [environment, ...envFile] = layers;
  return {
    layers: [
      { variables: target, computed: true },
      ...(environment ? [environment] : []),
      fileLayer(credentialsPath),
      ...envFile,
    ],
    stop: sandbox.close,
  };
}

/** CONFORMANCE_PRISM_PROXY=1: the suite talks to Prism, which forwards to the target and validates both ways. */
async function startValidatingProxy(
  config: SuiteConfig,
  layers: readonly VariableLayer[],
): Promise<StartedTarget | undefined> {
  if (!config.prismProxy) return undefined;
  const proxy = await startPrism('proxy', config.baseUrl);
  // Prism serves the document's paths at its root and forwards them under the upstream's /developer prefix.
  const target = { CONFORMANCE_BASE_URL: proxy.baseUrl, CONFORMANCE_AUTH_URL: config.authUrl };
  return { layers: [{ variables: target, computed: true }, ...layers], stop: proxy.close };
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  clearOldResults();
  const facts = { startedAt: new Date().toISOString(), requestLog: reportPath('.run/requests.log') };
  const stops: (() => Promise<void>)[] = [];
  try {
    let layers = environmentLayers();
    const target = await startEmbeddedTarget(layers);
    if (target) {
      stops.push(target.stop);
      layers = target.layers;
    }
    // Resolved (and so validated) before any request; again behind the proxy, which changes the URLs.
    let manifest = resolveRun(layers, facts);
    const proxy = await startValidatingProxy(manifest.config, layers);
    if (proxy) {
      stops.unshift(proxy.stop);
      layers = proxy.layers;
      manifest = resolveRun(layers, facts);
    }
    writeRunManifest(reportPath(RUN_MANIFEST_FILE), manifest, layers);
    handManifestToWorkers(reportPath(RUN_MANIFEST_FILE));
  } catch (error) {
    for (const stop of stops) await stop();
    throw error;
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
