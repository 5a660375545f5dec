// How deep a run reads, from the rate limit of user data (configured, announced, learned from the target's
// answers, or assumed: plannedRate), the run's budget (CONFORMANCE_RUN_TIMEOUT_S) and the profile: the generated
// cases per operation, how far a reference walk reaches, the windows walked at small page sizes, the samples of
// single reads and foreign ids, the spread of the finite domains (./input-classes.ts). A limit the deep plan
// meets without waiting (or none) gets it; a production limit the budgeted plan. No plan reads the whole history.
import { announcedRateLimit } from '../http/rate-limit-headers.ts';
import type { FigureSource, ShownRate } from '../http/rate-window.ts';
import type { RequestTally } from '../http/request-counter.ts';
import { type CollectionClasses, classesOf, plannedClasses } from './input-classes.ts';
import { type Profile, profileRow } from './profiles.ts';

/** A limit of a credential: `limit` requests per `windowSeconds`. */
export interface AnnouncedLimit {
  limit: number;
  windowSeconds: number;
}

/** The limit an answer's headers announce, with a window; undefined when they announce none. */
export function limitAnnounced(headers: Record<string, string>): AnnouncedLimit | undefined {
  const { limit, windowSeconds } = announcedRateLimit(headers) ?? {};
  return limit !== undefined && windowSeconds !== undefined ? { limit, windowSeconds } : undefined;
}

/**
 * Seconds `requests` take at `limit`: each window's worth goes at once, then the run waits for the next
 * window (the first window's share needs no wait).
 */
export const secondsAtLimit = (requests: number, { limit, windowSeconds }: AnnouncedLimit): number =>
  Math.max(0, Math.ceil(requests / limit) - 1) * windowSeconds;

/** The rate a plan is made for, each figure with where it came from. */
export interface PlannedRate extends AnnouncedLimit {
  limitSource: FigureSource;
  windowSource: FigureSource;
  /** How the window was learned, why it was assumed, or what the target contradicted, in words. */
  how: string;
}

/** The window assumed for a limit announced without one, until an answer shows it: a minute, production's. */
export const ASSUMED_WINDOW_S = 60;

const perSecond = ({ limit, windowSeconds }: AnnouncedLimit) => limit / windowSeconds;

/** The target's own rate: its limit, and its window announced, learned, or (not yet shown) assumed. */
function targetRate(shown: ShownRate): PlannedRate {
  if (shown.window)
    return {
      limit: shown.limit,
      windowSeconds: shown.window.seconds,
      limitSource: 'announced',
      windowSource: shown.window.source,
      how: shown.window.how,
    };
  const windowSeconds = Math.max(ASSUMED_WINDOW_S, shown.atLeast);
  return {
    limit: shown.limit,
    windowSeconds,
    limitSource: 'announced',
    windowSource: 'assumed',
    how:
      shown.atLeast > ASSUMED_WINDOW_S
        ? `no answer has opened a window yet: at least ${shown.atLeast} s by the resets announced`
        : `no answer has shown it yet: a minute, the window most limits count in${shown.atLeast > 0 ? ` (at least ${shown.atLeast} s by the resets announced)` : ''}`,
  };
}

/**
 * The rate of user data a plan is made for: CONFORMANCE_RATE_LIMIT governs, unless the target's answers
 * contradict it with a stricter one (fewer requests a second; a lower limit while its window is not yet
 * shown); without it, what the target shows. Undefined: no limit, configured or announced.
 */
export function plannedRate(configured?: AnnouncedLimit, shown?: ShownRate): PlannedRate | undefined {
  const target = shown && targetRate(shown);
  if (!configured) return target;
  const given: PlannedRate = {
    ...configured,
    limitSource: 'configured',
    windowSource: 'configured',
    how: 'CONFORMANCE_RATE_LIMIT',
  };
  if (!target) return given;
  const contradicted = `the target's answers contradict CONFORMANCE_RATE_LIMIT=${configured.limit}/${configured.windowSeconds}`;
  if (target.windowSource !== 'assumed' && perSecond(target) < perSecond(configured))
    return { ...target, how: `${contradicted} (window ${target.windowSource}: ${target.how})` };
  if (target.windowSource === 'assumed' && target.limit < configured.limit)
    return {
      ...given,
      limit: target.limit,
      limitSource: 'announced',
      how: `${contradicted}: it announces ${target.limit}`,
    };
  return given;
}

