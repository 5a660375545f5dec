// The check-recording command run as a user runs it, in a child process: its exit code, its output and the
// result it wrote, read through the one validator every reader goes through.
import { join } from 'node:path';
import { readResult } from '../../src/result/validate.ts';
import { cli, runProcess } from '../../src/run/run-step.ts';
import { scratchDir } from './scratch.ts';

/** `check-recording files…`, writing its reports to `reports`, with `env` beside the process's own. */
export async function checkRecording(
  files: readonly string[],
  reports = scratchDir(),
  env: Record<string, string> = {},
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
