// Mutation analysis of the suite: for every sandbox fault, the tests that declare the fault's requirement
// run against a sandbox instance with that fault alone, and a failure must name the fault's own requirement
// (a failure charged to another requirement does not kill it). A fault that departs from a reading (a
// READING requirement) is judged in strict mode, where readings fail. All the faults' instances run in one
// Playwright run, one target each (src/config/run-plan.ts). Writes reports/mutation.json and prints the
// mutation score; exits 1 if any fault survives.
import { mkdirSync, writeFileSync } from 'node:fs';
import { type FaultDefinition, faults } from '../../sandbox/faults/index.ts';
import { tagGrep } from '../config/profiles.ts';
import type { TargetSpec } from '../config/run-plan.ts';
import { findRequirement } from '../contract/requirements.ts';
import type { ConformanceReport } from '../report/model.ts';
import { reportOf, runMatrix } from '../run/suite-run.ts';
import { reportPath, reportsDir } from '../run-state/reports-dir.ts';
import type { MutantResult } from './mutation-result.ts';
import { scriptArgs } from './script-args.ts';

const USAGE = `Usage: npm run mutation [-- fault-name ...]

  Runs every sandbox fault (or those named; \`npm run sandbox -- --list-faults\` lists them) against the
  tests that declare its requirement; writes reports/mutation.json; exits 1 if a fault survives.
  --help  this text`;

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
  };
}

export async function runMutation(
  names: readonly string[],
): Promise<{ results: MutantResult[]; wallMs: number }> {
  const catalogue = faults as Record<string, FaultDefinition>;
  const unknown = names.filter((name) => !catalogue[name]);
  if (unknown.length > 0) throw new Error(`unknown fault(s): ${unknown.join(', ')}`);
  const targets = names.map((name): TargetSpec => {
    const { requirement } = catalogue[name] as FaultDefinition;
    const reading = findRequirement(requirement)?.level === 'READING';
    const env: Record<string, string> = reading ? { CONFORMANCE_STRICT: '1' } : {};
    return {
      name,
      faults: [name],
      variants: [],
      grep: tagGrep(`@${requirement}`),
      env,
    };
  });
  const run = await runMatrix(targets);
  const reports = reportOf(run);
  const results = names.map((name) => mutantResult(name, catalogue[name] as FaultDefinition, reports[name]));
  for (const result of results)
    console.log(
      `${result.killed ? 'killed  ' : 'SURVIVED'} ${result.fault} (${result.requirement}): ${result.testsRun} test(s)${result.error ? ` — ${result.error}` : ''}`,
    );
  return { results, wallMs: run.wallMs };
}

async function main(): Promise<void> {
  const { positionals } = scriptArgs(USAGE, { allowPositionals: true });
  const names = positionals.length > 0 ? positionals : Object.keys(faults);
  const { results, wallMs } = await runMutation(names);
  const killed = results.filter((result) => result.killed).length;
  const summary = {
    score: Number((killed / results.length).toFixed(4)),
    killed,
    total: results.length,
    durationMs: wallMs,
    survivors: results.filter((result) => !result.killed).map((result) => result.fault),
    faults: results,
  };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('mutation.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `\nMutation score: ${killed}/${results.length} (${(summary.score * 100).toFixed(1)}%) in ${(wallMs / 1000).toFixed(0)} s, one run; reports/mutation.json`,
  );
  if (summary.survivors.length > 0) {
    console.log(`Faults no test catches: ${summary.survivors.join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
