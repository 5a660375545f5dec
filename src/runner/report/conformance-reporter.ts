// Playwright reporter that turns test results into the conformance result (reports/conformance.json, from
// which every other form is rendered: src/runner/report/write-report.ts), and decides the run verdict (PASS, FAIL,
// INCOMPLETE or ERROR), which it also writes into the Allure results, and which becomes the run's exit
// status. A matrix run (CONFORMANCE_MATRIX) gets one report per target instead, in reports/matrix.json.

import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { profileRow } from '../../config/profiles.ts';
import { currentRunManifest, type RunManifest } from '../../config/run-manifest.ts';
import { targetNameOf } from '../../config/run-plan.ts';
import { secretsOf } from '../../config/secrets.ts';
import { incompleteAllowed, judgedSelection } from '../../config/selection.ts';
import { requirements } from '../../contract/requirements.ts';
import { registerSecret } from '../../http/redact.ts';
import { budgeted, rateLimitedAnswers, requestsSent, requestTally } from '../../http/request-counter.ts';
import { type LatencySample, samplesFromAnnotations } from '../../protocol/latency-samples.ts';
import { keptExchangesOf, type RunFinding, recordedRunFindings } from '../../protocol/run-findings.ts';
import { recordedSlowRequests, type SlowRequestRecord } from '../../protocol/slow-requests.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import { recordedRunError } from '../../run-state/run-error.ts';
import { allureFullName, markStoppedInAllure } from './allure/allure-stopped.ts';
import { markAllure } from './allure/allure-verdict.ts';
import { exitStatusOf, gateVerdict, withBaseline } from './baseline.ts';
import { buildReport, type RunMeta } from './build-report.ts';
import { certified } from './certificate.ts';
import { EXIT_CODES, exitLine } from './exit-statuses.ts';
import { loadExpectations } from './expectations.ts';
import { inputsSection, plannedRequests } from './input-coverage.ts';
import { answerTimesInWords, latencyTable } from './latency/latency.ts';
import { withLatency } from './latency/latency-budget.ts';
import { lateSamples, sendingFailures, sentTwice, slowRequestRows } from './latency/slow-requests.ts';
import type { ConformanceReport } from './model.ts';
import { historyEntryOf } from './page/from-report.ts';
import { progressLine } from './progress-line.ts';
import { appendHistory, requirementHistoryPath } from './requirement-history.ts';
import {
  mergeDifferences,
  runFactsOf,
  type ShardsAsOneRun,
  shardRecordsOf,
  shardsAsOneRun,
} from './shard-record.ts';
import { testExchanges, withExchanges } from './test-exchanges.ts';
import { summarise, summariseRunFinding } from './test-result.ts';
import { PAGE, verdictLine, writeMatrixReport, writeReport } from './write-report.ts';

/**
 * The manifest of the run (or of one of its target instances), written by its global setup or by
 * `merge-reports`; undefined when none was written (a run error stopped global setup first).
 */
function runManifest(instance = 0): RunManifest | undefined {
  try {
    return currentRunManifest(instance);
  } catch {
    return undefined;
  }
}

/** The target of the run a test ran against (a matrix names each), and that target's instance. */
function targetOf(test: TestCase): { name: string; instance: number } {
  const name = targetNameOf(test.annotations);
  const metadata = test.parent.project()?.metadata as { instances?: Record<string, number> } | undefined;
  return { name, instance: metadata?.instances?.[name] ?? 0 };
}

/** The answer times a test's worker handed over (its latency annotations, of every attempt). */
const testSamples = (test: TestCase) =>
  test.results.flatMap((result) => samplesFromAnnotations([...result.annotations]));

/**
 * Why a check the run's budget ended did not finish: the budget and how long the target took to answer, the
 * time the run spent waiting for it (src/worker/session/run-waits.ts), never the suite's error nor the target's failure.
 */
const budgetSpent = (manifest: RunManifest | undefined, samples: readonly LatencySample[]): string =>
  `did not finish: the run's budget (CONFORMANCE_RUN_TIMEOUT_S=${manifest?.options.runTimeoutSeconds ?? '?'}) was spent first; ${answerTimesInWords(samples)}: a longer budget, or CONFORMANCE_DEPTH=budgeted, lets it finish`;