/**
 * CONFORMANCE_RATE_LIMIT where it names the OAuth client's limit: on the embedded sandbox (`own-rate-limit`)
 * it names the small limit of the 429 burst's own token instead (src/runner/run/global-setup.ts).
 */
export const configuredLimit = (config: {
  capabilities: ReadonlySet<string>;
  rateLimit?: AnnouncedLimit;
}): PlannedRate | undefined =>
  config.capabilities.has('own-rate-limit') ? undefined : plannedRate(config.rateLimit);

/** `100 per 60 s (limit announced, window learned: …)`: a planned rate and where its figures came from. */
export function describeRate(rate: PlannedRate): string {
  const sources =
    rate.limitSource === rate.windowSource
      ? `${rate.limitSource}`
      : `limit ${rate.limitSource}, window ${rate.windowSource}`;
  const how = rate.how === 'CONFORMANCE_RATE_LIMIT' ? ' by CONFORMANCE_RATE_LIMIT' : `: ${rate.how}`;
  return `${rate.limit} per ${rate.windowSeconds} s (${sources}${how})`;
}

export type Depth = 'deep' | 'budgeted' | 'smoke';

/** What a run of some depth sends, and how deep its reads go. */
interface DepthSettings {
  /** Generated requests per operation of the robustness properties (after their boundary cases). */
  propertyCases: number;
  /** Pages of the maximum size a reference walk reads at most (the newest records). */
  referencePages: number;
  /** Records per operation the single-read samples spread over. */
  singleReadSamples: number;
  /** Another user's ids each single read is tried with. */
  foreignIds: number;
  /** How the finite domains reach the collections: each one whole, a rotating share, or none. */
  classes: 'whole' | 'rotated' | 'none';
  /**
   * Requests of a ci-gate run on the embedded sandbox's data, measured (`npm run bench`; the tests' own tallies
   * over five rotations, 2026-12-02: budgeted 525 to 536 user-data, deep 1,326 and 1,343).
   */
  requests: RequestTally;
}

const SETTINGS: Readonly<Record<Depth, DepthSettings>> = {
  deep: {
    propertyCases: 100,
    referencePages: 20,
    singleReadSamples: 5,
    foreignIds: 2,
    classes: 'whole',
    requests: { user: 1335, partner: 195, other: 100 },
  },
  budgeted: {
    propertyCases: 6,
    referencePages: 8,
    singleReadSamples: 3,
    foreignIds: 1,
    classes: 'rotated',
    requests: { user: 530, partner: 195, other: 100 },
  },
  smoke: {
    propertyCases: 0,
    referencePages: 2,
    singleReadSamples: 1,
    foreignIds: 0,
    classes: 'none',
    requests: { user: 24, partner: 2, other: 3 },
  },
};

/** The longest the deep plan may wait on an announced limit before the budgeted plan is chosen instead. */
const DEEP_WAIT_S = 15;
/** The deep plan's generated cases take at most this share of the run's budget, at NOMINAL_REQUEST_S each. */
const PROPERTY_SHARE = 0.1;
const NOMINAL_REQUEST_S = 0.05;
/** The operations the robustness properties generate requests for (tests/conformance/robustness.spec.ts). */
const GENERATED_OPERATIONS = 9;

export interface DepthPlan extends DepthSettings {
  depth: Depth;
  /** Why this depth, in a sentence `doctor` and the report print. */
  why: string;
  /** Which share of each finite domain each collection gets this run (./input-classes.ts). */
  rotation: number;
  /** The rate of user data the plan was made for (undefined: no limit, or a depth that reads none). */
  rate?: PlannedRate;
}

