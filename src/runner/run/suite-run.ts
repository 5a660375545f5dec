// Runs the conformance suite once, in a child process (Playwright test, or the suite's own `run` command as a
// user runs it), with its own reports directory, and reads back its conformance report: one run (the
// benchmark, the flakiness check, the remote run), or a matrix of sandbox instances in one Playwright run
// (the variant and mutation gates; src/config/run-plan.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_TARGET, resolveEnvironment } from '../../config/environment.ts';
import type { TargetSpec } from '../../config/run-plan.ts';
import { readResult, validResult } from '../../result/validate.ts';
import type { ConformanceReport } from '../report/model.ts';
import { MATRIX_REPORT } from '../report/report-files.ts';
import { playwrightCli } from './playwright.ts';
import { cli, runProcess, type SuiteCommand, suiteFile, suiteTestArgs } from './run-step.ts';

export interface Run<Report> {
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

/**
 * Playwright's --reporter value: the suite's own, kept failures shown as failures first, the end of the
 * isolated tests told to the others, the verdict last.
 */
export const suiteReporters = (...others: string[]): string =>
  [
    suiteFile('src/runner/report/kept-failures-reporter.ts'),
    suiteFile('src/runner/report/isolated-first-reporter.ts'),
    ...others,
    suiteFile('src/runner/report/conformance-reporter.ts'),
    // Playwright's JSON report where PLAYWRIGHT_JSON_OUTPUT_FILE asks for one, as playwright.config.ts gives it.
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? ['json'] : []),
  ].join(',');

/** What a run in a reports directory of its own is given, and what it reads back from that directory. */
interface RunSpec<Report> {
  env: NodeJS.ProcessEnv;
  args?: string[];
  /** Playwright's --reporter value; none: the suite's own command (`run`), with the configured reporters. */
  reporters?: string;
  /** The suite's command, when it runs (default: this checkout's; an installed package's for the bench). */
  command?: SuiteCommand;
  quiet: boolean;
  /** Variables naming files in the run's directory. */
  prepare?: (dir: string) => NodeJS.ProcessEnv;
  /** The report, read from the directory after the run; a throw means the run wrote none. */
  read: (dir: string) => Report;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** One run of the suite in a reports directory of its own, removed afterwards. */
export async function runInOwnDirectory<Report>(spec: RunSpec<Report>): Promise<Run<Report>> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const playwright = suiteTestArgs('--reporter', spec.reporters ?? '', ...(spec.args ?? []));
  const [command, args] = spec.reporters
    ? [process.execPath, [playwrightCli(), ...playwright.args]]
    : (spec.command ?? cli)('run', ...(spec.args ?? []));
  try {
    const { code, durationMs, output } = await runProcess(
      command,
      args,
      {
        ...(spec.reporters ? playwright.env : {}),
        ...EMBEDDED_TARGET,
        ...spec.env,
        ...spec.prepare?.(dir),
        CONFORMANCE_REPORTS_DIR: dir,
      },
      spec.quiet,
    );
    let report: Report | undefined;
    try {
      report = spec.read(dir);
    } catch {
      report = undefined;
    }
    return { wallMs: durationMs, exitCode: code, report, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The conformance report of a run's directory. */
export const conformanceReportIn = (dir: string): ConformanceReport =>
  readResult(join(dir, 'conformance.json'));

export const runSuite = (
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
  quiet = false,
): Promise<SuiteRun> =>
  runInOwnDirectory({
    env,
    args,
    quiet,
    reporters: suiteReporters(...(quiet ? [] : ['dot'])),
    read: conformanceReportIn,
  });

/**
 * A gate's run budget (CONFORMANCE_RUN_TIMEOUT_S, unless set): a safety net for a matrix of dozens of
 * targets, so that a loaded machine slows the gate down, never leaves its checks not verified.
 */
const GATE_RUN_TIMEOUT_S = '3600';

/** The suite against one embedded sandbox instance per target, in one run (CONFORMANCE_MATRIX). */
export const runMatrix = (targets: readonly TargetSpec[], env: NodeJS.ProcessEnv = {}): Promise<MatrixRun> =>
  runInOwnDirectory({
    env: {
      ...(resolveEnvironment().CONFORMANCE_RUN_TIMEOUT_S
        ? {}
        : { CONFORMANCE_RUN_TIMEOUT_S: GATE_RUN_TIMEOUT_S }),
      ...env,
    },
    quiet: true,
    reporters: suiteReporters(),
    prepare: (dir) => {
      const file = join(dir, 'matrix-targets.json');
      writeFileSync(file, JSON.stringify(targets));
      return { CONFORMANCE_MATRIX: file };
    },
    // Each target's report follows the result schema, as a run's own does.
    read: (dir) =>
      Object.fromEntries(
        Object.entries(readJson<Record<string, unknown>>(join(dir, MATRIX_REPORT))).map(([name, report]) => [
          name,
          validResult(report, `${MATRIX_REPORT}, target ${name}`),
        ]),
      ),
  });

/** The run's report; throws with the end of its output when it wrote none. */
export function reportOf<Report>(run: Run<Report>): Report {
  if (!run.report)
    throw new Error(`the conformance run wrote no report (exit ${run.exitCode})\n${run.output}`);
  return run.report;
}
