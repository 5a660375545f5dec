// Mutation analysis of the suite: for every sandbox fault, the tests that declare the fault's requirement
// run against a sandbox instance with that fault alone, and a failure must name the fault's own requirement
// (a failure charged to another requirement does not kill it). A fault that departs from a reading (a
// READING requirement) is judged in strict mode, where readings fail. All the faults' instances run in one
// Playwright run, one target each (src/config/run-plan.ts). A fault of the sign-in counts only where a user
// would see it killed: it also runs against a sandbox started on its own (src/dev/remote-target.ts), where
// the preflight signs in and a 4xx may be the configuration's; killed on the embedded target alone, it is
// listed so and not counted. Writes reports/mutation.json, prints the score; exits 1 if any fault survives.
import { mkdirSync, writeFileSync } from 'node:fs';
import { type FaultDefinition, faults } from '../../sandbox/faults/index.ts';
import { tagGrep } from '../config/profiles.ts';
import type { TargetSpec } from '../config/run-plan.ts';
import { findRequirement } from '../contract/requirements.ts';
import { reportPath, reportsDir } from '../run-state/reports-dir.ts';
import type { ConformanceReport } from '../runner/report/model.ts';
import { reportOf, runMatrix, runSuite } from '../runner/run/suite-run.ts';
import type { MutantResult } from './mutation-result.ts';
import { scriptArgs } from './script-args.ts';

const USAGE = `Usage: npm run mutation [-- fault-name ...]

  Runs every sandbox fault (or those named; \`npm run sandbox -- --list-faults\` lists them) against the
  tests that declare its requirement (a sign-in fault also against a sandbox started on its own);
  writes reports/mutation.json; exits 1 if a fault survives.
  --help  this text`;

import { remoteTargetEnv, sandboxOnItsOwn } from './remote-target.ts';

/** The sign-in's requirement: a fault of it is killed only where the run did not start the target. */
const SIGN_IN = 'AUTH-CODE-FLOW';

/** A fault's verdict from its target's report (undefined: none of its tests ran). */
function mutantResult(
  name: string,
  fault: FaultDefinition,
  report: ConformanceReport | undefined,
): MutantResult {
  const base = { fault: name, requirement: fault.requirement };
  if (!report)
    return { ...base, killed: false, killedBy: [], failedTests: [], testsRun: 0, error: 'no test ran' };
  const failed = report.tests.filter((test) => test.status === 'failed');
  const killedBy = failed
    .filter((test) => test.failedRequirements.includes(fault.requirement))
    .map((test) => test.title);
  return {
    ...base,
    killed: killedBy.length > 0,
    killedBy,
    failedTests: failed.map((test) => test.title),
    testsRun: report.tests.length,
    ...(killedBy.length > 0 ? {} : { error: howTheyEnded(report) }),
  };
}

/** How the tests of a fault that no failure of its requirement killed ended: each outcome, and the first stop's reason. */
function howTheyEnded(report: ConformanceReport): string {
  const outcomes = new Map<string, number>();
  for (const test of report.tests) outcomes.set(test.outcome, (outcomes.get(test.outcome) ?? 0) + 1);
  const stop = report.tests.find((test) => test.skipReason)?.skipReason;
  const counts = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ');
  return `no failure names it: ${counts}${stop ? ` (first stop: ${stop})` : ''}`;
}

/** The variables a fault's tests run with: its requirement's tests; strict mode for a reading's. */
function faultEnv(fault: FaultDefinition): { grep: string; env: Record<string, string> } {
  const reading = findRequirement(fault.requirement)?.level === 'READING';
  return { grep: tagGrep(`@${fault.requirement}`), env: reading ? { CONFORMANCE_STRICT: '1' } : {} };
}

/**
 * A sign-in fault's result on a target the run did not start: a sandbox with the fault, started on its own
 * and reached by URL, its preflight and its tests run as a user's run would; beside the embedded result.
 */
