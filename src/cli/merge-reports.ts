// `physiology-conformance merge-reports DIR...`: the shards of one run (`run --shard i/n`), merged into one
// run's reports by Playwright's merge of blob reports: one conformance.json and its forms, one HTML report,
// one verdict and exit status. Each blob carries its shard's record (src/runner/report/shard-record.ts): blobs of
// shards that differ in target, profile, suite version or shard total, or a run with a shard missing, are
// refused before the merge (exit 2, naming the difference).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import AdmZip from 'adm-zip';
import { storeExpiries } from '../auth/expired-tokens.ts';
import { ConfigError } from '../config/config-error.ts';
import { environmentLayers } from '../config/environment.ts';
import { RUN_MANIFEST_FILE, resolveRun, writeRunManifest } from '../config/run-manifest.ts';
import { incompleteAllowed } from '../config/selection.ts';
import { builtPlaywrightVariables, suiteModule } from '../run-state/package.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { mergeDifferences, type ShardRecord, shardRecordsOf } from '../runner/report/shard-record.ts';
import { MATRIX_REPORT, REPORT_FILES } from '../runner/report/write-report.ts';
import { allureStep } from '../runner/run/allure-step.ts';
import { playwrightCli } from '../runner/run/playwright.ts';
import { runInProcessGroup } from '../runner/run/process-group.ts';
import { reportExitCode } from '../runner/run/report-exit.ts';

const MERGE_CONFIG = suiteModule('src/runner/run/merge.config.ts');

/** The blob reports (report-*.zip) in `dirs` and the folders under them (a CI's downloaded artifacts). */
function blobsIn(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.zip'))
      .map((name) => join(dir, name));
  });
}

/** The shard's record a blob report carries, read from its configuration, the first event of its report.jsonl. */
function shardRecordIn(blob: string): ShardRecord {
  const text = new AdmZip(blob).getEntry('report.jsonl')?.getData().toString('utf8') ?? '';
  for (const line of text.split('\n')) {
    if (!line.includes('"onConfigure"')) continue;
    const event = JSON.parse(line) as { params?: { config?: { metadata?: Record<string, unknown> } } };
    const [record] = shardRecordsOf(event.params?.config?.metadata ?? {});
    if (record) return record;
    break;
  }
  throw new Error(
    `${blob} carries no shard's record: not the blob report of \`run --shard i/n\` (or of an older suite's)`,
  );
}

/** The blobs' shards, refused (an input error, exit 2) where they are not every shard of one run. */
function shardsOf(blobs: readonly string[]): ShardRecord[] {
  const records = blobs.map(shardRecordIn);
  const differences = mergeDifferences(records);
  if (differences.length > 0)
    throw new Error(`not merged, the blob reports are not one whole run's: ${differences.join('; ')}`);
  return records;
}

/**
 * The merge's run manifest, which the reporter reads as it reads a run's: the configuration resolved from
 * the variables the merge is given, of a run that sends nothing here: what this job decides (the secrets to
 * redact, the expectations, the baseline, the signing key), never the run's target or profile (the shards'
 * records state those); none when the configuration does not resolve.
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
  const [first] = shardsOf(blobs);
  console.log(
    `merging ${blobs.length} shard(s) of one run: ${first?.run ? `${first.run.target} ${first.run.where}, profile ${first.run.profile}` : 'no target resolved'}, suite ${first?.suiteVersion} (the shards' own, whatever this job's variables say)`,
  );
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
