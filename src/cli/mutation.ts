// Mutation analysis of the suite: for every sandbox fault, run the tests that declare the fault's
// requirement against a sandbox started with that fault alone, and require a failure that names the
// fault's own requirement (a failure charged to another requirement does not kill it). Writes reports/mutation.json and prints the mutation score; exits 1 if any fault survives.
//
//   npm run mutation [-- --concurrency N] [-- fault-name ...]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type FaultDefinition, faults } from '../../sandbox/faults/index.ts';
import type { ConformanceReport } from '../report/model.ts';
import type { MutantResult } from '../report/mutation-result.ts';
import { playwrightCli } from '../run/playwright.ts';
import { pool } from '../run/pool.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';

const MUTANT_TIMEOUT_MS = 180_000;

/** Matches a test whose tags include exactly this requirement (not a longer ID it prefixes). */
export const requirementGrep = (id: string) => `@${id}(?=\\s|$)`;

function runMutant(name: string, fault: FaultDefinition): Promise<MutantResult> {
  const dir = mkdtempSync(join(tmpdir(), `mutant-${name}-`));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        playwrightCli(),
        'test',
        '--reporter',
        './src/report/conformance-reporter.ts',
        '--output',
        join(dir, 'test-results'),
      ],
      {
        env: {
          ...process.env,
          CONFORMANCE_GREP: requirementGrep(fault.requirement),
          CONFORMANCE_SANDBOX_FAULTS: name,
          CONFORMANCE_REPORTS_DIR: dir,
          CONFORMANCE_WORKERS: '1',
          CONFORMANCE_BASE_URL: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), MUTANT_TIMEOUT_MS);
    child.on('close', () => {
      clearTimeout(timer);
      const durationMs = Date.now() - started;
      const base = { fault: name, requirement: fault.requirement, durationMs };
      try {
        const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
        const failed = report.tests.filter((test) => test.status === 'failed');
        const killedBy = failed
          .filter((test) => test.failedRequirements.includes(fault.requirement))
          .map((test) => test.title);
        resolve({
          ...base,
          killed: killedBy.length > 0,
          killedBy,
          failedTests: failed.map((test) => test.title),
          testsRun: report.tests.length,
        });
      } catch {
        const timedOut = durationMs >= MUTANT_TIMEOUT_MS;
        resolve({
          ...base,
          killed: false,
          killedBy: [],
          failedTests: [],
          testsRun: 0,
          error: timedOut ? 'timed out' : `no report: ${output.trim().split('\n').slice(-5).join(' | ')}`,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

export async function runMutation(names: readonly string[], concurrency: number): Promise<MutantResult[]> {
  const catalogue = faults as Record<string, FaultDefinition>;
  const unknown = names.filter((name) => !catalogue[name]);
  if (unknown.length > 0) throw new Error(`unknown fault(s): ${unknown.join(', ')}`);
  return pool(names, concurrency, async (name) => {
    const result = await runMutant(name, catalogue[name] as FaultDefinition);
    const verdict = result.killed ? 'killed  ' : 'SURVIVED';
    console.log(
      `${verdict} ${name} (${result.requirement}) ${(result.durationMs / 1000).toFixed(1)} s${result.error ? ` — ${result.error}` : ''}`,
    );
    return result;
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { concurrency: { type: 'string' } },
  });
  const concurrency = Number(values.concurrency ?? Math.max(1, availableParallelism()));
  const names = positionals.length > 0 ? positionals : Object.keys(faults);
  const started = Date.now();
  const results = await runMutation(names, concurrency);
  const killed = results.filter((result) => result.killed).length;
  const summary = {
    score: Number((killed / results.length).toFixed(4)),
    killed,
    total: results.length,
    concurrency,
    durationMs: Date.now() - started,
    survivors: results.filter((result) => !result.killed).map((result) => result.fault),
    faults: results,
  };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('mutation.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `\nMutation score: ${killed}/${results.length} (${(summary.score * 100).toFixed(1)}%) in ${(summary.durationMs / 1000).toFixed(0)} s; reports/mutation.json`,
  );
  if (summary.survivors.length > 0) {
    console.log(`Faults no test catches: ${summary.survivors.join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