async function remoteResult(
  name: string,
  fault: FaultDefinition,
  embedded: MutantResult,
): Promise<MutantResult> {
  const sandbox = await sandboxOnItsOwn({ faults: [name as keyof typeof faults] });
  try {
    const { grep, env } = faultEnv(fault);
    // A few tests: a second worker would cost more CPU to start than it saves.
    const variables = {
      ...remoteTargetEnv(sandbox),
      ...env,
      CONFORMANCE_GREP: grep,
      CONFORMANCE_WORKERS: '1',
    };
    const run = await runSuite(variables, [], true);
    const result = mutantResult(name, fault, run.report);
    const { verdict = 'none', runError } = run.report ?? {};
    return {
      ...result,
      remote: {
        verdict,
        ...(runError ? { runError: { kind: runError.kind, cause: runError.cause } } : {}),
        embeddedOnly: embedded.killed && !result.killed,
      },
    };
  } finally {
    await sandbox.close();
  }
}

/** One line of the console per fault: how it ended, and for a sign-in fault where it was killed. */
function faultLine(result: MutantResult): string {
  const { remote } = result;
  const state = result.killed ? 'killed  ' : remote?.embeddedOnly ? 'EMBEDDED' : 'SURVIVED';
  const where = remote
    ? remote.embeddedOnly
      ? ` — killed on the embedded target only: a target the run did not start ends ${remote.verdict.toUpperCase()}${remote.runError ? ` (${remote.runError.kind})` : ''}; not counted`
      : result.killed
        ? ', on a target the run did not start'
        : ''
    : '';
  // Why a survivor's tests did not kill it, cut to a line (reports/mutation.json has it whole).
  const why =
    !result.killed && !remote?.embeddedOnly && result.error ? ` — ${result.error.slice(0, 300)}` : '';
  return `${state} ${result.fault} (${result.requirement}): ${result.testsRun} test(s)${why}${where}`;
}

export async function runMutation(
  names: readonly string[],
): Promise<{ results: MutantResult[]; wallMs: number; remoteMs: number }> {
  const catalogue = faults as Record<string, FaultDefinition>;
  const unknown = names.filter((name) => !catalogue[name]);
  if (unknown.length > 0) throw new Error(`unknown fault(s): ${unknown.join(', ')}`);
  const targets = names.map((name): TargetSpec => {
    const { grep, env } = faultEnv(catalogue[name] as FaultDefinition);
    return { name, faults: [name], variants: [], grep, env };
  });
  const run = await runMatrix(targets);
  const reports = reportOf(run);
  const embedded = names.map((name) => mutantResult(name, catalogue[name] as FaultDefinition, reports[name]));
  const started = Date.now();
  // One after the other: two at once took as long on this 2-core machine (109 s against 100 s for 8).
  const results: MutantResult[] = [];
  for (const result of embedded) {
    const fault = catalogue[result.fault] as FaultDefinition;
    results.push(fault.requirement === SIGN_IN ? await remoteResult(result.fault, fault, result) : result);
  }
  for (const result of results) console.log(faultLine(result));
  return { results, wallMs: run.wallMs, remoteMs: Date.now() - started };
}

async function main(): Promise<void> {
  const { positionals } = scriptArgs(USAGE, { allowPositionals: true });
  const names = positionals.length > 0 ? positionals : Object.keys(faults);
  const { results, wallMs, remoteMs } = await runMutation(names);
  const killed = results.filter((result) => result.killed).length;
  const embeddedOnly = results.filter((result) => result.remote?.embeddedOnly).map((result) => result.fault);
  const summary = {
    score: Number((killed / results.length).toFixed(4)),
    killed,
    total: results.length,
    durationMs: wallMs,
    remoteDurationMs: remoteMs,
    embeddedOnly,
    survivors: results.filter((result) => !result.killed && !result.remote?.embeddedOnly).map((r) => r.fault),
    faults: results,
  };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('mutation.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const remote = results.filter((result) => result.remote).length;
  console.log(
    `\nMutation score: ${killed}/${results.length} (${(summary.score * 100).toFixed(1)}%) in ${(wallMs / 1000).toFixed(0)} s, one run${remote > 0 ? `, and ${remote} sign-in fault(s) on a target the run did not start in ${(remoteMs / 1000).toFixed(0)} s` : ''}; reports/mutation.json`,
  );
  if (embeddedOnly.length > 0)
    console.log(`Killed on the embedded target only, not counted: ${embeddedOnly.join(', ')}`);
  if (summary.survivors.length > 0) {
    console.log(`Faults no test catches: ${summary.survivors.join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
