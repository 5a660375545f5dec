// Default options of a sandbox instance and the parsing of option values given as text (CLI flags).
import type { Environment, SandboxOptions } from './context.ts';
import { type FaultName, faults } from './faults/index.ts';

export const defaultRateLimit = { limit: 2000, windowSeconds: 60 } as const;

/** Options as callers give them: any subset; faults by name (validated, unknown names throw). */
export type SandboxInput = Omit<Partial<SandboxOptions>, 'faults'> & { faults?: Iterable<string> };

export function resolveOptions({ faults: names, ...options }: SandboxInput = {}): SandboxOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    environment: 'non-production',
    seed: 1,
    rateLimit: { ...defaultRateLimit },
    logRequests: false,
    now: () => new Date(),
    ...options,
    faults: faultSet(names ?? []),
  };
}

export const faultNames = Object.keys(faults) as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(faults, name);
}

/** The faults named; throws listing the valid names when one is unknown. */
export function faultSet(names: Iterable<string>): Set<FaultName> {
  const list = [...names];
  const unknown = list.filter((name) => !isFaultName(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown fault(s): ${unknown.join(', ')}. Valid faults:\n  ${faultNames.join('\n  ')}`);
  }
  return new Set(list as FaultName[]);
}

/** Parses `a,b,c` (see faultSet). */
export function parseFaultList(text: string): Set<FaultName> {
  return faultSet(
    text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

/** Parses `N/SECONDS` (e.g. 2000/60). */
export function parseRateLimit(text: string): SandboxOptions['rateLimit'] {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || limit < 1 || windowSeconds < 1)
    throw new Error(`--rate-limit expects N/SECONDS, got '${text}'`);
  return { limit, windowSeconds };
}

export function parseEnvironment(text: string): Environment {
  if (text === 'production' || text === 'non-production') return text;
  throw new Error(`--environment expects production or non-production, got '${text}'`);
}
