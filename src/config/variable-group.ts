// Variables that must be set together (a login, a partner's credentials, the webhook receiver).
import { ConfigError } from './config-error.ts';
import type { Env, VariableName } from './variables.ts';

/** The group's values by key when all are set, undefined when none is; a partial group is a ConfigError. */
export function group<K extends string>(
  env: Env,
  variables: Record<K, VariableName>,
): Record<K, string> | undefined {
  const entries = Object.entries(variables) as [K, VariableName][];
  const set = entries.filter(([, variable]) => env[variable]);
  if (set.length === 0) return undefined;
  const missing = entries.find(([, variable]) => !env[variable]);
  if (missing) {
    throw new ConfigError(missing[1], `is required with ${set.map(([, variable]) => variable).join(', ')}`);
  }
  return Object.fromEntries(entries.map(([key, variable]) => [key, env[variable]])) as Record<K, string>;
}
