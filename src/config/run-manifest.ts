// The run manifest: a run's configuration, resolved once by global setup (src/runner/run/global-setup.ts) and
// written as JSON in the run's reports directory; a worker reads it as it opens a session with a target
// (src/worker/session/target-session.ts), the reporter when the run ends, and neither resolves it again. It
// holds no secret: each is a reference to the variable that holds it, read again where it is used.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processVariable } from '../run-state/process-variables.ts';
import type { Capability } from './capabilities.ts';
import { configOf, runOptions } from './config.ts';
import { merged, type SecretRef, secretRef, secretValue, type VariableLayer } from './environment.ts';
import { secretsOf } from './secrets.ts';
import type { ReadStoreExpiries, RunOptions, SuiteConfig } from './suite-config.ts';

export interface RunManifest {
  /** When the run started (its global setup). */
  startedAt: string;
  /** The file the run counts its requests in (src/http/request-counter.ts). */
  requestLog: string;
  /** The file the run counts its unanswered requests in (src/http/request-counter.ts). */
  unansweredLog: string;
  /** The run's coordinator (src/runner/coordinator/server.ts): rate budgets and the memo of shared reads. */
  coordinatorUrl: string;
  /** The part of the resolution the Playwright configuration uses (playwright.config.ts). */
  options: RunOptions;
  /** The suite's configuration; on disk, each secret is a SecretRef. */
  config: SuiteConfig;
}

/** What global setup knows of the run before it resolves any target. */
export type RunFacts = Pick<RunManifest, 'startedAt' | 'requestLog' | 'unansweredLog' | 'coordinatorUrl'>;

/** The manifest as written: capabilities as a list, each secret a SecretRef (read back when parsed). */
type WrittenManifest = Omit<RunManifest, 'config'> & {
  config: Omit<SuiteConfig, 'capabilities'> & { capabilities: Capability[] };
};

/** The manifest's file name in the reports directory. */
export const RUN_MANIFEST_FILE = 'run-manifest.json';

/** The manifest of a target instance of the run (src/config/run-plan.ts): the first is the run's own. */
export const instanceManifestPath = (runManifestPath: string, instance: number): string =>
  instance === 0
    ? runManifestPath
    : join(
        dirname(runManifestPath),
        '.run',
        basename(runManifestPath).replace(/\.json$/, `.${instance}.json`),
      );

/** Resolves a run from its variables, first layer first (global setup; the target's layers on top). */
export function resolveRun(
  layers: readonly VariableLayer[],
  facts: RunFacts,
  readStore: ReadStoreExpiries,
): RunManifest {
  const env = merged(layers);
  return { ...facts, options: runOptions(env), config: configOf(env, readStore) };
}

/** The manifest as JSON: every secret replaced by a reference to where the layers hold it. */
export function manifestJson(manifest: RunManifest, layers: readonly VariableLayer[]): string {
  const secrets = new Set(secretsOf(manifest.config));
  const text = JSON.stringify(
    manifest,
    (_key, value: unknown) => {
      if (value instanceof Set) return [...value];
      if (typeof value !== 'string' || !secrets.has(value)) return value;
      const ref = secretRef(layers, value);
      // A secret only global setup knows could not reach the workers without being written: refuse it.
      if (!ref) throw new Error('a secret of the configuration comes from no variable the workers can read');
      return ref;
    },
    2,
  );
  return `${text}\n`;
}

/** Writes the run's manifest, once: a second write fails. */
export function writeRunManifest(
  path: string,
  manifest: RunManifest,
  layers: readonly VariableLayer[],
): void {
  writeFileSync(path, manifestJson(manifest, layers), { flag: 'wx' });
}

const isSecretRef = (value: unknown): value is SecretRef =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SecretRef).secret === 'string' &&
  Object.keys(value).every((key) => ['secret', 'file', 'key'].includes(key));

/** A manifest from its JSON, each secret read again from where it was read at the start of the run. */
export function parseRunManifest(text: string): RunManifest {
  const manifest = JSON.parse(text, (_key, value: unknown) =>
    isSecretRef(value) ? secretValue(value) : value,
  ) as WrittenManifest;
  return deepFreeze({
    ...manifest,
    config: { ...manifest.config, capabilities: new Set(manifest.config.capabilities) },
  });
}

/**
 * The manifest of the run this process belongs to, or of one of its target instances; undefined outside a
 * run (`playwright merge-reports`).
 */
export function currentRunManifest(instance = 0): RunManifest | undefined {
  const path = processVariable('CONFORMANCE_RUN_MANIFEST');
  return path ? parseRunManifest(readFileSync(instanceManifestPath(path, instance), 'utf8')) : undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
