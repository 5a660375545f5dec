// One conformance run, timed by phase for `npm run bench`: the wall time of the command; global setup,
// target starts, logins and teardown as the run recorded them (./phase-log.ts); the tests, from the first
// test's start to the last one's end, and per spec file (Playwright's JSON report); the rest (start-up and
// reporting); requests sent. Logins happen inside the tests' time, in every worker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../report/model.ts';
import { type Phase, recordedPhases } from '../run-state/phase-log.ts';
import { conformanceReportIn, reportOf, runInOwnDirectory, suiteReporters } from './suite-run.ts';

export interface RunTiming {
  wallMs: number;
  verdict: string;
  tests: number;
  requests: number;
  /** The requests by kind of credential, and by requirement family (conformance.json's tally). */
  requestTally?: ConformanceReport['requests'];
  /** Milliseconds per phase (summed over its occurrences: logins happen in every worker). */
  phases: Partial<Record<Phase | 'tests' | 'start-up and reporting', number>>;
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

/** The timing a run's directory holds, but for its wall time (known once the run has ended). */
function timingIn(dir: string): Omit<RunTiming, 'wallMs'> {
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
    verdict: report.verdict,
    tests: report.tests.length,
    requests: report.requestsSent,
    requestTally: report.requests,
    phases,
    files,
  };
}

export async function timedRun(env: NodeJS.ProcessEnv): Promise<RunTiming> {
  const run = await runInOwnDirectory({
    env,
    quiet: true,
    reporters: suiteReporters('json'),
    prepare: (dir) => ({ PLAYWRIGHT_JSON_OUTPUT_FILE: join(dir, 'results.json') }),
    read: timingIn,
  });
  const timing = reportOf(run);
  const { phases } = timing;
  // The rest of the wall time: Playwright's start, loading the test files, starting workers, reporting.
  phases['start-up and reporting'] =
    run.wallMs - (phases['global setup'] ?? 0) - (phases.tests ?? 0) - (phases.teardown ?? 0);
  return { ...timing, wallMs: run.wallMs };
}
