// Prepares a run: clears old results, starts the embedded target (sandbox or Prism) unless a base URL is
// configured, and resolves the configuration once, before any request, into the run manifest
// (src/config/run-manifest.ts) that the workers and the reporter read: one per target instance of the
// run's plan (src/config/run-plan.ts), the first being the run's own. The started target's URLs and
// credentials are layers of that resolution, over or under the environment's; the process environment is
// left as it was, but for the manifest's path. Then the preflight (src/runner/run/preflight.ts): a problem it
// finds, or an error of the setup itself, is the run error (src/run-state/run-error.ts), which stops every
// test at once and makes the verdict ERROR, the reports still written. All but the reading of the variables
// goes on while Playwright loads the spec files and starts the workers, whose first tests wait for it
// (src/run-state/setup-finished.ts).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { storeExpiries } from '../../auth/expired-tokens.ts';
import { runJournal } from '../../auth/sign-in-journal.ts';
import { runOptions } from '../../config/config.ts';
import { fileVariables } from '../../config/env-file.ts';
import { environmentLayers, merged, type VariableLayer } from '../../config/environment.ts';
import { isolatedShares } from '../../config/profiles.ts';
import {
  instanceManifestPath,
  RUN_MANIFEST_FILE,
  type RunFacts,
  resolveRun,
  writeRunManifest,
} from '../../config/run-manifest.ts';
import { type PlannedInstance, runPlan, runTargets, type TargetSpec } from '../../config/run-plan.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { drawnSeed } from '../../config/variable-parsers.ts';
import { type Env, read } from '../../config/variables.ts';
import { assembleHar } from '../../http/har-writer.ts';
import { setupRunError } from '../../protocol/run-errors.ts';
import { timed } from '../../run-state/phase-log.ts';
import { handManifestToWorkers } from '../../run-state/process-variables.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import { type RunError, recordRunError } from '../../run-state/run-error.ts';
import { markSetupFinished } from '../../run-state/setup-finished.ts';
import { startRunCoordinator } from '../coordinator/server.ts';
import { MATRIX_REPORT, REPORT_FILES } from '../report/report-files.ts';
import { preflight } from './preflight.ts';
import { startPrism } from './prism.ts';
import { startRunWebhookReceiver } from './run-webhook-receiver.ts';

/**
 * The embedded sandbox's rate limit, per client, high enough that the run never waits on it: the workers
 * share one OAuth client, and a run sends about 2,000 requests in a few seconds (at 500 per 2 s each
 * conformance worker waited out two or three windows). The 429 burst asks for a token whose own limit is
 * BURST_RATE_LIMIT (sandbox_rate_limit), small enough for any machine to exceed within its window, so the
 * verdict does not depend on the machine's speed.
 */
const EMBEDDED_RATE_LIMIT = { limit: 20_000, windowSeconds: 2 };
// A window of seconds: a loaded machine exceeds 20 well within it, wherever in a window the burst begins.
const BURST_RATE_LIMIT = { limit: 20, windowSeconds: 3 };
const EMBEDDED_RATE_LIMIT_HEADERS = 'Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset';
const PRISM_CREDENTIALS = fileURLToPath(new URL('./prism-credentials.env', import.meta.url));

function clearOldResults(): void {
  for (const name of [
    'allure-results',
    'allure',
    ...REPORT_FILES,
    MATRIX_REPORT,
    RUN_MANIFEST_FILE,
    '.run',
  ]) {
    rmSync(reportPath(name), { recursive: true, force: true });
  }
  mkdirSync(reportPath('.run'), { recursive: true });
  writeFileSync(reportPath('.run/requests.log'), '');
  writeFileSync(reportPath('.run/unanswered.log'), '');
}

/**
 * An exploring run's variables (CONFORMANCE_EXPLORE=1, or CONFORMANCE_SEED=random): a seed drawn for this run
 * unless one is named; undefined for a run that does not explore.
 */
function explorationOf(env: Env): Record<string, string> | undefined {
  const seed = env.CONFORMANCE_SEED;
  if (seed !== 'random' && !read(env, 'CONFORMANCE_EXPLORE')) return undefined;
  return {
    CONFORMANCE_EXPLORE: '1',
    CONFORMANCE_SEED: seed && seed !== 'random' ? seed : String(drawnSeed()),
  };
}

/** The part of the run's time kept for its reports: no wait for the rate limit may reach into it. */
const REPORTING_MARGIN_S = 20;

/** A target the run started, and the variables of the run once it runs (first layer first). */
interface StartedTarget {
  layers: VariableLayer[];
  stop: () => Promise<void>;
}

const fileLayer = (file: string): VariableLayer => ({ variables: fileVariables(file), file });

