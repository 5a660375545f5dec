// What one Playwright run runs against: its targets (by default one; a matrix of sandbox faults or variants
// for the mutation and variant gates, CONFORMANCE_MATRIX), each as two projects (the tests that can share
// the target, and the isolated ones that disturb it), and the target instances the projects use. On the
// embedded sandbox the isolated tests get an instance of their own and run beside the others; on any other
// target they share it, after the others. A pure function of the run options, so the Playwright
// configuration and global setup derive the same plan.
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';
import type { Env } from './environment.ts';

/** A target of the run: on the embedded sandbox, an instance with these faults and variants. */
export interface TargetSpec {
  /** Empty for the run's one default target; a matrix names each. */
  name: string;
  faults: readonly string[];
  variants: readonly string[];
  /** The tests this target runs (a pattern over title and tags), on top of the run's selection. */
  grep?: string;
  /** Variables of this target alone, over the run's (e.g. the signature scheme a variant uses). */
  env: Readonly<Record<string, string>>;
}

export type ProjectRole = 'conformance' | 'isolated';

export interface PlannedProject {
  name: string;
  target: TargetSpec;
  role: ProjectRole;
  /** The target instance the project's workers talk to (an index into `instances`). */
  instance: number;
  /** The project to run after this one, on the same instance. */
  teardown?: string;
}

/** A target instance: global setup starts it (off the sandbox: resolves it) for the projects of a role. */
export interface PlannedInstance {
  target: TargetSpec;
  /** `isolated`: it serves the isolated tests alone. */
  role: ProjectRole;
}

export interface RunPlan {
  projects: PlannedProject[];
  /** Whether the isolated tests run beside the others (one more worker, mostly waiting). */
  isolatedBeside: boolean;
  /** The run's target instances, by index. */
  instances: PlannedInstance[];
}

const projectName = (target: TargetSpec, role: ProjectRole): string =>
  target.name === '' ? role : role === 'conformance' ? target.name : `${target.name} ${role}`;

/**
 * The run's plan: each target's two projects and their instances. The isolated tests get an instance of
 * their own on the embedded sandbox, unless the run's profile runs none of them.
 */
export function runPlan(
  targets: readonly TargetSpec[],
  embeddedSandbox: boolean,
  isolatedTestsRun: boolean,
): RunPlan {
  const isolatedBeside = embeddedSandbox && isolatedTestsRun;
  const instances: PlannedInstance[] = [];
  const projects = targets.flatMap((target): PlannedProject[] => {
    const main = instances.push({ target, role: 'conformance' }) - 1;
    const isolated = isolatedBeside ? instances.push({ target, role: 'isolated' }) - 1 : main;
    const isolatedName = projectName(target, 'isolated');
    const conformance: PlannedProject = {
      name: projectName(target, 'conformance'),
      target,
      role: 'conformance',
      instance: main,
      teardown: isolated === main ? isolatedName : undefined,
    };
    const disturbing: PlannedProject = { name: isolatedName, target, role: 'isolated', instance: isolated };
    // Playwright hands out tests in project order: isolated tests on their own instance go first, so that
    // their waits (a rate-limit window, a stated delivery wait) overlap the other tests.
    return isolated === main ? [conformance, disturbing] : [disturbing, conformance];
  });
  return { projects, instances, isolatedBeside };
}

/** CONFORMANCE_MATRIX: a JSON file listing the run's targets; without it, one target from the variables. */
export function targetsOf(env: Env, list: (variable: string) => string[]): TargetSpec[] {
  const file = env.CONFORMANCE_MATRIX;
  if (!file)
    return [
      {
        name: '',
        faults: list('CONFORMANCE_SANDBOX_FAULTS'),
        variants: list('CONFORMANCE_SANDBOX_VARIANTS'),
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
  const { name, faults = [], variants = [], grep, env = {} } = (entry ?? {}) as Record<string, unknown>;
  const valid =
    typeof name === 'string' &&
    /^[\w.-]+$/.test(name) &&
    strings(faults) &&
    strings(variants) &&
    (grep === undefined || typeof grep === 'string') &&
    typeof env === 'object' &&
    env !== null &&
    Object.values(env).every((value) => typeof value === 'string');
  if (!valid)
    throw new ConfigError(
      'CONFORMANCE_MATRIX',
      `target ${index} must be { name (letters, digits, . _ -), faults?: string[], variants?: string[], grep?: string, env?: { VARIABLE: string } }`,
    );
  return { name, faults, variants, grep, env: env as Record<string, string> };
}
