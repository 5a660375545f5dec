// Default options of a sandbox instance and the parsing of option values given as text (CLI flags).
import type { Environment, SandboxOptions } from './context.ts';
import { type FaultName, faults } from './faults/index.ts';
import { LOGIN_PAGES, type LoginPage } from './oauth/login-pages.ts';
import type { RateLimitPolicy } from './rate-limit.ts';
import { MIN_HISTORY_DAYS } from './user/generator.ts';
import { type VariantName, variants } from './variants.ts';

export const defaultRateLimit: RateLimitPolicy = { limit: 2000, windowSeconds: 60 };

/**
 * Options as callers give them: any subset; faults and variants by name (validated, unknown names throw);
 * the rate limit as one policy or a list of them.
 */
export type SandboxInput = Omit<Partial<SandboxOptions>, 'faults' | 'variants' | 'rateLimit'> & {
  faults?: Iterable<string>;
  variants?: Iterable<string>;
  rateLimit?: RateLimitPolicy | readonly RateLimitPolicy[];
};

export function resolveOptions({
  faults: names,
  variants: variantNames,
  rateLimit = defaultRateLimit,
  ...options
}: SandboxInput = {}): SandboxOptions {
  // The realistic sign-in has pages of its own.
  if (options.realisticLogin && (options.loginPage ?? 'plain') !== 'plain')
    throw new Error(`the realistic sign-in has its own pages: no login page ${options.loginPage} with it`);
  const pageVariants = [...(variantNames ?? [])].filter((name) => /^(checkbox|iframe)-consent/.test(name));
  if (options.realisticLogin && pageVariants.length > 0)
    throw new Error(`the realistic sign-in has its own pages: no variant ${pageVariants.join(', ')} with it`);
  if (
    (options.captchaFromSignIn !== undefined || options.captchaFor !== undefined) &&
    (options.realisticLogin || (options.loginPage ?? 'plain') !== 'plain')
  )
    throw new Error('only the plain login page asks for a captcha');
  return {
    host: '127.0.0.1',
    port: 0,
    environment: 'non-production',
    seed: 1,
    rateLimitHeaders: 'default',
    logRequests: false,
    now: () => new Date(),
    realisticLogin: false,
    loginPage: 'plain',
    tokenLifetimeSeconds: 3600,
    userActivityMs: 0,
    historyDays: MIN_HISTORY_DAYS,
    ...options,
    rateLimit: 'limit' in rateLimit ? [rateLimit] : [...rateLimit],
    faults: faultSet(names ?? []),
    variants: variantSet(variantNames ?? []),
  };
}

/** Parses a login page's name (sandbox/oauth/login-pages.ts). */
export function parseLoginPage(text: string): LoginPage {
  const found = LOGIN_PAGES.find((name) => name === text);
  if (!found) throw new Error(`--login-page expects one of ${LOGIN_PAGES.join(', ')}, got '${text}'`);
  return found;
}

export const faultNames = Object.keys(faults) as FaultName[];
export const variantNames = Object.keys(variants) as VariantName[];

/** The names of a catalogue given; throws listing the valid names when one is unknown. */
function nameSet<Name extends string>(
  kind: 'fault' | 'variant',
  valid: readonly Name[],
  names: Iterable<string>,
) {
  const list = [...names];
  const unknown = list.filter((name) => !(valid as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown ${kind}(s): ${unknown.join(', ')}. Valid ${kind}s:\n  ${valid.join('\n  ')}`);
  }
  return new Set(list as Name[]);
}

/** The faults named; throws listing the valid names when one is unknown. */
export const faultSet = (names: Iterable<string>): Set<FaultName> => nameSet('fault', faultNames, names);
/** The variants named; throws listing the valid names when one is unknown. */
export const variantSet = (names: Iterable<string>): Set<VariantName> =>
  nameSet('variant', variantNames, names);

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** Parses `a,b,c` (see faultSet). */
export const parseFaultList = (text: string): Set<FaultName> => faultSet(splitList(text));
/** Parses `a,b,c` (see variantSet). */
export const parseVariantList = (text: string): Set<VariantName> => variantSet(splitList(text));

/** Parses `N/SECONDS[,N/SECONDS...]` (e.g. 2000/60, or 100/60,10000/86400): one policy each. */
export function parseRateLimit(text: string): RateLimitPolicy[] {
  return text.split(',').map((item) => {
    const match = /^(\d+)\/(\d+)$/.exec(item.trim());
    const limit = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]);
    if (!match || limit < 1 || windowSeconds < 1)
      throw new Error(`--rate-limit expects N/SECONDS[,N/SECONDS...], got '${text}'`);
    return { limit, windowSeconds };
  });
}

export function parseRateLimitHeaders(text: string): SandboxOptions['rateLimitHeaders'] {
  if (text === 'default' || text === 'production' || text === 'windowless') return text;
  throw new Error(`--rate-limit-headers expects default, production or windowless, got '${text}'`);
}

export function parseEnvironment(text: string): Environment {
  if (text === 'production' || text === 'non-production') return text;
  throw new Error(`--environment expects production or non-production, got '${text}'`);
}
