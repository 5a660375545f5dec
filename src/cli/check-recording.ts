// `npm run check-recording -- FILE...`: checks recorded exchanges (HAR 1.2 or NDJSON files, streamed)
// against the contract, sends nothing, writes reports/conformance.json and conformance.md, and exits with
// the run verdict: PASS 0, FAIL 1, INCOMPLETE 3 (2 for a usage error).

import { resolveEnvironment } from '../config/environment.ts';
import type { FailOn } from '../config/suite-config.ts';
import type { LatencyBudgets } from '../config/variable-parsers.ts';
import { read } from '../config/variables.ts';
import { requirements } from '../contract/requirements.ts';
import { checkRecordings } from '../recording/check-recordings.ts';
import { gateVerdict, withBaseline } from '../report/baseline.ts';
import { buildReport } from '../report/build-report.ts';
import { latencyTable } from '../report/latency.ts';
import { withLatency } from '../report/latency-budget.ts';
import { type ConformanceReport, INCOMPLETE_EXIT_CODE } from '../report/model.ts';
import { verdictLine, writeReport } from '../report/write-report.ts';

const files = process.argv.slice(2).filter((arg) => arg !== '--');
if (files.length === 0) {
  console.error('usage: npm run check-recording -- FILE.har|FILE.ndjson ...');
  process.exit(2);
}

// The configuration this command reads, resolved once: latency budgets and the baseline to compare with.
let settings: { budgets: LatencyBudgets; baseline?: string; failOn: FailOn };
try {
  const env = resolveEnvironment();
  settings = {
    budgets: read(env, 'CONFORMANCE_LATENCY_BUDGET'),
    baseline: read(env, 'CONFORMANCE_BASELINE'),
    failOn: read(env, 'CONFORMANCE_FAIL_ON'),
  };
} catch (error) {
  console.error(`check-recording: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const startedAt = new Date().toISOString();
const started = performance.now();
let checked: Awaited<ReturnType<typeof checkRecordings>>;
try {
  checked = await checkRecordings(files);
} catch (error) {
  console.error(`check-recording: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
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
process.exit(verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : INCOMPLETE_EXIT_CODE);
