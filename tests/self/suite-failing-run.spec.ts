// A failing run costs what a clean one does, end to end against a sandbox started on its own (as any server
// would be). A check's failure keeps its worker (src/runner/report/kept-failures-reporter.ts): dozens of failed
// tests, and no worker started after the run's first ones, every failure still shown as one. A server that
// ignores start makes the start-filtered walks stop one record past what their start can select: the same
// requests as against a clean server, and the filter's failure alone. The wall times are printed, never
// asserted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import type { FaultName } from '../../sandbox/faults/index.ts';
import { readResult } from '../../src/result/validate.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';
import { cli, runProcess, suiteTestArgs } from '../../src/runner/run/run-step.ts';
import { suiteReporters } from '../../src/runner/run/suite-run.ts';
import { ctrfProblems, junitXsdProblems } from './ci-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';
import { sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

/** Two conformance workers, as a run has by default: either may be replaced after a failure. */
const WORKERS = 2;

interface JsonResult {
  workerIndex: number;
  status: string;
}
interface JsonSuite {
  specs?: { tests: { expectedStatus: string; status: string; results: JsonResult[] }[] }[];
  suites?: JsonSuite[];
}

const testsOf = (suite: JsonSuite): NonNullable<JsonSuite['specs']>[number]['tests'] => [
  ...(suite.specs ?? []).flatMap((spec) => spec.tests),
  ...(suite.suites ?? []).flatMap(testsOf),
];

/** The selection against a sandbox with `faults`, started on its own: its report, Playwright's tests, wall time. */
async function runAgainst(faults: FaultName[], grep: string) {
  const sandbox = await startSandbox({ port: 0, faults });
  const reports = scratchDir();
  try {
    const playwright = suiteTestArgs('--reporter', suiteReporters('json'));
    const { code, durationMs, output } = await runProcess(
      process.execPath,
      [playwrightCli(), ...playwright.args],
      {
        ...playwright.env,
        ...sandboxTargetEnv(sandbox, join(reports, `run-${faults.join('-') || 'clean'}`)),
        CONFORMANCE_GREP: grep,
        CONFORMANCE_WORKERS: String(WORKERS),
        PLAYWRIGHT_JSON_OUTPUT_FILE: join(reports, `results-${faults.join('-') || 'clean'}.json`),
      },
      true,
    );
    const dir = join(reports, `run-${faults.join('-') || 'clean'}`);
    const report = readResult(join(dir, 'conformance.json'));
    const json = JSON.parse(
      readFileSync(join(reports, `results-${faults.join('-') || 'clean'}.json`), 'utf8'),
    ) as { suites: JsonSuite[] };
    const tests = json.suites.flatMap(testsOf);
    console.log(`${faults.join(', ') || 'clean'}: ${durationMs} ms, ${report.totals.failed} failed tests`);
    return { code, output, report, tests, durationMs, dir };
  } finally {
    await sandbox.close();
  }
}

const failedRequirements = (report: ConformanceReport) =>
  report.requirements.filter((requirement) => requirement.status === 'fail').map(({ id }) => id);

test('dozens of failed checks: no worker is replaced, and every failure is shown as one', async () => {
  const grep = '@SCH-|@OP-LIST-|@PAG-|@FLT-|@ORD-';
  // At once: neither waits for the other, and both see the same machine.
  const [clean, broken] = await Promise.all([
    runAgainst([], grep),
    runAgainst(['envelope-records-renamed'], grep),
  ]);
  expect(clean.report.totals.failed).toBe(0);
  expect(broken.report.totals.failed, broken.output).toBeGreaterThanOrEqual(30);
  expect(failedRequirements(broken.report)).toContain('SCH-ENVELOPE');
  // The workers that ran a test: the run's first ones, none started after a failure.
  const workers = new Set(broken.tests.flatMap((t) => t.results.map((result) => result.workerIndex)));
  expect(workers.size).toBeLessThanOrEqual(WORKERS);
  // Shown as failures to every reporter (the JSON one here): not as expected ones.
  const failed = broken.tests.filter((t) => t.results.some((result) => result.status === 'failed'));
  expect(failed.length).toBe(broken.report.totals.failed);
  expect(failed.every((t) => t.expectedStatus === 'passed' && t.status === 'unexpected')).toBe(true);
  expect(broken.code).toBe(1);
  console.log(`failing / clean wall time: ${(broken.durationMs / clean.durationMs).toFixed(2)}`);
  // The failed tests keep their exchanges once, by id; a failure names the one it rests on, which is kept.
  const kept = new Map(broken.report.exchanges.map((exchange) => [exchange.id, exchange]));
  const listed = broken.report.tests.flatMap((t) => t.exchanges ?? []);
  const named = broken.report.tests.flatMap((t) =>
    t.findings.flatMap((f) => (f.exchange ? [f.exchange] : [])),
  );
  expect(listed.length, 'exchanges of the failed tests').toBeGreaterThan(0);
  expect(kept.size, 'each exchange once').toBe(broken.report.exchanges.length);
  expect(
    [...listed, ...named].filter((id) => !kept.has(id)),
    'ids the result keeps',
  ).toEqual([]);
  // A failure of a read the checks share (the walks) names that read's exchange and its offending field too.
  const failures = broken.report.tests.flatMap((t) => t.findings.filter((f) => f.outcome === 'fail'));
  expect(
    failures.filter((f) => !f.exchange).map((f) => f.message),
    'failures without their exchange',
  ).toEqual([]);
  expect(
    failures.filter((f) => f.requirement === 'SCH-ENVELOPE' && !f.fields?.includes('/body/records')),
    'the envelope failures name /body/records',
  ).toEqual([]);
  const [first] = kept.values();
  expect(first?.response.body.size).toBeGreaterThan(0);
  expect(first?.curl).toMatch(/^curl -i -X GET '/);
  const credentials = broken.report.exchanges.flatMap((exchange) =>
    Object.entries(exchange.request.headers).flatMap(([name, value]) =>
      /^authorization$/i.test(name) ? [value] : [],
    ),
  );
  expect(credentials.length, 'exchanges sent with a credential').toBeGreaterThan(0);
  expect(new Set(credentials)).toEqual(new Set(['<redacted>']));
  // Every form the run wrote is the result's alone: rendered again from conformance.json, the same bytes.
  const again = scratchDir();
  const [command, args] = cli('render', join(broken.dir, 'conformance.json'), '--out', again);
  expect((await runProcess(command, args, {}, true)).code).toBe(0);
  for (const form of ['conformance.md', 'junit.xml', 'junit-requirements.xml', 'ctrf-report.json'])
    expect(readFileSync(join(again, form), 'utf8'), form).toBe(readFileSync(join(broken.dir, form), 'utf8'));
  for (const form of ['junit.xml', 'junit-requirements.xml'])
    expect(await junitXsdProblems(readFileSync(join(broken.dir, form), 'utf8')), form).toEqual([]);
  expect(ctrfProblems(JSON.parse(readFileSync(join(broken.dir, 'ctrf-report.json'), 'utf8')))).toEqual([]);
});

test('a server that ignores start: the walks stop where the window ends, and only the filter fails', async () => {
  const grep = '@FLT-START|@PAG-';
  const [clean, ignored] = await Promise.all([
    runAgainst([], grep),
    runAgainst(['filter-start-ignored'], grep),
  ]);
  expect(clean.report.totals.failed).toBe(0);
  expect(failedRequirements(ignored.report)).toEqual(['FLT-START-EXCLUDES-EARLIER']);
  // The same walks, cut one record past the window: about the requests a clean server takes, give or take
  // the page past each window's end (a start ignored made the narrow window at limit 1 hundreds of pages,
  // 4.7 times the clean run's requests).
  expect(ignored.report.requestsSent).toBeLessThanOrEqual(Math.ceil(clean.report.requestsSent * 1.25));
  console.log(
    `requests: clean ${clean.report.requestsSent}, start ignored ${ignored.report.requestsSent}; failing / clean wall time: ${(ignored.durationMs / clean.durationMs).toFixed(2)}`,
  );
});
