// A run's Allure step, after Playwright: the Allure history (CONFORMANCE_ALLURE_HISTORY) always gets the run's
// entry, so that trends carry over from run to run, and the HTML report (reports/allure/index.html) is
// rendered only when asked (CONFORMANCE_ALLURE_REPORT=1): rendering it cost about 1.4 s of every run, and
// most runs are read from the console, conformance.md or JUnit. The history is written by Allure's own
// library in this process, loaded while the suite runs, without the Allure command's start (all its
// commands and plugins).
import { existsSync } from 'node:fs';
import { suiteModule } from '../../run-state/package.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import { messageOf } from '../../text/error-message.ts';
import allurerc from '../report/allure/allurerc.ts';
import { allureCli } from './playwright.ts';
import { runInProcessGroup } from './process-group.ts';

const ALLURERC = suiteModule('src/runner/report/allure/allurerc.ts');

/** The HTML report and the history, by the Allure command: what it printed, on failure. */
async function renderReport(results: string): Promise<string> {
  const allure = await runInProcessGroup(
    process.execPath,
    [allureCli(), 'generate', results, '-o', reportPath('allure'), '-c', ALLURERC],
    { stdout: 'pipe' },
  );
  return allure.code === 0
    ? `Allure report: ${reportPath('allure/index.html')}`
    : `Allure report not rendered:\n${allure.output}`;
}

type AllureLibrary = typeof import('@allurereport/core');

/** The run's entry in the history, as `allure history` writes it. */
async function writeHistory(results: string, library: Promise<AllureLibrary>): Promise<string> {
  try {
    const { AllureReport, resolveConfig } = await library;
    // What Allure writes besides the history (a test-results.json) goes with the run's internals.
    const output = reportPath('.run/allure');
    const config = await resolveConfig(
      { name: allurerc.name, historyPath: allurerc.historyPath, output, plugins: {} },
      { plugins: {} },
    );
    const report = new AllureReport(config);
    await report.start();
    await report.readDirectory(results);
    await report.done();
    return `Allure results: ${results} (history ${allurerc.historyPath}; CONFORMANCE_ALLURE_REPORT=1 renders the HTML report)`;
  } catch (error) {
    return `Allure history not written: ${messageOf(error)}`;
  }
}

/**
 * The Allure step of a run, begun as the run starts: Allure's library loads (about 0.7 s of CPU) while the
 * suite runs. The function it returns finishes the step once the reporters wrote reports/allure-results,
 * and tells what to print.
 */
export function allureStep(renderHtml: boolean): () => Promise<string | undefined> {
  const library = renderHtml ? undefined : import('@allurereport/core');
  // Awaited only at the end: a failure to load is said then.
  library?.catch(() => undefined);
  return async () => {
    const results = reportPath('allure-results');
    if (!existsSync(results)) return undefined;
    return library ? writeHistory(results, library) : renderReport(results);
  };
}
