// The check-recording command run as a user runs it, in a child process, on recordings written for the test:
// its exit code, its output and the result it wrote, read through the one validator every reader goes through.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harText } from '../../src/recording/synthetic-har.ts';
import { readResult } from '../../src/result/validate.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { scratchDir } from './scratch.ts';

/** A HAR of `entries`, written as `name` in the test's scratch folder; its path. */
export function writeHar(name: string, entries: readonly object[]): string {
  const file = join(scratchDir(), name);
  writeFileSync(file, harText(entries));
  return file;
}

/** `check-recording files…`, writing its reports to `reports`, with `env` beside the process's own. */
export async function checkRecording(
  files: readonly string[],
  { reports = scratchDir(), env = {} }: { reports?: string; env?: Record<string, string> } = {},
) {
  const [command, args] = cli('check-recording', ...files);
  const { code, output } = await runProcess(
    command,
    args,
    { CONFORMANCE_REPORTS_DIR: reports, ...env },
    true,
  );
  return { code, output, reports, report: readResult(join(reports, 'conformance.json')) };
}
