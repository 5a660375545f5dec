// A matrix's targets that wait on their answers rather than compute (`waits`: the variant gate's
// late-answering variants) run apart from the others: their shared tests in a project of their own, each
// dispatched on its own to the workers their own CONFORMANCE_WORKERS names, their isolated tests in a lane of
// their own, so that their waits overlap one another and hold none of the workers and lanes of the others.
import { runOptions } from '../../config/config.ts';
import {
  type PlannedProject,
  type RunPlan,
  registrationsOf,
  type TargetSpec,
} from '../../config/run-plan.ts';
import type { Env } from '../../config/variables.ts';

/** A project of the run's plan as the Playwright configuration has it. */
export interface ConfiguredProject extends PlannedProject {
  /** The tests it leaves to the waiting targets' project (a pattern over titles). */
  without?: RegExp;
  /** The waiting targets' project: its tests go out one at a time to this many workers. */
  waitingWorkers?: number;
}

/** The waiting targets' project of shared tests, and their isolated tests' lane. */
const WAITING_PROJECT = 'conformance (waiting)';
const WAITING_LANE = 'isolated (waiting)';

export interface WaitingTargets {
  names: readonly string[];
  /** The most workers one of them names. */
  workers: number;
}

/** A matrix's waiting targets. */
export function waitingTargets(targets: readonly TargetSpec[], env: Env): WaitingTargets {
  const waiting = targets.filter((target) => target.waits === true);
  return {
    names: waiting.map((target) => target.name),
    workers: Math.max(0, ...waiting.map((target) => runOptions({ ...env, ...target.env }).workers)),
  };
}

const pick = (instances: Record<string, number>, keep: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(instances).filter(([name]) => keep(name)));

/**
 * The plan's projects with the waiting targets apart, and the workers that adds: their project's, and a lane for
 * their isolated tests (one at a time, as a lane runs them) where no lane of the plan is left without tests.
 * Only where each target's isolated tests have an instance of their own (a matrix on the embedded sandbox), so
 * that a lane may take any targets' tests.
 */
export function apartFromTheWaiting(
  plan: RunPlan,
  targetCount: number,
  waiting: WaitingTargets,
): { projects: ConfiguredProject[]; addedWorkers: number } {
  if (waiting.names.length === 0 || targetCount < 2 || !plan.isolatedBeside)
    return { projects: plan.projects, addedWorkers: 0 };
  const theirs = (name: string) => waiting.names.includes(name);
  const ofRole = (role: PlannedProject['role']) =>
    Object.assign({}, ...plan.projects.filter((p) => p.role === role).map((p) => pick(p.instances, theirs)));
  const apart = (role: PlannedProject['role'], name: string): PlannedProject => {
    const instances = ofRole(role);
    return { name, role, instances, share: registrationsOf(Object.keys(instances)), isolation: 'apart' };
  };
  const others = plan.projects.flatMap((planned): ConfiguredProject[] => {
    const instances = pick(planned.instances, (name) => !theirs(name));
    const names = Object.keys(instances);
    if (names.length === 0) return [];
    if (names.length === Object.keys(planned.instances).length) return [planned];
    return planned.role === 'isolated'
      ? [{ ...planned, instances, share: registrationsOf(names) }]
      : [{ ...planned, instances, without: registrationsOf(waiting.names) }];
  });
  const projects = [
    apart('isolated', WAITING_LANE),
    { ...apart('conformance', WAITING_PROJECT), waitingWorkers: waiting.workers },
    ...others,
  ];
  const lanes = (list: readonly PlannedProject[]) => list.filter((p) => p.role === 'isolated').length;
  return { projects, addedWorkers: waiting.workers + lanes(projects) - lanes(plan.projects) };
}
