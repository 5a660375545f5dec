// Runs the conformance suite once, in a child process, with its own reports directory, and reads back
// its conformance report. Used by the benchmark and the flakiness check.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../report/model.ts';
import { playwrightCli } from './playwright.ts';
import { runCommand } from './run-step.ts';

export interface SuiteRun {
  wallMs: number;
  exitCode: number | null;
  report: ConformanceReport;
}

export async function runSuite(env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  try {
    const { code, durationMs } = await runCommand(
      process.execPath,
      [playwrightCli(), 'test', '--reporter', 'dot,./src/report/conformance-reporter.ts', ...args],
      { CONFORMANCE_BASE_URL: '', ...env, CONFORMANCE_REPORTS_DIR: dir },
    );
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    return { wallMs: durationMs, exitCode: code, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