/** The findings the console shows at the end, worst first; conformance.md has them all. */
const CONSOLE_FINDINGS = 20;

/** The console's end: at most CONSOLE_FINDINGS findings, then the verdict, its exit status and the reports. */
function printEnding(report: ConformanceReport, allowIncomplete: boolean): void {
  // What a narrowed run left out is one line, not one per requirement.
  const tested = new Set(
    report.requirements.flatMap((result) => (result.tests.length > 0 ? [result.id] : [])),
  );
  const ran = report.incomplete.filter(({ id }) => tested.has(id));
  const notRun = report.incomplete.length - ran.length;
  const findings = [
    ...report.gateFailures.map((reason) => `  gate: ${reason}`),
    // Under a run error, what it stopped is one line, not one per requirement.
    ...(report.runError
      ? [`  not verified: ${report.incomplete.length} MUST requirement(s), blocked by the run error`]
      : ran.map(
          ({ id, reasons }) =>
            `  not verified: ${id}: ${reasons[0] ?? ''}${reasons.length > 1 ? ` (+${reasons.length - 1})` : ''}`,
        )),
    ...(notRun > 0 && !report.runError
      ? [
          `  not in this run: ${notRun} MUST requirement(s), ${report.selection.length > 0 ? 'the run was narrowed' : 'no test of the run declares them'}`,
        ]
      : []),
  ];
  for (const line of findings.slice(0, CONSOLE_FINDINGS)) console.log(line);
  if (findings.length > CONSOLE_FINDINGS)
    console.log(`  … and ${findings.length - CONSOLE_FINDINGS} more in conformance.md`);
  console.log(`\n${verdictLine(report)}`);
  const status = exitStatusOf(report);
  console.log(
    status === 'incomplete' && allowIncomplete
      ? `exit ${EXIT_CODES.pass}: INCOMPLETE allowed (CONFORMANCE_ALLOW_INCOMPLETE=1)`
      : exitLine(status),
  );
  for (const file of [
    PAGE,
    'conformance.md',
    'html/index.html',
    'junit.xml',
    'junit-requirements.xml',
    'ctrf-report.json',
  ])
    console.log(`  ${reportPath(file)}`);
}

/** How often the console shows the run's progress against its plan. */
const PROGRESS_EVERY_MS = 30_000;

export default class ConformanceReporter implements Reporter {
  private suite: Suite | undefined;
  private rootDir = '';
  /** What narrowed the run (empty: the whole profile), recorded by playwright.config.ts. */
  private selection: string[] = [];
  /** A merge of shards' blob reports: their records as one run's (src/runner/report/shard-record.ts). */
  private merged: ShardsAsOneRun | undefined;
  private lastProgress = Date.now();
  private testsEnded = 0;
  /** The requests the run's depth plan expects, once a test recorded the plan. */
  private plannedRequests: number | undefined;

  onBegin(config: FullConfig, suite: Suite): void {
    this.suite = suite;
    this.rootDir = config.rootDir;
    this.selection = judgedSelection(config.metadata, config.shard);
    this.merged = mergedShardsOf(config.metadata);
  }

