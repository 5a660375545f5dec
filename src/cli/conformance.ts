// `npm run conformance [-- playwright args]`: runs the conformance suite (playwright.config.ts), then
// renders the Allure report, and exits with the suite's verdict. Playwright runs in its own process group:
// a Ctrl-C or SIGTERM of this command reaches it and its workers, and none of them outlives the run
// (exit status 130 or 143 then).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gateVerdict } from '../report/baseline.ts';
import { type ConformanceReport, INCOMPLETE_EXIT_CODE } from '../report/model.ts';
import { allureCli, playwrightCli } from '../run/playwright.ts';
import { runInProcessGroup } from '../run/process-group.ts';
import { reportPath } from '../run/reports-dir.ts';
import { clearStop, newStopFile, requestStop, STOP_FILE_VARIABLE } from '../run/stop-file.ts';

/** The run (`physiology-conformance run`): Playwright test with `playwrightArgs`, then Allure; its exit status. */
export async function runConformance(playwrightArgs: readonly string[]): Promise<number> {
  const stopFile = newStopFile();
  const suite = await runInProcessGroup(process.execPath, [playwrightCli(), 'test', ...playwrightArgs], {
    env: { ...process.env, [STOP_FILE_VARIABLE]: stopFile },
    beforeStop: () => requestStop(stopFile),
  });
  clearStop(stopFile);

  if (existsSync(reportPath('allure-results'))) {
    const allure = await runInProcessGroup(
      process.execPath,
      [
        allureCli(),
        'generate',
        reportPath('allure-results'),
        '-o',
        reportPath('allure'),
        '-c',
        fileURLToPath(new URL('../report/allurerc.ts', import.meta.url)),
      ],
      { stdout: 'pipe' },
    );
    console.log(
      allure.code === 0
        ? `Allure report: ${reportPath('allure/index.html')}`
        : `Allure report not rendered:\n${allure.output}`,
    );
  }

  return exitCode(suite.code);
}

/**
 * The run verdict as the exit status: PASS 0, FAIL 1, INCOMPLETE 3 (0 with CONFORMANCE_ALLOW_INCOMPLETE=1,
 * which the reporter already applied to Playwright's status). A signal's status, or a run that wrote no
 * report, is passed through.
 */
function exitCode(playwrightCode: number): number {
  if (playwrightCode > 128 || !existsSync(reportPath('conformance.json'))) return playwrightCode;
  const verdict = gateVerdict(
    JSON.parse(readFileSync(reportPath('conformance.json'), 'utf8')) as ConformanceReport,
  );
  if (verdict === 'incomplete') return playwrightCode === 0 ? 0 : INCOMPLETE_EXIT_CODE;
  return verdict === 'pass' ? 0 : 1;
}