export interface DepthInputs {
  profile: Profile;
  runTimeoutSeconds: number;
  /** The rate of user data (plannedRate); undefined when none is configured or announced. */
  rate?: PlannedRate;
  /** The rotation of the finite domains: the UTC day of a gate run, the seed of an exploring one. */
  rotation: number;
  /** CONFORMANCE_DEPTH: `auto`, or a depth pinned whatever the target announces. */
  pinned?: 'auto' | 'deep' | 'budgeted';
}

/** The plan of a run. */
export function depthPlan({
  profile,
  runTimeoutSeconds,
  rate,
  rotation,
  pinned = 'auto',
}: DepthInputs): DepthPlan {
  const own = profileRow(profile).depth;
  if (own !== 'auto') return { ...SETTINGS[own.fixed], depth: own.fixed, why: own.why, rotation };
  const ofRate = rate ? { rate } : {};
  if (pinned === 'budgeted')
    return {
      ...SETTINGS.budgeted,
      depth: 'budgeted',
      why: 'CONFORMANCE_DEPTH=budgeted pins it',
      rotation,
      ...ofRate,
    };
  const deepUser = SETTINGS.deep.requests.user;
  const waits = rate && pinned === 'auto' ? secondsAtLimit(deepUser, rate) : 0;
  if (rate && waits > DEEP_WAIT_S)
    return {
      ...SETTINGS.budgeted,
      depth: 'budgeted',
      why: `the rate limit is ${describeRate(rate)}: the deep plan's ~${deepUser} user-data requests would wait ${Math.round(waits / 60)} min for it`,
      rotation,
      rate,
    };
  // Within a wall-time bound: the generated cases get a share of the run's budget.
  const affordable = Math.floor(
    (runTimeoutSeconds * PROPERTY_SHARE) / NOMINAL_REQUEST_S / GENERATED_OPERATIONS,
  );
  const cases = Math.max(SETTINGS.budgeted.propertyCases, Math.min(SETTINGS.deep.propertyCases, affordable));
  const limitWords =
    pinned === 'deep'
      ? 'CONFORMANCE_DEPTH=deep pins it'
      : rate
        ? `the rate limit is ${describeRate(rate)}, which the deep plan's ~${deepUser} user-data requests fit without waiting`
        : 'no rate limit is configured or announced';
  return {
    ...SETTINGS.deep,
    propertyCases: cases,
    depth: 'deep',
    why: `${limitWords}${cases < SETTINGS.deep.propertyCases ? `; CONFORMANCE_RUN_TIMEOUT_S=${runTimeoutSeconds} affords ${cases} generated cases per operation` : ''}`,
    rotation,
    ...ofRate,
  };
}

/** The classes collection `index` gets under `plan`. */
export const collectionClasses = (plan: DepthPlan, index: number): CollectionClasses =>
  classesOf(index, plan.rotation, plan.classes);

/** What the plan sends and why, in lines (`doctor` prints them; the report's depth section too). */
export function describePlan(plan: DepthPlan): string[] {
  return [
    `Depth: ${plan.depth}, because ${plan.why}`,
    `  ${plan.propertyCases} generated cases per operation; reference walks of at most ${plan.referencePages} pages of 25; ${plan.singleReadSamples} single reads per operation; ${plan.foreignIds} foreign id(s)`,
    ...plannedClasses(plan.rotation, plan.classes).map((line) => `  ${line}`),
    ...(plan.classes === 'rotated'
      ? [`  rotation ${plan.rotation}: each collection meets every value within a few runs`]
      : []),
  ];
}

const DAY_MS = 86_400_000;

/** The rotation of a run: the UTC day it started (a gate), or its seed (an exploring run). */
export const rotationOf = (startedAt: string, explore: boolean, seed: number): number =>
  explore ? Math.abs(seed) : Math.floor(Date.parse(startedAt) / DAY_MS);
