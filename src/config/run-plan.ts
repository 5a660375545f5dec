// What one Playwright run runs against: its targets (by default one; a matrix of sandbox faults or variants
// for the mutation and variant gates, CONFORMANCE_MATRIX), the target instances, and projects of two roles:
// the tests that can share a target, and the isolated ones that disturb it. A matrix run registers each test
// once per target (src/worker/suite/test.ts), so one worker serves every target: a worker costs about 2 s of CPU to
// start, more than a mutant's few tests take. On the embedded sandbox the isolated tests get instances of
// their own and run beside the others; on any other target they share it: the revocations first, the others
// waiting for them, and the 429 burst last, once the others have ended (it spends the client's window).
// A pure function of the run options, so the Playwright configuration, global setup and the fixtures derive
// the same plan.
import { existsSync, readFileSync } from 'node:fs';
import { escapeRegExp } from '../text/escape-reg-exp.ts';
import { ConfigError } from './config-error.ts';
import { type Env, read } from './variables.ts';

/** A target of the run: on the embedded sandbox, an instance with these faults and variants. */
export interface TargetSpec {
  /** Empty for the run's one default target; a matrix names each. */
  name: string;
  faults: readonly string[];
  variants: readonly string[];
  /** The tests this target runs (a pattern over a test's own title and tags), on top of the run's selection. */
  grep?: string;
  /** Variables of this target alone, over the run's (e.g. the signature scheme a variant uses). */
  env: Readonly<Record<string, string>>;
  /**
   * Its tests mostly wait on its answers rather than compute (a late-answering variant): they run apart, on
   * the workers its own CONFORMANCE_WORKERS names (src/runner/run/waiting-targets.ts).
   */
  waits?: boolean;
}

export type ProjectRole = 'conformance' | 'isolated';

export interface PlannedProject {
  name: string;
  role: ProjectRole;
  /** The target instance each target's tests of the project talk to (an index into `instances`), by name. */
  instances: Record<string, number>;
  /** The project to run after this one, on the same instances. */
  teardown?: string;
  /** A lane's share of the isolated tests (a pattern over a test's title and tags). */
  share?: RegExp;
  /** Where its tests stand to the others sharing their target. */
  isolation: Isolation;
}

/** A target instance: global setup starts it (off the sandbox: resolves it) for the projects of a role. */
export interface PlannedInstance {
  target: TargetSpec;
  /** `isolated`: it serves the isolated tests alone. */
  role: ProjectRole;
}

export interface RunPlan {
  projects: PlannedProject[];
  /** Whether the isolated tests run in lanes of their own (one more worker per lane, mostly waiting). */
  isolatedBeside: boolean;
  /**
   * Whether the isolated tests share the target with the others: the revocations run first, and the others'
   * workers wait until they have ended, while the revocations' first sendings still settle; the 429 burst
   * waits until the others have ended (src/run-state/isolated-finished.ts).
   */
  isolatedFirst: boolean;
  /** The isolated projects beside the others (or first): each runs its share of the isolated tests one at a time. */
  isolatedLanes: number;
  /** The run's target instances, by index. */
  instances: PlannedInstance[];
}

/**
 * A matrix run's isolated tests on their own instances run in this many lanes, a project each, every target's
 * in one lane: one at a time for a target, as they must be, while the lanes' waits (the 429 window, the
 * stated webhook wait) overlap. One lane took the variant gate 77 s of waiting.
 */
const ISOLATED_LANES = 2;

/**
 * The run's plan: the target instances and the projects. On the embedded sandbox the isolated tests run
 * beside the rest, on instances of their own, unless the run's profile runs none of them (no shares): a lone
 * target's shares (profiles.ts `isolatedShares`) in a lane and on an instance each, a matrix's targets in
 * ISOLATED_LANES lanes, each target's isolated tests in one lane on one instance. On any other target they
 * share it, a share in each lane: the revocations first, so that a wait of theirs for an answer that never came
 * settles while the others run (the others' waits never disturb an isolated test); the 429 burst last, in
 * what is left of the client's window once the others have ended.
 */