/** A target's own variables (a matrix entry's faults, variants and env), over the run's. */
function targetLayers(target: TargetSpec, layers: readonly VariableLayer[]): VariableLayer[] {
  const own = {
    ...target.env,
    CONFORMANCE_SANDBOX_FAULTS: target.faults.join(','),
    CONFORMANCE_SANDBOX_VARIANTS: target.variants.join(','),
  };
  return target.name === '' ? [...layers] : [{ variables: own, computed: true }, ...layers];
}

async function startPrismTarget(layers: readonly VariableLayer[]): Promise<StartedTarget> {
  const prism = await startPrism('mock');
  const target = { CONFORMANCE_TARGET: 'prism', CONFORMANCE_BASE_URL: prism.baseUrl };
  return {
    layers: [{ variables: target, computed: true }, fileLayer(PRISM_CREDENTIALS), ...layers],
    stop: prism.close,
  };
}

/**
 * The layers of a run on the started sandbox: its URLs over everything; what it documents about its 429s under
 * the process environment (a variant's team says otherwise); its credentials under the process environment (and
 * the target's own), over the env file.
 */
function sandboxLayers(
  target: Record<string, string>,
  layers: readonly VariableLayer[],
  credentialsPath: string,
): VariableLayer[] {
  const documented = { CONFORMANCE_RATE_LIMIT_HEADERS: EMBEDDED_RATE_LIMIT_HEADERS };
  const fileAt = layers.findIndex((layer) => layer.file !== undefined);
  const [above, below] = fileAt < 0 ? [layers, []] : [layers.slice(0, fileAt), layers.slice(fileAt)];
  return [
    { variables: target, computed: true },
    ...above,
    { variables: documented, computed: true },
    fileLayer(credentialsPath),
    ...below,
  ];
}