  /** Every half minute: tests done, requests sent against the run's depth plan, and the time left. */
  onTestEnd(test: TestCase): void {
    this.testsEnded += 1;
    this.plannedRequests = plannedRequests(test.annotations) ?? this.plannedRequests;
    if (Date.now() - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = Date.now();
    const manifest = runManifest();
    if (!manifest || !this.suite) return;
    const left =
      Date.parse(manifest.startedAt) / 1000 + manifest.options.runTimeoutSeconds - Date.now() / 1000;
    console.log(
      `progress: ${this.testsEnded}/${this.suite.allTests().length} tests, ${progressLine(requestsSent(manifest.requestLog), this.plannedRequests, left)}`,
    );
  }

  printsToStdio(): boolean {
    return false;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    if (!this.suite) return undefined;
    const tests = this.suite.allTests();
    // `playwright test --list` ends "passed" without running anything: there is nothing to report.
    if (result.status === 'passed' && tests.every((test) => test.results.length === 0)) return undefined;
    const targets = new Map<string, TestCase[]>();
    for (const test of tests) {
      const { name } = targetOf(test);
      const ofTarget = targets.get(name);
      if (ofTarget) ofTarget.push(test);
      else targets.set(name, [test]);
    }
    // No test at all (global setup never ended): the run's own report, which says why.
    if (targets.size > 0 && !targets.has('')) return this.writeMatrix(targets, result);
    const manifest = runManifest();
    // Every form below reads the result as written (conformance.json), and nothing else.
    const report = writeReport(
      await conformanceReport(
        tests,
        manifest,
        result,
        this.selection,
        this.merged?.runFindings ?? recordedRunFindings(),
        this.merged,
      ),
    );
    // The run's line of the requirement history, for the trend of the next runs' pages.
    appendHistory(requirementHistoryPath(), historyEntryOf(report));
    markAllure(report);
    markStoppedInAllure(reportPath('allure-results'), this.stoppedAfterThrowing(tests, report));
    const allowIncomplete = incompleteAllowed(manifest?.config.allowIncomplete === true, report);
    printEnding(report, allowIncomplete);
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    // The run verdict decides the exit status: documented deviations do not fail the run, an INCOMPLETE
    // run fails it unless CONFORMANCE_ALLOW_INCOMPLETE=1 (src/cli/conformance.ts maps it to its own code).
    const verdict = gateVerdict(report);
    const ok = verdict === 'pass' || (verdict === 'incomplete' && allowIncomplete);
    return { status: ok ? 'passed' : 'failed' };
  }

  /** The tests the run error stopped, by Allure name, with the reason (the report keeps the tests' order). */
  private stoppedAfterThrowing(tests: readonly TestCase[], report: ConformanceReport): Map<string, string> {
    const stopped = new Map<string, string>();
    tests.forEach((test, index) => {
      const summary = report.tests[index];
      if (summary?.outcome === 'error')
        stopped.set(allureFullName(this.rootDir, test), summary.skipReason ?? '');
    });
    return stopped;
  }

  /**
   * A matrix run (the mutation and variant gates): one report per target, in reports/matrix.json, for the
   * command that judges them; the run's own status stays Playwright's.
   */
  private async writeMatrix(targets: Map<string, TestCase[]>, result: FullResult): Promise<undefined> {
    const reports: Record<string, ConformanceReport> = {};
    for (const [name, tests] of targets) {
      const [first] = tests;
      reports[name] = await conformanceReport(
        tests,
        runManifest(first ? targetOf(first).instance : 0),
        result,
        this.selection,
      );
    }
    writeMatrixReport(reports);
    return undefined;
  }
}

/**
 * What the report says of the run itself: its target and profile, when and how long it ran, what it sent. A
 * merge of shards states theirs (their records), never the merging job's variables.
 */
function runMetaOf(
  manifest: RunManifest | undefined,
  result: FullResult,
  selection: string[],
  merged: ShardsAsOneRun | undefined,
): Omit<RunMeta, 'exchanges'> {
  const own = manifest ? runFactsOf(manifest) : undefined;
  const run = merged ? merged.run : own?.run;
  const log = manifest?.requestLog;
  const tally = merged?.requests.tally ?? requestTally(log);
  return {
    target: run?.target ?? 'unknown',
    baseUrl: run?.baseUrl ?? '',
    profile: run?.profile ?? 'ci-gate',
    environment: run?.environment ?? 'non-production',
    strict: run?.strict ?? false,
    startedAt:
      merged?.startedAt ?? manifest?.startedAt ?? new Date(Date.now() - result.duration).toISOString(),
    durationMs: Math.round(result.duration),
    requestsSent: tally.user + tally.partner + tally.other,
    requestTally: tally,
    rateLimitedAnswers: merged?.requests.rateLimited ?? rateLimitedAnswers(log),
    propertySeed: run?.propertySeed,
    stoppedSending: merged ? merged.stoppedSending : own?.stoppedSending,
    interrupted: result.status === 'interrupted' || result.status === 'timedout',
    runError: merged ? merged.runError : recordedRunError(),
    selection,
    ...(merged ? { shards: merged.shards } : {}),
  };
}

/**
 * The shards of a merge of blob reports as one run's (undefined: no merge of shards). Shards of different
 * runs, or a run with a shard missing, are no one run: `merge-reports` refuses them before merging, and a
 * merge made otherwise ends on a run error that names the difference.
 */
function mergedShardsOf(metadata: Readonly<Record<string, unknown>>): ShardsAsOneRun | undefined {
  const records = shardRecordsOf(metadata);
  const merged = shardsAsOneRun(records);
  const differences = mergeDifferences(records);
  if (!merged || differences.length === 0) return merged;
  const cause = `the blob reports merged are not one run's: ${differences.join('; ')}`;
  return {
    ...merged,
    runError: { kind: 'configuration', cause, remedy: 'merge every shard of one run, and nothing else' },
  };
}

/** The report with its timed sections: latency per operation (against its budgets), the slow requests, the inputs. */
function withTimings(
  built: ReturnType<typeof buildReport>,
  tests: readonly TestCase[],
  slow: readonly SlowRequestRecord[],
  manifest: RunManifest | undefined,
) {
  const config = manifest?.config;
  const samples = [...tests.flatMap(testSamples), ...lateSamples(slow)];
  const latency = {
    ...withLatency(built, latencyTable(samples), config?.latencyBudgets ?? {}),
    slowRequests: slowRequestRows(slow),
    sentTwice: sentTwice(slow),
  };
  const budget =
    config && profileRow(built.profile)?.requestBudget
      ? { spent: built.requests ? budgeted(built.requests.byCredential) : 0, of: config.requestBudget }
      : undefined;
  const annotations = tests.flatMap((test) => test.results.flatMap((result) => result.annotations));
  return { ...latency, inputs: inputsSection(annotations, budget) };
}

/**
 * The conformance report of some tests of the run, against the target described by `manifest`, and of what
 * the run met outside them (the run's own report only: the preflight judges the run's own target).
 */
async function conformanceReport(
  tests: readonly TestCase[],
  manifest: ReturnType<typeof runManifest>,
  result: FullResult,
  selection: string[],
  outsideTests: readonly RunFinding[] = [],
  /** A merge of shards: what they saw and sent (their run's files stayed on their machines). */
  merged?: ShardsAsOneRun,
): Promise<ConformanceReport> {
  const config = manifest?.config;
  for (const secret of config ? secretsOf(config) : []) registerSecret(secret);
  const targetAnswered = tests.some(
    (test) => testSamples(test).length > 0 || test.results.some((r) => r.status === 'passed'),
  );
  const slow = merged?.slowRequests ?? (config ? recordedSlowRequests(config.baseUrl) : []);
  const unfinished =
    result.status === 'timedout'
      ? budgetSpent(manifest, [...tests.flatMap(testSamples), ...lateSamples(slow)])
      : undefined;
  const summaries = tests.map((test) => summarise(test, targetAnswered, unfinished));
  const runFindings = [...outsideTests, ...sendingFailures(slow)];
  const exchanges = [
    ...tests.map((test, index) => testExchanges(test, summaries[index]?.title ?? '')),
    ...runFindings.map((run) => keptExchangesOf(run).map((exchange) => ({ ...exchange, test: run.where }))),
  ];
  const keptInRun = new Set(exchanges.flat().map((exchange) => exchange.id));
  const built = buildReport(
    // After the tests: the reporter finds a test's summary at the test's own index.
    [
      ...summaries.map((summary, index) => withExchanges(summary, exchanges[index] ?? [], keptInRun)),
      ...runFindings.map(summariseRunFinding),
    ],
    requirements,
    loadExpectations(config?.expectationsFile),
    { ...runMetaOf(manifest, result, selection, merged), exchanges: exchanges.flat() },
  );
  const judged = withBaseline(withTimings(built, tests, slow, manifest), config?.baseline, config?.failOn);
  // Last: the digest and signature cover the whole result as written.
  return certified(judged, config?.signingKeyFile);
}