export function runPlan(
  targets: readonly TargetSpec[],
  embeddedSandbox: boolean,
  isolatedShares: readonly RegExp[],
): RunPlan {
  if (isolatedShares.length === 0) return apartPlan(targets);
  return embeddedSandbox ? besidePlan(targets, isolatedShares) : sharedPlan(targets, isolatedShares);
}

/** The run's instances as the plan adds them: each added one's index. */
function instanceList() {
  const instances: PlannedInstance[] = [];
  const add = (target: TargetSpec, role: ProjectRole) => instances.push({ target, role }) - 1;
  return { instances, add };
}

/** An instance of each target for the others, by target name. */
function mainInstances(targets: readonly TargetSpec[], add: (t: TargetSpec, r: ProjectRole) => number) {
  const main: Record<string, number> = {};
  for (const target of targets) main[target.name] = add(target, 'conformance');
  return main;
}

/** No shares (the profile runs no isolated test): its lane, if any, comes after the others, apart. */
function apartPlan(targets: readonly TargetSpec[]): RunPlan {
  const { instances, add } = instanceList();
  const main = mainInstances(targets, add);
  const lane = { name: laneName(0), role: 'isolated', instances: main, isolation: 'apart' } as const;
  return {
    projects: [
      { name: 'conformance', role: 'conformance', instances: main, isolation: 'apart', teardown: lane.name },
      lane,
    ],
    instances,
    isolatedBeside: false,
    isolatedFirst: false,
    isolatedLanes: 1,
  };
}

/** The isolated tests share the target with the others: a lane a share, around the others. */
function sharedPlan(targets: readonly TargetSpec[], isolatedShares: readonly RegExp[]): RunPlan {
  const { instances, add } = instanceList();
  const main = mainInstances(targets, add);
  // A lane a share: the first (the 429 burst: profiles.ts isolatedShares) spends the client's window, so it
  // runs last, in what is left of the window, waiting for the reset alone; the others' lanes run first.
  const lanes = isolatedShares.map(
    (share, lane): PlannedProject => ({
      name: laneName(lane),
      role: 'isolated',
      instances: main,
      share,
      isolation: lane === 0 ? 'last' : 'first',
    }),
  );
  return {
    projects: [...lanes, { name: 'conformance', role: 'conformance', instances: main, isolation: 'after' }],
    instances,
    isolatedBeside: true,
    isolatedFirst: true,
    isolatedLanes: lanes.length,
  };
}

/** On the embedded sandbox the isolated tests run beside the others, on instances of their own. */
function besidePlan(targets: readonly TargetSpec[], isolatedShares: readonly RegExp[]): RunPlan {
  const { instances, add } = instanceList();
  const main: Record<string, number> = {};
  const byShare = targets.length === 1;
  const lanes: Record<string, number>[] = Array.from(
    { length: byShare ? isolatedShares.length : Math.min(ISOLATED_LANES, targets.length) },
    () => ({}),
  );
  for (const [index, target] of targets.entries()) {
    main[target.name] = add(target, 'conformance');
    for (const [lane, laneInstances] of lanes.entries())
      if (byShare || lane === index % lanes.length) laneInstances[target.name] = add(target, 'isolated');
  }
  const disturbing = lanes.map(
    (laneInstances, lane): PlannedProject => ({
      name: laneName(lane),
      role: 'isolated',
      instances: laneInstances,
      share: byShare ? isolatedShares[lane] : registrationsOf(Object.keys(laneInstances)),
      isolation: 'apart',
    }),
  );
  // Playwright hands out tests in project order: isolated tests on their own instances go first, so that
  // their waits (a rate-limit window, a stated delivery wait) overlap the other tests.
  return {
    projects: [
      ...disturbing,
      { name: 'conformance', role: 'conformance', instances: main, isolation: 'apart' },
    ],
    instances,
    isolatedBeside: true,
    isolatedFirst: false,
    isolatedLanes: lanes.length,
  };
}

