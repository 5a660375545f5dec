// Runs the conformance suite once, in a child process, with its own reports directory, and reads back
// its conformance report. Used by the benchmark, the flakiness check, the variant gate and the remote run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../report/model.ts';
import { playwrightCli } from './playwright.ts';
import { runCommand } from './run-step.ts';

export interface SuiteRun {
  wallMs: number;
  exitCode: number | null;
  /** Undefined when the run wrote no report (it could not start). */
  report?: ConformanceReport;
  /** The end of the run's output (quiet runs only). */
  output: string;
}

export async function runSuite(
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
  quiet = false,
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  try {
    const { code, durationMs, output } = await runCommand(
      process.execPath,
      [
        playwrightCli(),
        'test',
        '--reporter',
        `${quiet ? '' : 'dot,'}./src/report/conformance-reporter.ts`,
        ...args,
      ],
      { CONFORMANCE_BASE_URL: '', ...env, CONFORMANCE_REPORTS_DIR: dir },
      quiet,
    );
    let report: ConformanceReport | undefined;
    try {
      report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    } catch {
      report = undefined;
    }
    return { wallMs: durationMs, exitCode: code, report, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The run's report; throws with the end of its output when it wrote none. */
export function reportOf(run: SuiteRun): ConformanceReport {
  if (!run.report)
    throw new Error(`the conformance run wrote no report (exit ${run.exitCode})\n${run.output}`);
  return run.report;
}
