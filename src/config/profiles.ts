// What each profile may run, enforced in code: a test whose tags its profile forbids is skipped with
// the reason (whatever --grep asked for), and the HTTP guard refuses requests the profile forbids.
import type { RequestGuard } from '../http/api-client.ts';
import type { Environment, Profile, SuiteConfig } from './suite-config.ts';

/** Tags that say what a test does; requirement IDs are the upper-case tags. */
export const Tags = {
  smoke: '@smoke', // part of the read-only smoke profile
  write: '@write', // changes data on the target
  destructive: '@destructive', // destroys something the run cannot restore (a grant)
  nonProduction: '@nonprod', // only meaningful in a non-production environment
  productionCheck: '@production-check', // the one non-production check that runs in production
  rateLimit: '@ratelimit', // bursts to 429
  partner: '@partner',
  property: '@property', // property-based, many requests
  isolated: '@isolated', // runs after everything else, one at a time
} as const;

/** Matches a test whose tags include exactly `tag` (not a longer tag it prefixes). */
export const tagGrep = (tag: string): string => `${tag}(?=\\s|$)`;

/**
 * The isolated tests a profile runs, in two disjoint shares: the 429 burst (a rate-limit window) and the
 * rest, the revocations (the stated webhook wait). On the embedded sandbox each share of a lone target gets
 * an instance and a lane of its own, so the two waits overlap. None for smoke, which refuses them all.
 */
export const isolatedShares = (profile: Profile): RegExp[] =>
  profile === 'smoke'
    ? []
    : [new RegExp(tagGrep(Tags.rateLimit)), new RegExp(`^(?!.*${tagGrep(Tags.rateLimit)})`)];

interface Rule {
  tag: string;
  reason: string;
}

const SMOKE_FORBIDS: Rule[] = [
  { tag: Tags.write, reason: 'the smoke profile is read-only: this test writes data' },
  { tag: Tags.destructive, reason: 'the smoke profile is read-only: this test revokes a grant' },
  { tag: Tags.nonProduction, reason: 'the smoke profile is read-only: this test generates data' },
  { tag: Tags.rateLimit, reason: 'the smoke profile never bursts to 429' },
  { tag: Tags.property, reason: 'the smoke profile is request-budgeted: property tests send many requests' },
];

const CERTIFICATION_FORBIDS: Rule[] = [
  { tag: Tags.rateLimit, reason: 'certification does not load a shared environment with a 429 burst' },
];

/** Why a test with these tags must not run under this configuration, or undefined when it may. */
export function refusal(
  config: Pick<SuiteConfig, 'profile' | 'environment'>,
  tags: readonly string[],
): string | undefined {
  if (config.profile === 'smoke' && !tags.includes(Tags.smoke))
    return 'not part of the smoke profile (no @smoke tag)';
  const rules =
    config.profile === 'smoke'
      ? SMOKE_FORBIDS
      : config.profile === 'certification'
        ? CERTIFICATION_FORBIDS
        : [];
  const rule = rules.find(({ tag }) => tags.includes(tag));
  if (rule) return rule.reason;
  if (
    config.environment === 'production' &&
    tags.includes(Tags.nonProduction) &&
    !tags.includes(Tags.productionCheck)
  ) {
    return 'the target is a production environment: non-production operations are not called';
  }
  return undefined;
}

/**
 * Non-GET requests that change nothing on the target: the partner token request, and every step of the user
 * sign-in (its login and consent posts wherever they go, the token request), which its client marks.
 */
const SAFE_WRITES = [/\/v2\/partner\/token$/];
const TEST_DATA = /\/v2\/partner\/development\/add-test-data$/;

export class ProfileViolation extends Error {}

/** The HTTP-level guard: the second line of defence behind `refusal`. */
export function requestGuard(
  profile: Profile,
  environment: Environment,
  tags: readonly string[],
): RequestGuard {
  return (method, url, _token, signIn) => {
    const readOnly =
      method === 'GET' ||
      method === 'HEAD' ||
      signIn === true ||
      SAFE_WRITES.some((pattern) => pattern.test(url.pathname));
    if (profile === 'smoke' && !readOnly) {
      throw new ProfileViolation(
        `smoke profile refused ${method} ${url.pathname}: the smoke profile is read-only`,
      );
    }
    if (
      environment === 'production' &&
      TEST_DATA.test(url.pathname) &&
      !tags.includes(Tags.productionCheck)
    ) {
      throw new ProfileViolation(
        `refused ${method} ${url.pathname}: test-data generation is never called in production`,
      );
    }
  };
}