/** The project of an isolated lane. */
const laneName = (lane: number): string => (lane === 0 ? 'isolated' : `isolated ${lane + 1}`);

/**
 * Where a project's tests stand to the isolated ones sharing their target: `first`, isolated, run before the
 * others; `after`, the others, waiting for the `first`; `last`, isolated, waiting for the others to end;
 * `apart`, the isolated tests have instances of their own, or none run.
 */
export type Isolation = 'first' | 'after' | 'last' | 'apart';

/** The annotation that names the target of a test's registration in a matrix run (src/worker/suite/test.ts). */
export const TARGET_ANNOTATION = 'target';

/** The target a test runs against: its name in a matrix run, '' otherwise. */
export const targetNameOf = (annotations: readonly { type: string; description?: string }[]): string =>
  annotations.find((annotation) => annotation.type === TARGET_ANNOTATION)?.description ?? '';

/** The title of a test's registration for a target: the test's own title, the target's name after it. */
export const titleForTarget = (title: string, target: string): string =>
  target === '' ? title : `${title} [${target}]`;

/** Matches the registrations of these targets: each title ends with its target's name, the tags follow. */
export const registrationsOf = (targets: readonly string[]): RegExp =>
  new RegExp(`\\[(?:${targets.map(escapeRegExp).join('|')})\\](?:\\s|$)`);

/** A registration's title without its target's name: the test's own. */
export const ownTitle = (title: string, target: string): string => {
  const suffix = titleForTarget('', target);
  return suffix !== '' && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
};

/** CONFORMANCE_MATRIX: a JSON file listing the run's targets; without it, one target from the variables. */
export function runTargets(env: Env): TargetSpec[] {
  const file = read(env, 'CONFORMANCE_MATRIX');
  if (!file)
    return [
      {
        name: '',
        faults: read(env, 'CONFORMANCE_SANDBOX_FAULTS'),
        variants: read(env, 'CONFORMANCE_SANDBOX_VARIANTS'),
        env: {},
      },
    ];
  if (env.CONFORMANCE_BASE_URL || env.CONFORMANCE_TARGET === 'prism')
    throw new ConfigError('CONFORMANCE_MATRIX', 'runs instances of the embedded sandbox only');
  for (const variable of ['CONFORMANCE_SANDBOX_FAULTS', 'CONFORMANCE_SANDBOX_VARIANTS'])
    if (env[variable])
      throw new ConfigError(variable, 'cannot be set with CONFORMANCE_MATRIX, whose targets name their own');
  if (!existsSync(file)) throw new ConfigError('CONFORMANCE_MATRIX', `names no file: ${file}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError('CONFORMANCE_MATRIX', `is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0)
    throw new ConfigError('CONFORMANCE_MATRIX', 'must list at least one target');
  const targets = parsed.map(matrixTarget);
  const names = targets.map((target) => target.name);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0)
    throw new ConfigError('CONFORMANCE_MATRIX', `names a target twice: ${repeated.join(', ')}`);
  return targets;
}

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function matrixTarget(entry: unknown, index: number): TargetSpec {
  const {
    name,
    faults = [],
    variants = [],
    grep,
    env = {},
    waits,
  } = (entry ?? {}) as Record<string, unknown>;
  const valid =
    typeof name === 'string' &&
    /^[\w.-]+$/.test(name) &&
    strings(faults) &&
    strings(variants) &&
    (grep === undefined || typeof grep === 'string') &&
    (waits === undefined || typeof waits === 'boolean') &&
    typeof env === 'object' &&
    env !== null &&
    Object.values(env).every((value) => typeof value === 'string');
  if (!valid)
    throw new ConfigError(
      'CONFORMANCE_MATRIX',
      `target ${index} must be { name (letters, digits, . _ -), faults?: string[], variants?: string[], grep?: string, env?: { VARIABLE: string }, waits?: boolean }`,
    );
  return { name, faults, variants, grep, env: env as Record<string, string>, ...(waits ? { waits } : {}) };
}
