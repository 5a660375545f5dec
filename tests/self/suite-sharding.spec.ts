// Sharding splits the run and never repeats it: the isolated tests (revocation, the 429 burst) run in the
// last shard only, the target sees one revocation sequence, and the merged report holds each test once,
// with the same verdicts as an unsharded run. The commands are docs/sharding.md's.
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { expect, test } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import { credentialsPath } from '../../sandbox/credentials.ts';
import type { ConformanceReport } from '../../src/report/model.ts';
import { playwrightCli } from '../../src/run/playwright.ts';
import { runProcess } from '../../src/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

const REVOKE = 'DELETE /developer/v2/user/access';

function envFor(sandbox: RunningSandbox, reports: string): NodeJS.ProcessEnv {
  return {
    ...(parseEnv(readFileSync(credentialsPath, 'utf8')) as Record<string, string>),
    CONFORMANCE_ENV_FILE: undefined,
    CONFORMANCE_TARGET: 'sandbox',
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_REPORTS_DIR: reports,
    // The revocation tests (isolated) and a few shared ones, so that both shards get some.
    CONFORMANCE_GREP: '@REVOKE-|@OP-REVOKE-ACCESS|@PAG-LIMIT-MAX(?=\\s|$)|@PAG-LIMIT-OVER-MAX',
  };
}

const revocations = async (sandbox: RunningSandbox): Promise<number> =>
  (
    (await (await fetch(`${sandbox.authUrl}/sandbox/requests`)).json()) as {
      by_route: Record<string, number>;
    }
  ).by_route[REVOKE] ?? 0;

const verdicts = (report: ConformanceReport) =>
  Object.fromEntries(report.tests.map((t) => [t.title, t.outcome]));

/** Why the tests whose outcome differs between two reports ended as they did, to tell a cause from a glance. */
function differences(sharded: ConformanceReport, unsharded: ConformanceReport): string {
  const before = verdicts(unsharded);
  return sharded.tests
    .filter((t) => before[t.title] !== t.outcome)
    .map(
      (t) =>
        `${t.title}: ${before[t.title]} unsharded, ${t.outcome} sharded: ${t.error ?? t.skipReason ?? ''}`,
    )
    .join('\n');
}

test('a two-shard run runs every test once, revokes once, and merges into the unsharded report', async () => {
  const whole = await startSandbox({ port: 0 });
  const reportsWhole = scratchDir();
  let unsharded: ConformanceReport;
  let revokedWhole: number;
  try {
    await runProcess(
      process.execPath,
      [playwrightCli(), 'test', '--reporter', 'dot,./src/report/conformance-reporter.ts'],
      envFor(whole, reportsWhole),
      true,
    );
    unsharded = JSON.parse(readFileSync(join(reportsWhole, 'conformance.json'), 'utf8'));
    revokedWhole = await revocations(whole);
  } finally {
    await whole.close();
  }

  const sandbox = await startSandbox({ port: 0 });
  const reports = scratchDir();
  const blobs = join(reports, 'all-blob-reports');
  mkdirSync(blobs, { recursive: true });
  try {
    for (const shard of ['1/2', '2/2']) {
      const out = join(reports, `blob-${shard.replace('/', '-')}`);
      await runProcess(
        process.execPath,
        [
          playwrightCli(),
          'test',
          `--shard=${shard}`,
          '--reporter=./src/report/kept-failures-reporter.ts,blob',
        ],
        { ...envFor(sandbox, reports), PLAYWRIGHT_BLOB_OUTPUT_DIR: out },
        true,
      );
      for (const file of readdirSync(out)) cpSync(join(out, file), join(blobs, file));
    }
    const revokedSharded = await revocations(sandbox);
    await runProcess(
      process.execPath,
      [playwrightCli(), 'merge-reports', '--reporter', './src/report/conformance-reporter.ts', blobs],
      envFor(sandbox, reports),
      true,
    );
    const merged = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(revokedWhole, 'the selection revokes').toBeGreaterThan(0);
    expect(revokedSharded, 'revocations the target saw').toBe(revokedWhole);
    expect(merged.tests.length).toBe(unsharded.tests.length);
    expect(new Set(merged.tests.map((t) => t.title)).size, 'each test once').toBe(merged.tests.length);
    expect(verdicts(merged), differences(merged, unsharded)).toEqual(verdicts(unsharded));
    expect(merged.verdict).toBe(unsharded.verdict);
    // Every shard merged: the run's own selection, as unsharded (each shard's blob carried it); one shard
    // merged alone is narrowed by the other.
    expect(unsharded.selection).toEqual([expect.stringMatching(/^CONFORMANCE_GREP=/)]);
    expect(merged.selection).toEqual(unsharded.selection);
    const firstOnly = join(reports, 'first-shard-only');
    cpSync(join(reports, 'blob-1-2'), firstOnly, { recursive: true });
    const partialReports = join(reports, 'partial');
    await runProcess(
      process.execPath,
      [playwrightCli(), 'merge-reports', '--reporter', './src/report/conformance-reporter.ts', firstOnly],
      envFor(sandbox, partialReports),
      true,
    );
    const partial = JSON.parse(
      readFileSync(join(partialReports, 'conformance.json'), 'utf8'),
    ) as ConformanceReport;
    expect(partial.selection).toEqual([...unsharded.selection, '--shard 2/2 not merged']);
  } finally {
    await sandbox.close();
  }
});
