// The one module that reads the process environment for CONFORMANCE_* variables. A run resolves them
// once, in global setup, into its run manifest (src/config/run-manifest.ts); everything else takes the
// manifest, or an Env handed to it. Secrets never enter the manifest: it names the variable and where it
// was read (the environment, or a file of variables), and whoever needs the value reads it here again.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { assertNotEmpty } from './empty-values.ts';
import { fileVariables, readEnvFile, variablesOf } from './env-file.ts';
import { assertKnown } from './unknown-variables.ts';
import type { Env } from './variables.ts';

/**
 * Variables from one source. A value is read again from its source (a secret, by a worker), so a layer is
 * the process environment (no `file`), a file of variables, or values global setup computed (`computed`:
 * the started target's URLs), which are never a secret's source.
 */
export interface VariableLayer {
  variables: Env;
  file?: string;
  computed?: boolean;
}

/**
 * What a command gives a process it starts against a target the run starts itself (the embedded sandbox, or
 * Prism with CONFORMANCE_TARGET=prism): CONFORMANCE_BASE_URL unset (a child process does not inherit a
 * variable given as undefined), never set empty, which a run refuses.
 */
export const EMBEDDED_TARGET: Env = { CONFORMANCE_BASE_URL: undefined };

/**
 * The process environment over the env file it names (CONFORMANCE_ENV_FILE), first layer first; a
 * CONFORMANCE_* name the suite does not know, or one set empty, in either, is a ConfigError.
 */
export function environmentLayers(env: Env = process.env): VariableLayer[] {
  for (const [name, value] of Object.entries(env)) {
    assertKnown(name, 'the environment');
    assertNotEmpty(name, value, 'set in the environment');
  }
  const file = env.CONFORMANCE_ENV_FILE;
  if (file === undefined) return [{ variables: env }];
  const path = resolve(file);
  if (!existsSync(path))
    throw new ConfigError('CONFORMANCE_ENV_FILE', `names a file that does not exist: ${path}`);
  const entries = readEnvFile(path);
  for (const { name, value, line } of entries) {
    assertKnown(name, `${path}:${line}`);
    assertNotEmpty(name, value, `set in ${path}, line ${line}`);
  }
  return [{ variables: env }, { variables: variablesOf(entries), file: path }];
}

/** The layer that gives a variable its value: the first where it is set and not empty. */
export const layerOf = (layers: readonly VariableLayer[], variable: string): VariableLayer | undefined =>
  layers.find((layer) => !!layer.variables[variable]);

/** Layers merged into one set of variables: each takes its value from its first layer that sets it. */
export function merged(layers: readonly VariableLayer[]): Env {
  const names = new Set(layers.flatMap((layer) => Object.keys(layer.variables)));
  return Object.fromEntries(
    [...names].flatMap((name) => {
      const value = layerOf(layers, name)?.variables[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** Merges the env file named by CONFORMANCE_ENV_FILE under the process environment (which wins). */
export const resolveEnvironment = (env: Env = process.env): Env => merged(environmentLayers(env));

/** A secret in the run manifest: the variable that holds it, and where; a JSON member of it with `key`. */
export interface SecretRef {
  secret: string;
  /** The file of variables it was read from; absent: the process environment. */
  file?: string;
  /** A member of the variable's JSON object (a token of CONFORMANCE_USER_TOKENS). */
  key?: string;
}

/** A secret's value, read again from where the manifest says it was read. */
export function secretValue(ref: SecretRef): string {
  const raw = ref.file ? fileVariables(ref.file)[ref.secret] : process.env[ref.secret];
  const value = raw && ref.key !== undefined ? (JSON.parse(raw) as Record<string, unknown>)[ref.key] : raw;
  if (typeof value !== 'string' || value === '')
    throw new ConfigError(
      ref.secret,
      `is no longer set in ${ref.file ?? 'the environment'}, where the run read it at its start`,
    );
  return value;
}

/**
 * Where a secret value can be read again: the first re-readable layer whose variable holds it, whole or as
 * a member of a JSON object. Undefined when only a computed layer holds it.
 */
export function secretRef(layers: readonly VariableLayer[], value: string): SecretRef | undefined {
  for (const layer of layers.filter((layer) => !layer.computed)) {
    for (const [name, raw] of Object.entries(layer.variables)) {
      if (!raw || !name.startsWith('CONFORMANCE_') || layerOf(layers, name) !== layer) continue;
      const file = layer.file ? { file: layer.file } : {};
      if (raw === value) return { secret: name, ...file };
      const key = jsonMemberHolding(raw, value);
      if (key !== undefined) return { secret: name, ...file, key };
    }
  }
  return undefined;
}

function jsonMemberHolding(raw: string, value: string): string | undefined {
  if (!raw.startsWith('{')) return undefined;
  try {
    const members = Object.entries(JSON.parse(raw) as Record<string, unknown>);
    return members.find(([, member]) => member === value)?.[0];
  } catch {
    return undefined;
  }
}
