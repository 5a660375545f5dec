// `npm run conformance [-- playwright args]`: runs the conformance suite (playwright.config.ts), then its
// Allure step (src/runner/run/allure-step.ts), and exits with the suite's verdict. Playwright runs in its own process group:
// a Ctrl-C or SIGTERM of this command reaches it and its workers, and none of them outlives the run
// (exit status 130 or 143 then). The exit status is this run's alone: the reports of an earlier run are
// removed first, and a configuration Playwright's own would stop on is refused here, in one line.
import { rmSync } from 'node:fs';
import { runOptions } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { environmentLayers, merged, type VariableLayer } from '../config/environment.ts';
import { runTargets } from '../config/run-plan.ts';
import { read } from '../config/variables.ts';
import { configurationError } from '../protocol/run-errors.ts';
import { processVariable } from '../run-state/process-variables.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import type { RunError } from '../run-state/run-error.ts';
import { runErrorLine } from '../run-state/run-error.ts';
import { clearStop, newStopFile, requestStop, STOP_FILE_VARIABLE } from '../run-state/stop-file.ts';
import { EXIT_CODES } from '../runner/report/exit-statuses.ts';
import { MATRIX_REPORT, REPORT_FILES } from '../runner/report/report-files.ts';
import { allureStep } from '../runner/run/allure-step.ts';
import { playwrightCli } from '../runner/run/playwright.ts';
import { runInProcessGroup } from '../runner/run/process-group.ts';
import { SHARD_REPORTERS } from '../runner/run/reporters.ts';

/**
 * The run (`physiology-conformance run`): Playwright test with `playwrightArgs`, then Allure; its exit status.
 * A shard (`shard`: "i/n") writes its blob report for `merge-reports` instead, and takes its part of the
 * target's rate budgets.
 */
export async function runConformance(playwrightArgs: readonly string[], shard?: string): Promise<number> {
  if (shard !== undefined) return runShard(playwrightArgs, shard);
  // An earlier run's verdict must never become this run's exit status.
  for (const name of [...REPORT_FILES, MATRIX_REPORT]) rmSync(reportPath(name), { force: true });

  const resolved = resolveBeforePlaywright();
  if ('problem' in resolved) {
    console.error(`Conformance: ERROR: ${runErrorLine(resolved.problem)}`);
    return EXIT_CODES.configuration;
  }

  const finishAllure = allureStep(resolved.allureReport);
  const stopFile = newStopFile();
  const suite = await runInProcessGroup(process.execPath, [playwrightCli(), 'test', ...playwrightArgs], {
    env: { ...process.env, [STOP_FILE_VARIABLE]: stopFile },
    beforeStop: () => requestStop(stopFile),
  });
  clearStop(stopFile);

  const allure = await finishAllure();
  if (allure) console.log(allure);

  return exitCode(suite.code);
}

/** Where a shard's blob report goes: PLAYWRIGHT_BLOB_OUTPUT_DIR, else reports/blob-report. */
const blobDir = (): string => processVariable('PLAYWRIGHT_BLOB_OUTPUT_DIR') ?? reportPath('blob-report');

/**
 * One shard of a run: its tests, reported as a blob for `merge-reports`, which gives the run's verdict. Its
 * own status: 0 when every test it ran passed, 1 when one did not, or Playwright's for anything else.
 */
async function runShard(playwrightArgs: readonly string[], shard: string): Promise<number> {
  const resolved = resolveBeforePlaywright();
  if ('problem' in resolved) {
    console.error(`Conformance: ERROR: ${runErrorLine(resolved.problem)}`);
    return EXIT_CODES.configuration;
  }
  const out = blobDir();
  rmSync(out, { recursive: true, force: true });
  const stopFile = newStopFile();
  const run = await runInProcessGroup(
    process.execPath,
    [playwrightCli(), 'test', ...playwrightArgs, `--shard=${shard}`, `--reporter=${SHARD_REPORTERS}`],
    {
      env: { ...process.env, [STOP_FILE_VARIABLE]: stopFile, PLAYWRIGHT_BLOB_OUTPUT_DIR: out },
      beforeStop: () => requestStop(stopFile),
    },
  );
  clearStop(stopFile);
  console.log(
    `Shard ${shard}: its blob report is in ${out}; \`physiology-conformance merge-reports\` of every shard's gives the run's verdict`,
  );
  return run.code;
}

/**
 * What playwright.config.ts resolves before global setup (the env file, the profile, the workers, the
 * targets): a configuration error there would end Playwright's start with a stack trace. With it,
 * CONFORMANCE_ALLURE_REPORT, which this process reads (the environment over the env file).
 */
function resolveBeforePlaywright(): { problem: RunError } | { allureReport: boolean } {
  // Until the env file is read, the environment alone.
  let layers: VariableLayer[] = [{ variables: process.env }];
  try {
    layers = environmentLayers();
    const environment = merged(layers);
    runOptions(environment);
    runTargets(environment);
    return { allureReport: read(environment, 'CONFORMANCE_ALLURE_REPORT') };
  } catch (error) {
    if (error instanceof ConfigError) return { problem: configurationError(error, layers) };
    throw error;
  }
}

/**
 * The run verdict as the exit status (README): PASS 0, FAIL 1, INCOMPLETE 3 (0 with
 * CONFORMANCE_ALLOW_INCOMPLETE=1, which the reporter already applied to Playwright's status), ERROR 4, or 2
 * when the run error is the configuration. A signal's status is passed through; a run that failed without
 * writing a report crashed on the suite's side: ERROR.
 */
async function exitCode(playwrightCode: number): Promise<number> {
  // An INCOMPLETE the reporter allowed (CONFORMANCE_ALLOW_INCOMPLETE) ended Playwright's run as passed.
  if (playwrightCode > 128 || playwrightCode === 0) return playwrightCode;
  // Loaded after the run: reading a result (its validator) is no part of Playwright's start.
  const { reportExitCode } = await import('../runner/run/report-exit.ts');
  return reportExitCode(playwrightCode, () => false);
}
