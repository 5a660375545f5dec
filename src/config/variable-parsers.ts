// How a variable's value is read: each parser takes a value that is set (not empty) and the variable's
// name, and returns what the configuration holds or throws a ConfigError naming the variable.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isOperationId } from '../contract/operation-model.ts';
import { assertAlgorithm } from '../http/webhook-signature.ts';
import { ConfigError } from './config-error.ts';
import { normaliseScopes } from './scope-set.ts';

export type Parser<T> = (value: string, variable: string) => T;

export const text: Parser<string> = (value) => value;

/** A path, resolved against the working directory. */
export const path: Parser<string> = (value) => resolve(value);

/** A PEM file of an Ed25519 private key (PKCS#8, as `openssl genpkey -algorithm ed25519` writes it), resolved. */
export const ed25519KeyFile: Parser<string> = (value, variable) => {
  const file = resolve(value);
  let type: string | undefined;
  try {
    type = createPrivateKey(readFileSync(file)).asymmetricKeyType;
  } catch (error) {
    throw new ConfigError(variable, `must name a PEM file of a private key: ${(error as Error).message}`);
  }
  if (type !== 'ed25519')
    throw new ConfigError(variable, `must name an Ed25519 private key; ${file} holds ${type}`);
  return file;
};

/** A comma-separated list, items as written. */
export const list: Parser<string[]> = (value) => value.split(',').filter(Boolean);

/** A comma-separated list, items trimmed. */
export const trimmedList: Parser<string[]> = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export const oneOf =
  <T extends string>(allowed: readonly T[]): Parser<T> =>
  (value, variable) => {
    if (!(allowed as readonly string[]).includes(value))
      throw new ConfigError(variable, `must be one of ${allowed.join(', ')}; got "${value}"`);
    return value as T;
  };

/** An absolute URL, without a trailing slash. */
export const url: Parser<string> = (value, variable) => {
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(variable, `must be an absolute URL; got "${value}"`);
  }
};

export const positiveInteger: Parser<number> = (value, variable) => {
  if (!/^[1-9]\d*$/.test(value))
    throw new ConfigError(variable, `must be a positive integer; got "${value}"`);
  return Number(value);
};

/** The values a switch takes, in any case; any other is refused, never read as off. */
export const SWITCH_VALUES = { on: ['1', 'true', 'yes'], off: ['0', 'false', 'no'] } as const;

/** A switch: on or off, one of SWITCH_VALUES. */
export const flag: Parser<boolean> = (value, variable) => {
  const given = value.toLowerCase();
  if ((SWITCH_VALUES.on as readonly string[]).includes(given)) return true;
  if ((SWITCH_VALUES.off as readonly string[]).includes(given)) return false;
  throw new ConfigError(
    variable,
    `is a switch: ${SWITCH_VALUES.on.join(', ')} for on, ${SWITCH_VALUES.off.join(', ')} for off; got "${value}"`,
  );
};

/** The seed of every property unless CONFORMANCE_SEED says otherwise: a gate's verdict does not flip between runs. */
export const FIXED_PROPERTY_SEED = 20_261_125;

/** A seed for CONFORMANCE_SEED=random (global setup draws it once, for every target of the run). */
export const drawnSeed = (): number => Math.floor(Math.random() * 2 ** 31);

/** An integer seed, or `random`. */
export const seed: Parser<number> = (value, variable) => {
  if (value === 'random') return drawnSeed();
  if (!/^-?\d{1,10}$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new ConfigError(variable, `must be an integer or "random"; got "${value}"`);
  return Number(value);
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Comma-separated uuids, each once. */
export const uuidList: Parser<string[]> = (value, variable) => {
  const ids = trimmedList(value, variable);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined || ids.length === 0)
    throw new ConfigError(variable, `must be comma-separated uuids; got "${bad ?? value}"`);
  return [...new Set(ids)];
};

/** JSON mapping scope sets to tokens, keyed by normalised scope set. */
export const userTokens: Parser<Record<string, string>> = (value, variable) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(variable, 'must be JSON: {"read:cycles read:sleep": "<token>", ...}');
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Object.values(parsed).some((token) => typeof token !== 'string')
  )
    throw new ConfigError(variable, 'must map scope sets to token strings');
  return Object.fromEntries(
    Object.entries(parsed as Record<string, string>).map(([scopes, token]) => [
      normaliseScopes(scopes),
      token,
    ]),
  );
};

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
}

/** REQUESTS/SECONDS, e.g. 2000/60. */
export const rateLimit: Parser<RateLimitConfig> = (value, variable) => {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match) throw new ConfigError(variable, `must be REQUESTS/SECONDS, e.g. 2000/60; got "${value}"`);
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
};

/** HOST:PORT, the host an IPv6 address in brackets. */
export const listenAddress: Parser<{ host: string; port: number }> = (value, variable) => {
  const match = /^(\[[0-9a-f:.]+\]|[^:\s]+):(\d{1,5})$/i.exec(value);
  const port = Number(match?.[2]);
  if (!match?.[1] || port > 65535)
    throw new ConfigError(variable, `must be HOST:PORT, e.g. 0.0.0.0:8787; got "${value}"`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
};

/** An HMAC hash node:crypto knows, lower-cased. */
export const hashAlgorithm: Parser<string> = (value, variable) => {
  try {
    assertAlgorithm(value);
  } catch (error) {
    throw new ConfigError(variable, (error as Error).message);
  }
  return value.toLowerCase();
};

/** Per-operation p95 budgets in milliseconds; `*` applies to every operation not named. */
export type LatencyBudgets = Readonly<Record<string, number>>;

/** OPERATION=MS pairs, e.g. `listCycles=800,*=1500`. */
export const latencyBudgets: Parser<LatencyBudgets> = (value, variable) => {
  const budgets: Record<string, number> = {};
  for (const item of value.split(',').map((part) => part.trim())) {
    const match = /^([A-Za-z]+|\*)=([1-9]\d*)$/.exec(item);
    if (!match?.[1] || (match[1] !== '*' && !isOperationId(match[1])))
      throw new ConfigError(
        variable,
        `must be OPERATION=MS pairs (an operationId of specs/openapi.yaml or *, a positive integer of milliseconds), e.g. listCycles=800,*=1500; got "${item}"`,
      );
    budgets[match[1]] = Number(match[2]);
  }
  return budgets;
};
