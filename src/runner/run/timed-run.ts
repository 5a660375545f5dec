// One conformance run, timed by phase for `npm run bench`: the wall time of the `run` command, split into the
// time until the first test starts, the tests (to the last one's end, and per spec file: Playwright's JSON
// report) and the time after the last; global setup, target starts, logins and teardown as the run recorded
// them (src/run-state/phase-log.ts), which overlap those (global setup the workers' start, logins the
// tests); requests sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Phase, recordedPhases } from '../../run-state/phase-log.ts';
import type { ConformanceReport } from '../report/model.ts';
import type { SuiteCommand } from './run-step.ts';
import { conformanceReportIn, reportOf, runInOwnDirectory } from './suite-run.ts';

export interface RunTiming {
  wallMs: number;
  verdict: string;
  tests: number;
  requests: number;
  /** The requests by kind of credential, and by requirement family (conformance.json's tally). */
  requestTally?: ConformanceReport['requests'];
  /** Milliseconds per phase (summed over its occurrences: logins happen in every worker). */
  phases: Partial<Record<Phase | 'tests' | 'until the first test' | 'after the last test', number>>;
  /** Milliseconds of test time per spec file (summed over workers). */
  files: Record<string, number>;
}

interface JsonSuite {
  specs?: { file: string; tests: { results: { startTime: string; duration: number }[] }[] }[];
  suites?: JsonSuite[];
}

/** Every test result of a JSON report's suite, with the spec file that declares it. */
const resultsOf = (suite: JsonSuite): { file: string; start: number; duration: number }[] => [
  ...(suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((test) =>
      test.results.map((result) => ({
        file: spec.file,
        start: Date.parse(result.startTime),
        duration: result.duration,
      })),
    ),
  ),
  ...(suite.suites ?? []).flatMap(resultsOf),
];

/** The timing a run's directory holds, but for its wall time, and when its first test began and last ended. */
function timingIn(dir: string): Omit<RunTiming, 'wallMs'> & { window: { first: number; last: number } } {
  const report = conformanceReportIn(dir);
  const { suites } = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { suites: JsonSuite[] };
  const results = suites.flatMap(resultsOf);
  const files: Record<string, number> = {};
  for (const { file, duration } of results) files[file] = (files[file] ?? 0) + duration;
  const first = Math.min(...results.map((result) => result.start));
  const last = Math.max(...results.map((result) => result.start + result.duration));
  const phases: RunTiming['phases'] = { tests: results.length > 0 ? last - first : 0 };
  for (const [phase, total] of Object.entries(recordedPhases(dir))) phases[phase as Phase] = total.ms;
  return {
    window: { first, last },
    verdict: report.verdict,
    tests: report.tests.length,
    requests: report.requestsSent,
    requestTally: report.requests,
    phases,
    files,
  };
}

/** The suite's `run` command, as a user runs it (every configured reporter, the Allure step), timed. */
export async function timedRun(env: NodeJS.ProcessEnv, command?: SuiteCommand): Promise<RunTiming> {
  const started = Date.now();
  const run = await runInOwnDirectory({
    env,
    command,
    quiet: true,
    // The configured reporters write Playwright's JSON report where this variable asks.
    prepare: (dir) => ({ PLAYWRIGHT_JSON_OUTPUT_FILE: join(dir, 'results.json') }),
    read: timingIn,
  });
  const { phases, window, ...timing } = reportOf(run);
  // The wall time before the first test (the command's, Playwright's and the workers' start, loading the
  // test files, global setup, which overlaps the workers' start) and after the last (teardown, the
  // reporters, the Allure step, the processes' exit).
  phases['until the first test'] = window.first - started;
  phases['after the last test'] = started + run.wallMs - window.last;
  return { ...timing, phases, wallMs: run.wallMs };
}
