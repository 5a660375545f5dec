// The conformance suite. Target, credentials and profile come from CONFORMANCE_* variables (docs/variables.md);
// without CONFORMANCE_BASE_URL the run starts the embedded sandbox itself (src/runner/run/global-setup.ts).
import { defineConfig, type Project } from '@playwright/test';
import { runOptions } from './src/config/config.ts';
import { resolveEnvironment } from './src/config/environment.ts';
import { isolatedShares, profileRow, Tags } from './src/config/profiles.ts';
import { type Isolation, runPlan, runTargets } from './src/config/run-plan.ts';
import { partMetadata, runPart } from './src/config/selection.ts';
import { ISOLATED_FIRST_REPORTER } from './src/protocol/isolated-first.ts';
import { KEPT_FAILURES_REPORTER } from './src/protocol/kept-failures.ts';
import { suiteModule } from './src/run-state/package.ts';
import { reportPath } from './src/run-state/reports-dir.ts';
import { reportReporters } from './src/runner/run/reporters.ts';
import {
  apartFromTheWaiting,
  type ConfiguredProject,
  waitingTargets,
} from './src/runner/run/waiting-targets.ts';

/**
 * The part of the run's resolution Playwright needs before global setup starts a target: the same function of
 * the same variables (the environment over CONFORMANCE_ENV_FILE) that the run manifest records, so a profile
 * or a selection set in the file applies here too.
 */
const environment = resolveEnvironment();
const { profile, grep, workers, runTimeoutSeconds, embeddedSandbox } = runOptions(environment);
const isolated = new RegExp(Tags.isolated);
const targets = runTargets(environment);
const plan = runPlan(targets, embeddedSandbox, isolatedShares(profile));
// A matrix's targets that wait on their answers get a project and a lane of their own (the variant gate's slow variants).
const configured = apartFromTheWaiting(plan, targets.length, waitingTargets(targets, environment));
/** What this run selects (CONFORMANCE_GREP, --grep, test filters...) and its shard: recorded for the reporter. */
const part = runPart(environment, process.argv);
// Test selection, in both projects: CONFORMANCE_GREP (Playwright's --grep also works, but a teardown project
// ignores it, so the isolated tests would always run after the selection), and the smoke profile's @smoke
// tests only (the profile guard in src/worker/suite/fixtures.ts refuses the rest anyway; filtering here saves
// scheduling them).
const { ownTag } = profileRow(profile);
const filters = [grep ? new RegExp(grep) : undefined, ownTag ? new RegExp(ownTag) : undefined].filter(
  (filter): filter is RegExp => filter !== undefined,
);
/** A pattern that matches when every one of `patterns` matches (undefined: no filter). */
const allOf = (...patterns: RegExp[]): RegExp | undefined =>
  patterns.length === 0 ? undefined : new RegExp(`^${patterns.map((p) => `(?=.*(?:${p.source}))`).join('')}`);

/** The suite's worker options (src/worker/suite/fixtures.ts) a project sets. */
interface WorkerOptions {
  targetInstances: Record<string, number>;
  isolation: Isolation;
}

export default defineConfig<object, WorkerOptions>({
  testDir: './tests/conformance',
  outputDir: reportPath('test-results'),
  globalSetup: suiteModule('src/runner/run/global-setup.ts'),
  // On the embedded sandbox a worker runs a spec file's tests in a row: Playwright hands a fully parallel
  // project's tests out one at a time, a round trip to the runner for each of 350 tests (about 7% of a ci-gate
  // run's CPU). Against any other target the workers mostly wait for its answers: each test goes out on its
  // own, so that one waiting for an answer that never comes (a write, waited for up to the bound) holds back
  // no test of its file; the others go on in the other workers.
  fullyParallel: !embeddedSandbox,
  forbidOnly: !!process.env.CI,
  // A conformance verdict must not depend on luck: no retries.
  retries: 0,
  workers: workers + (plan.isolatedBeside ? plan.isolatedLanes : 0) + configured.addedWorkers,
  timeout: 60_000,
  // CONFORMANCE_RUN_TIMEOUT_S: the run stops (reporters still write, verdict "interrupted") when it is spent.
  globalTimeout: runTimeoutSeconds * 1000,
  reporter: [
    // First: a check's failure keeps its worker, and every reporter after it still sees a failure.
    [KEPT_FAILURES_REPORTER],
    [ISOLATED_FIRST_REPORTER],
    ['list'],
    ...reportReporters(),
    // Playwright's JSON report where PLAYWRIGHT_JSON_OUTPUT_FILE asks for one (`npm run bench` times a run by it).
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['json'] as ['json']] : []),
  ],
  // Traces and videos would carry tokens: off.
  use: { trace: 'off', video: 'off', screenshot: 'off' },
  // A narrowed run is never a PASS: the reporter reads the selection here, a merge from each shard's blob.
  metadata: partMetadata(part),
  projects: configured.projects.map(project),
});

/**
 * A project of the run's plan: the tests that can share a target, or those that disturb it for everyone (a
 * 429 burst, revoking the grant), one at a time, on an instance of their own or after the rest. Each target's
 * tests of the project talk to that target's instance of the project (src/worker/suite/fixtures.ts `session`).
 */
function project({
  name,
  role,
  instances,
  teardown,
  share,
  isolation,
  without,
  waitingWorkers,
}: ConfiguredProject): Project<object, WorkerOptions> {
  const common = {
    name,
    teardown,
    metadata: { instances, role, isolation },
    use: { targetInstances: instances, isolation },
  };
  if (role === 'conformance' && waitingWorkers)
    // The waiting targets' tests (their share), each on its own: a worker waits for each answer.
    return {
      ...common,
      grep: allOf(...filters, ...(share ? [share] : [])),
      grepInvert: isolated,
      fullyParallel: true,
      workers: waitingWorkers,
    };
  if (role === 'conformance')
    // The run's workers: once the isolated tests are done, their slot would start a worker of this project,
    // at about 2 s of CPU, for the last few tests. Without the waiting targets' tests, where they run apart.
    return {
      ...common,
      grep: allOf(...filters),
      grepInvert: without ? [isolated, without] : isolated,
      workers,
    };
  // A lane runs its share of the isolated tests (without shares, every one), one at a time.
  return {
    ...common,
    grep: allOf(isolated, ...filters, ...(share ? [share] : [])),
    workers: 1,
  };
}
