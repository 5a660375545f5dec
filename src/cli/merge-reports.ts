// `physiology-conformance merge-reports DIR...`: the shards of one run (`run --shard i/n`), merged into one
// run's reports by Playwright's merge of blob reports: one conformance.json and its forms, one HTML report,
// one verdict and exit status. A shard missing from the merge narrows the run (src/config/selection.ts).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { storeExpiries } from '../auth/expired-tokens.ts';
import { ConfigError } from '../config/config-error.ts';
import { environmentLayers } from '../config/environment.ts';
import { RUN_MANIFEST_FILE, resolveRun, writeRunManifest } from '../config/run-manifest.ts';
import { incompleteAllowed } from '../config/selection.ts';
import { MATRIX_REPORT, REPORT_FILES } from '../report/write-report.ts';
import { allureStep } from '../run/allure-step.ts';
import { playwrightCli } from '../run/playwright.ts';
import { runInProcessGroup } from '../run/process-group.ts';
import { reportExitCode } from '../run/report-exit.ts';
import { builtPlaywrightVariables, suiteModule } from '../run-state/package.ts';
import { reportPath } from '../run-state/reports-dir.ts';

const MERGE_CONFIG = suiteModule('src/run/merge.config.ts');

/** The blob reports (report-*.zip) in `dirs` and the folders under them (a CI's downloaded artifacts). */
function blobsIn(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.zip'))
      .map((name) => join(dir, name));
  });
}

/**
 * The merge's run manifest, which the reporter reads as it reads a run's: the configuration resolved from
 * the variables the merge is given (the shards' own stayed on their machines), of a run that sends nothing
 * here; none when the configuration does not resolve, and the report then names no target.
 */
function writeMergeManifest(): string | undefined {
  const path = reportPath(RUN_MANIFEST_FILE);
  rmSync(path, { force: true });
  mkdirSync(dirname(path), { recursive: true });
  try {
    const layers = environmentLayers();
    const facts = {
      startedAt: new Date().toISOString(),
      requestLog: '',
      unansweredLog: '',
      coordinatorUrl: '',
    };
    writeRunManifest(path, resolveRun(layers, facts, storeExpiries), layers);
    return path;
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

/**
 * Its exit status: the merged run's verdict's, as `run` gives it (Playwright's merge ends 0 whatever its
 * reporters say); `allowIncomplete`: CONFORMANCE_ALLOW_INCOMPLETE.
 */
export async function mergeReports(
  dirs: readonly string[],
  { allureReport, allowIncomplete }: { allureReport: boolean; allowIncomplete: boolean },
): Promise<number> {
  const blobs = blobsIn(dirs);
  if (blobs.length === 0) throw new Error(`no blob report (*.zip) in ${dirs.join(', ')}`);
  for (const name of [...REPORT_FILES, MATRIX_REPORT]) rmSync(reportPath(name), { force: true });
  // Playwright merges one folder: every shard's blob in one, by a name of its own.
  const all = mkdtempSync(join(tmpdir(), 'conformance-blobs-'));
  try {
    for (const [index, blob] of blobs.entries()) copyFileSync(blob, join(all, `${index}-${basename(blob)}`));
    const finishAllure = allureStep(allureReport);
    const manifest = writeMergeManifest();
    const merged = await runInProcessGroup(
      process.execPath,
      [playwrightCli(), 'merge-reports', '-c', MERGE_CONFIG, all],
      {
        env: {
          ...process.env,
          ...builtPlaywrightVariables(),
          ...(manifest ? { CONFORMANCE_RUN_MANIFEST: manifest } : {}),
        },
      },
    );
    const allure = await finishAllure();
    if (allure) console.log(allure);
    if (merged.code > 128) return merged.code;
    return reportExitCode(merged.code, (report) => incompleteAllowed(allowIncomplete, report));
  } finally {
    rmSync(all, { recursive: true, force: true });
  }
}
