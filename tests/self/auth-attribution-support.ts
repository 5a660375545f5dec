// Support for the sign-in attribution self tests: the CLI against a sandbox it did not start, one worker, and
// what it measured (exit code, verdict, failures, run error, wall time) as an annotation of the test.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { conformanceReportIn } from '../../src/runner/run/suite-run.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { sandboxTargetEnv } from './suite-against.ts';
import { startCli } from './suite-hostile-support.ts';

export interface Run {
  code: number;
  output: string;
  report: ConformanceReport;
  ms: number;
}

/**
 * The CLI against `sandbox` (a target the run did not start: the preflight signs in), one worker; `without`
 * leaves variables out (user B: then the preflight signs in user A alone).
 */
export async function cliRun(
  sandbox: RunningSandbox,
  env: Record<string, string>,
  without: readonly string[] = [],
): Promise<Run> {
  const reports = scratchDir();
  const variables: Record<string, string> = {
    ...sandboxTargetEnv(sandbox, reports),
    CONFORMANCE_WORKERS: '1',
    ...env,
  };
  for (const name of without) delete variables[name];
  const started = Date.now();
  const { code, output } = await startCli(variables).exit;
  const ms = Date.now() - started;
  const report = conformanceReportIn(reports);
  const measured = `exit ${code}, ${report.verdict.toUpperCase()}, ${report.totals.failed} failed, run error ${report.runError?.kind ?? 'none'}, ${(ms / 1000).toFixed(1)} s`;
  test.info().annotations.push({ type: 'measured', description: measured });
  console.log(`${test.info().title}: ${measured}`);
  return { code, output, report, ms };
}

/** FAIL, exit 1, and no run error: the server is charged, and nothing on the run's side stopped the run. */
export function expectFailWithoutRunError(run: Run): void {
  expect(run.code, run.output.slice(-3000)).toBe(1);
  expect(run.report.verdict).toBe('fail');
  expect(run.report.runError).toBeUndefined();
}

/** cliRun against a sandbox started with `options`, closed after. */
export async function cliAgainst(
  options: SandboxInput,
  env: Record<string, string>,
  without: readonly string[] = [],
): Promise<Run> {
  const sandbox = await start(options);
  try {
    return await cliRun(sandbox, env, without);
  } finally {
    await sandbox.close();
  }
}
