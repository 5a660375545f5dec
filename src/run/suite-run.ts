// Runs the conformance suite once, in a child process, with its own reports directory, and reads back
// its conformance report: one run (the benchmark, the flakiness check, the remote run), or a matrix of
// sandbox instances in one Playwright run (the variant and mutation gates; src/config/run-plan.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetSpec } from '../config/run-plan.ts';
import type { ConformanceReport } from '../report/model.ts';
import { MATRIX_REPORT } from '../report/write-report.ts';
import { playwrightCli } from './playwright.ts';
import { runCommand } from './run-step.ts';

interface Run<Report> {
  wallMs: number;
  exitCode: number | null;
  /** Undefined when the run wrote no report (it could not start). */
  report?: Report;
  /** The end of the run's output (quiet runs only). */
  output: string;
}

export type SuiteRun = Run<ConformanceReport>;
/** A matrix run's reports, by target name. */
export type MatrixRun = Run<Record<string, ConformanceReport>>;

/** One Playwright run of the suite in a reports directory of its own; `report` is read from that directory. */
async function runIn<Report>(
  env: NodeJS.ProcessEnv,
  args: string[],
  quiet: boolean,
  reportFile: string,
  prepare: (dir: string) => NodeJS.ProcessEnv = () => ({}),
): Promise<Run<Report>> {
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
      { CONFORMANCE_BASE_URL: '', ...env, ...prepare(dir), CONFORMANCE_REPORTS_DIR: dir },
      quiet,
    );
    let report: Report | undefined;
    try {
      report = JSON.parse(readFileSync(join(dir, reportFile), 'utf8')) as Report;
    } catch {
      report = undefined;
    }
    return { wallMs: durationMs, exitCode: code, report, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const runSuite = (
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
  quiet = false,
): Promise<SuiteRun> => runIn(env, args, quiet, 'conformance.json');

/** The suite against one embedded sandbox instance per target, in one run (CONFORMANCE_MATRIX). */
export const runMatrix = (targets: readonly TargetSpec[], env: NodeJS.ProcessEnv = {}): Promise<MatrixRun> =>
  runIn(env, [], true, MATRIX_REPORT, (dir) => {
    const file = join(dir, 'matrix-targets.json');
    writeFileSync(file, JSON.stringify(targets));
    return { CONFORMANCE_MATRIX: file };
  });

/** The run's report; throws with the end of its output when it wrote none. */
export function reportOf<Report>(run: Run<Report>): Report {
  if (!run.report)
    throw new Error(`the conformance run wrote no report (exit ${run.exitCode})\n${run.output}`);
  return run.report;
}
