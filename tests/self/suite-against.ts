// Runs the conformance suite (a selection of it) against a sandbox a self test started, and reads back the
// report and what the sandbox served.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { credentialsPath } from '../../sandbox/credentials.ts';
import { readResult } from '../../src/result/validate.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';
import { runProcess, suiteTestArgs } from '../../src/runner/run/run-step.ts';
import { suiteReporters } from '../../src/runner/run/suite-run.ts';
import { scratchDir } from './scratch.ts';

/** The sandbox's fixed credentials, in the suite's variable names. */
export const sandboxEnv = parseEnv(readFileSync(credentialsPath, 'utf8'));

/** The variables of a run against `sandbox`, a target the run did not start, with its reports in `reports`. */
export const sandboxTargetEnv = (sandbox: RunningSandbox, reports: string): NodeJS.ProcessEnv => ({
  ...(sandboxEnv as Record<string, string>),
  CONFORMANCE_ENV_FILE: undefined,
  CONFORMANCE_SANDBOX_FAULTS: undefined,
  CONFORMANCE_TARGET: 'sandbox',
  CONFORMANCE_BASE_URL: sandbox.baseUrl,
  CONFORMANCE_AUTH_URL: sandbox.authUrl,
  CONFORMANCE_REPORTS_DIR: reports,
});

/**
 * Runs the suite (the tests CONFORMANCE_GREP selects, given in `env`); with `allReporters` the configured
 * reporters (HTML, JUnit, Allure...) write to the scratch dir too; `args` go to Playwright.
 */
export async function runSuiteAgainst(
  sandbox: RunningSandbox,
  env: NodeJS.ProcessEnv,
  allReporters = false,
  args: readonly string[] = [],
) {
  const reports = scratchDir();
  await fetch(`${sandbox.authUrl}/sandbox/requests`, { method: 'DELETE' });
  const playwright = suiteTestArgs(...(allReporters ? [] : ['--reporter', suiteReporters('dot')]), ...args);
  const { code, output } = await runProcess(
    process.execPath,
    [playwrightCli(), ...playwright.args],
    {
      ...playwright.env,
      ...sandboxTargetEnv(sandbox, reports),
      // A selection of a few tests: a second worker would cost more CPU to start than it saves.
      CONFORMANCE_WORKERS: '1',
      ...env,
    },
    true,
  );
  const report = readResult(join(reports, 'conformance.json'));
  const served = (await (await fetch(`${sandbox.authUrl}/sandbox/requests`)).json()) as {
    total: number;
    by_route: Record<string, number>;
  };
  return { code, report, served, reports, output };
}