async function startSandboxTarget(
  layers: readonly VariableLayer[],
  dataEpoch: number,
  withTwin: boolean,
): Promise<StartedTarget> {
  // Only a run on the embedded sandbox loads it, in a thread of its own (its start and its answers off the
  // thread that loads the spec files and dispatches the tests).
  const { startSandboxInThread: startSandbox } = await import('../../../sandbox/in-thread.ts');
  const { credentialsPath } = await import('../../../sandbox/credentials.ts');
  const env = merged(layers);
  const production = env.CONFORMANCE_ENVIRONMENT === 'production';
  const options = {
    port: 0,
    rateLimit: EMBEDDED_RATE_LIMIT,
    dataEpoch,
    faults: read(env, 'CONFORMANCE_SANDBOX_FAULTS'),
    variants: read(env, 'CONFORMANCE_SANDBOX_VARIANTS'),
  };
  const sandbox = await startSandbox({
    ...options,
    environment: production ? 'production' : 'non-production',
  });
  // A non-production sandbox has a production twin, with the same faults, for the one check that needs one
  // (not an isolated test).
  const twin =
    production || !withTwin ? undefined : await startSandbox({ ...options, environment: 'production' });
  const target = {
    CONFORMANCE_TARGET: 'sandbox',
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_RATE_LIMIT: `${BURST_RATE_LIMIT.limit}/${BURST_RATE_LIMIT.windowSeconds}`,
    ...(twin ? { CONFORMANCE_PRODUCTION_BASE_URL: twin.baseUrl } : {}),
  };
  return {
    layers: sandboxLayers(target, layers, credentialsPath),
    stop: async () => {
      await twin?.close();
      await sandbox.close();
    },
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

/** An instance as started: its configuration, the layers it was resolved from, and who started its target. */
interface StartedInstance {
  config: SuiteConfig;
  layers: VariableLayer[];
  startedByRun: boolean;
}

/** Starts (off the sandbox: resolves) one instance of the plan and writes its manifest. */
async function startInstance(
  index: number,
  { target, role }: PlannedInstance,
  runLayers: readonly VariableLayer[],
  facts: RunFacts,
  stops: (() => Promise<void>)[],
): Promise<StartedInstance> {
  let layers = targetLayers(target, runLayers);
  const env = merged(layers);
  const started = env.CONFORMANCE_BASE_URL
    ? undefined
    : await (env.CONFORMANCE_TARGET === 'prism'
        ? startPrismTarget(layers)
        : startSandboxTarget(layers, Date.parse(facts.startedAt), role === 'conformance'));
  if (started) {
    stops.push(started.stop);
    layers = started.layers;
  }
  // Resolved (and so validated) before any request; again behind the proxy, which changes the URLs.
  let manifest = resolveRun(layers, facts, storeExpiries);
  const proxy = await startValidatingProxy(manifest.config, layers);
  if (proxy) {
    stops.unshift(proxy.stop);
    layers = proxy.layers;
    manifest = resolveRun(layers, facts, storeExpiries);
  }
  const webhookReceiver = await startRunWebhookReceiver(manifest.config);
  if (webhookReceiver) stops.push(webhookReceiver);
  writeRunManifest(instanceManifestPath(reportPath(RUN_MANIFEST_FILE), index), manifest, layers);
  return { config: manifest.config, layers, startedByRun: started !== undefined };
}

/**
 * Records the run error: every test then stops at its first fixture, not verified. One worker is enough for
 * that, and each more costs its start (seconds of CPU): Playwright reads `workers` when it starts them.
 */
function stopRun(config: FullConfig, runError: RunError): void {
  recordRunError(runError);
  config.workers = 1;
}

/** The run's variables, read once for every instance: the environment and its file, an exploring run's seed over them. */
function runVariables(): VariableLayer[] {
  // An exploring run's seed is drawn here, once: every target of the run explores with the same seed.
  const given = environmentLayers();
  const exploring = explorationOf(merged(given));
  if (exploring) console.log(`Exploring with seed ${exploring.CONFORMANCE_SEED} (CONFORMANCE_SEED)`);
  return exploring ? [{ variables: exploring, computed: true }, ...given] : given;
}

/** The instances the run's plan names, and its time budget, from the run's variables. */
function planOf(runLayers: readonly VariableLayer[]) {
  const environment = merged(runLayers);
  const { embeddedSandbox, profile, runTimeoutSeconds } = runOptions(environment);
  const { instances } = runPlan(runTargets(environment), embeddedSandbox, isolatedShares(profile));
  return { instances, runTimeoutSeconds };
}

/**
 * Starts the coordinator and each target instance, then the preflight of the run's own target (a problem it
 * finds is recorded as the run error); what is stopped at the end goes into `stops`. Gives the HAR to assemble.
 */
async function startTargets(
  config: FullConfig,
  { instances, runTimeoutSeconds }: ReturnType<typeof planOf>,
  runLayers: readonly VariableLayer[],
  startedAt: Date,
  stops: (() => Promise<void>)[],
) {
  // A shard shares the target's clients with the other shards: it takes its part of their rate budgets.
  const coordinator = await startRunCoordinator(
    startedAt.getTime() + Math.max(runTimeoutSeconds - REPORTING_MARGIN_S, 1) * 1000,
    config.shard ? 1 / config.shard.total : 1,
  );
  stops.push(coordinator.close);
  const facts: RunFacts = {
    startedAt: startedAt.toISOString(),
    requestLog: reportPath('.run/requests.log'),
    unansweredLog: reportPath('.run/unanswered.log'),
    coordinatorUrl: coordinator.url,
  };
  const started: StartedInstance[] = [];
  for (const [index, instance] of instances.entries()) {
    const one = await timed('target start', () => startInstance(index, instance, runLayers, facts, stops));
    coordinator.nameClients(one.config, instance.target.name);
    started.push(one);
  }
  // A target the run started answers to the suite's own configuration: any 4xx of its sign-in is its own.
  for (const instance of started)
    if (instance.startedByRun) runJournal(instance.config.authUrl).ownTarget(instance.config.authUrl);
  // The run's own target (the first instance): a matrix's others are embedded sandboxes like it.
  const [own] = started;
  const problem =
    own && (await preflight(own.config, own.layers, own.startedByRun, facts.requestLog, coordinator.pacer));
  if (problem) recordRunError(problem);
  return own?.config.recordHar;
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  clearOldResults();
  const startedAt = new Date();
  // Named before it is written, so that the phases of the setup are the run's too.
  handManifestToWorkers(reportPath(RUN_MANIFEST_FILE));
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (let stop = stops.shift(); stop; stop = stops.shift()) await stop();
  };
  // Until the env file is read, the environment alone (where a configuration error is then set).
  let runLayers: VariableLayer[] = [{ variables: process.env }];
  let plan: ReturnType<typeof planOf>;
  try {
    // Read before Playwright starts a worker: a configuration error needs one worker only.
    runLayers = runVariables();
    plan = planOf(runLayers);
  } catch (error) {
    stopRun(config, setupRunError(error, runLayers));
    markSetupFinished();
    return async () => undefined;
  }
  // The rest goes on while Playwright loads the spec files and starts the workers (src/run-state/
  // setup-finished.ts): the coordinator, each target instance, the preflight. Its run error, if any, stops
  // every test at its first fixture.
  const setup = timed('global setup', () => startTargets(config, plan, runLayers, startedAt, stops))
    .catch(async (error: unknown) => {
      await stopAll();
      // The tests see the run error and stop at once; the reporter writes the reports with verdict ERROR.
      recordRunError(setupRunError(error, runLayers));
      return undefined;
    })
    .finally(markSetupFinished);
  return async () => {
    const har = await setup;
    await timed('teardown', stopAll);
    // Every worker has ended: its part of the HAR is whole.
    if (har) console.log(`Recorded ${await assembleHar(har)} exchange(s) as HAR: ${har}`);
  };
}
