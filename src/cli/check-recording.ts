// `physiology-conformance check-recording FILE...`: checks recorded exchanges (HAR 1.2 or NDJSON files,
// streamed) against the contract, sends nothing, writes reports/conformance.json and conformance.md, and
// exits with the run verdict: PASS 0, FAIL 1, INCOMPLETE 3 (2 for a usage error).

import { resolveEnvironment } from '../config/environment.ts';
import { read } from '../config/variables.ts';
import { requirements } from '../contract/requirements.ts';
import { checkRecordings } from '../recording/check-recordings.ts';
import { gateVerdict, withBaseline } from '../runner/report/baseline.ts';
import { buildReport } from '../runner/report/build-report.ts';
import { EXIT_CODES } from '../runner/report/exit-statuses.ts';
import { latencyTable } from '../runner/report/latency/latency.ts';
import { withLatency } from '../runner/report/latency/latency-budget.ts';
import type { ConformanceReport } from '../runner/report/model.ts';
import { verdictLine, writeReport } from '../runner/report/write-report.ts';

/** `physiology-conformance check-recording FILE...`: its exit status. */
export async function checkRecording(files: readonly string[]): Promise<number> {
  // The configuration this command reads, resolved once: latency budgets and the baseline to compare with.
  // A configuration or file error ends the command with status 2 (src/cli/commands/common.ts).
  const env = resolveEnvironment();
  const settings = {
    budgets: read(env, 'CONFORMANCE_LATENCY_BUDGET'),
    baseline: read(env, 'CONFORMANCE_BASELINE'),
    failOn: read(env, 'CONFORMANCE_FAIL_ON'),
  };
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const checked = await checkRecordings(files);
  const built = withLatency(
    {
      ...buildReport(checked.tally.summaries(), requirements, [], {
        target: 'recording',
        baseUrl: files.join(', '),
        profile: 'recording',
        environment: 'recorded',
        strict: false,
        startedAt,
        durationMs: Math.round(performance.now() - started),
        requestsSent: 0,
        interrupted: false,
        // The recording is judged as it is: what it holds is not a selection of the suite's tests.
        selection: [],
      }),
      recording: checked.recording,
    },
    latencyTable(checked.latency),
    settings.budgets,
  );
  const report: ConformanceReport = withBaseline(built, settings.baseline, settings.failOn);
  writeReport(report);
  const { exchanges, matched, unknown, exchangesPerSecond } = checked.recording;
  console.log(
    `${exchanges} recorded exchange(s): ${matched} checked, ${unknown} of no known operation; ${exchangesPerSecond} exchanges/s; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
  console.log(verdictLine(report));
  for (const reason of report.gateFailures) console.log(`  ${reason}`);
  for (const { id, reasons } of report.incomplete) console.log(`  not verified: ${id}: ${reasons[0] ?? ''}`);
  const verdict = gateVerdict(report);
  return verdict === 'error' ? EXIT_CODES.incomplete : EXIT_CODES[verdict];
}
