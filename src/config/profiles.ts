// What each profile may run, enforced in code: a test whose tags its profile forbids is skipped with
// the reason (whatever --grep asked for), and the HTTP guard refuses requests the profile forbids. Each
// profile is one row of PROFILES; every rule of the suite that depends on the profile reads its row.
import type { RequestGuard } from '../http/api-client.ts';

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
  isolated: '@isolated', // after everything else (or beside it on instances of its own), one at a time a share
} as const;

/** Matches a test whose tags include exactly `tag` (not a longer tag it prefixes). */
export const tagGrep = (tag: string): string => `${tag}(?=\\s|$)`;

interface Rule {
  tag: string;
  reason: string;
}

/** What a profile is: one row per profile. */
export interface ProfileRow {
  /** Only tests with this tag are part of the profile (undefined: every test); a selection by design. */
  ownTag?: string;
  /** Tests with one of these tags are skipped, with the reason. */
  forbids: readonly Rule[];
  /** The HTTP guard refuses every request that may change data. */
  readOnly: boolean;
  /** The run's requests to the API count against CONFORMANCE_REQUEST_BUDGET. */
  requestBudget: boolean;
  /** `whole`: a narrowed run of it is never let through by CONFORMANCE_ALLOW_INCOMPLETE; `any`: it may be. */
  selections: 'any' | 'whole';
  /** The report carries a digest of the certified results. */
  digest: boolean;
  /** The depth plan: the profile's own (and why), or `auto`, resolved from the target (src/config/depth-plan.ts). */
  depth: { fixed: 'smoke'; why: string } | 'auto';
  /** Runs the isolated tests (429 burst, revocations). */
  isolated: boolean;
  /** CONFORMANCE_WORKERS' default. */
  workers: number;
  /**
   * CONFORMANCE_WORKERS' default on a target the run did not start (CONFORMANCE_BASE_URL): its workers mostly
   * wait for the target's answers, so more of them overlap the waits (src/config/run-plan.ts).
   */
  waitingWorkers: number;
}

const SMOKE_FORBIDS: Rule[] = [
  { tag: Tags.write, reason: 'the smoke profile is read-only: this test writes data' },
  { tag: Tags.destructive, reason: 'the smoke profile is read-only: this test revokes a grant' },
  { tag: Tags.nonProduction, reason: 'the smoke profile is read-only: this test generates data' },
  { tag: Tags.rateLimit, reason: 'the smoke profile never bursts to 429' },
  { tag: Tags.property, reason: 'the smoke profile is request-budgeted: property tests send many requests' },
];

const FULL = {
  readOnly: false,
  requestBudget: false,
  digest: false,
  depth: 'auto',
  isolated: true,
  workers: 2,
  waitingWorkers: 4,
} as const;

export const PROFILES = {
  'ci-gate': { ...FULL, forbids: [], selections: 'any' },
  certification: {
    ...FULL,
    forbids: [
      { tag: Tags.rateLimit, reason: 'certification does not load a shared environment with a 429 burst' },
    ],
    // A certification covers its whole profile or certifies nothing.
    selections: 'whole',
    digest: true,
  },
  smoke: {
    ownTag: Tags.smoke,
    forbids: SMOKE_FORBIDS,
    readOnly: true,
    requestBudget: true,
    selections: 'any',
    digest: false,
    depth: {
      fixed: 'smoke',
      why: 'the smoke profile spends its request budget on one read of every read operation',
    },
    isolated: false,
    // A smoke run's few requests do not pay for a second worker's start.
    workers: 1,
    waitingWorkers: 1,
  },
} as const satisfies Record<string, ProfileRow>;

export type Profile = keyof typeof PROFILES;
export const PROFILE_NAMES = Object.keys(PROFILES) as Profile[];
/** The profile a run without CONFORMANCE_PROFILE has: the first of the table. */
export const DEFAULT_PROFILE: Profile = 'ci-gate';

/** The profiles' names as a sentence lists them: `ci-gate, certification or smoke` (`quote` marks each). */
export const profileList = (quote = (name: string) => name): string =>
  `${PROFILE_NAMES.slice(0, -1).map(quote).join(', ')} or ${quote(PROFILE_NAMES.at(-1) ?? '')}`;

/** The row of a profile; of a name read from a report, undefined when it names none. */
export function profileRow(profile: Profile): ProfileRow;
export function profileRow(name: string): ProfileRow | undefined;
export function profileRow(name: string): ProfileRow | undefined {
  return Object.hasOwn(PROFILES, name) ? PROFILES[name as Profile] : undefined;
}

/**
 * The isolated tests a profile runs, in two disjoint shares: the 429 burst (a rate-limit window) and the
 * rest, the revocations (the stated webhook wait). On the embedded sandbox each share of a lone target gets
 * an instance and a lane of its own, so the two waits overlap. None for a profile that refuses them all.
 */
export const isolatedShares = (profile: Profile): RegExp[] =>
  profileRow(profile).isolated
    ? [new RegExp(tagGrep(Tags.rateLimit)), new RegExp(`^(?!.*${tagGrep(Tags.rateLimit)})`)]
    : [];

const PRODUCTION_REFUSAL = 'the target is a production environment: non-production operations are not called';
const notInProfile = (profile: string, ownTag: string) =>
  `not part of the ${profile} profile (no ${ownTag} tag)`;

/**
 * The reasons a profile (by name, as a report states it) gives for leaving a test out: a requirement whose
 * tests it left out for one of them is omitted by design, not unrun.
 */
export function profileReasons(profile: string): string[] {
  const row = profileRow(profile);
  if (!row) return [];
  return [
    ...(row.ownTag ? [notInProfile(profile, row.ownTag)] : []),
    ...row.forbids.map(({ reason }) => reason),
    PRODUCTION_REFUSAL,
  ];
}

/** Why a test with these tags must not run under this configuration, or undefined when it may. */
export function refusal(
  config: { profile: Profile; environment: string },
  tags: readonly string[],
): string | undefined {
  const row = profileRow(config.profile);
  if (row.ownTag && !tags.includes(row.ownTag)) return notInProfile(config.profile, row.ownTag);
  const rule = row.forbids.find(({ tag }) => tags.includes(tag));
  if (rule) return rule.reason;
  if (
    config.environment === 'production' &&
    tags.includes(Tags.nonProduction) &&
    !tags.includes(Tags.productionCheck)
  ) {
    return PRODUCTION_REFUSAL;
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
export function requestGuard(profile: Profile, environment: string, tags: readonly string[]): RequestGuard {
  return (method, url, _token, signIn) => {
    const readOnly =
      method === 'GET' ||
      method === 'HEAD' ||
      signIn === true ||
      SAFE_WRITES.some((pattern) => pattern.test(url.pathname));
    if (profileRow(profile).readOnly && !readOnly) {
      throw new ProfileViolation(
        `${profile} profile refused ${method} ${url.pathname}: the ${profile} profile is read-only`,
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
