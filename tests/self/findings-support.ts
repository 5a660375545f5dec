// Stand-ins for what Playwright hands the worker and the reporter: a TestInfo that a check may stop (its
// skip throws `Skipped`), and the TestCase of a finished test with its result's annotations and errors.
import type { TestInfo } from '@playwright/test';
import type { TestCase } from '@playwright/test/reporter';
import { type FindingOutcome, recordFinding } from '../../src/protocol/finding.ts';
import { buildReport, type RunMeta } from '../../src/runner/report/build-report.ts';
import type { ConformanceReport, TestResultSummary } from '../../src/runner/report/model.ts';
import { ended, failedOnChecksAlone, uncaughtFindings } from '../../src/worker/suite/ending-recorder.ts';

export class Skipped extends Error {}

/** A test declared with verifies(`requirement`), whose skip throws Skipped with the reason (as Playwright's does). */
export const stoppableInfo = (requirement = 'PAG-A'): TestInfo => {
  const info = {
    title: `${requirement}: a check`,
    annotations: [{ type: 'requirement', description: requirement }],
    errors: [] as TestInfo['errors'],
    expectedStatus: 'passed',
    skip: (_condition: boolean, reason: string) => {
      info.expectedStatus = 'skipped';
      throw new Skipped(reason);
    },
  };
  return info as unknown as TestInfo;
};

/** Runs `stop` (a check that stops the test) and returns the skip reason it gave. */
export function skipReasonOf(stop: () => unknown): string {
  try {
    stop();
  } catch (error) {
    if (error instanceof Skipped) return error.message;
    throw error;
  }
  throw new Error('the check did not stop');
}

/**
 * A test that `thrown` ended, as the worker sees it: each error caught where it ended the check
 * (src/worker/suite/ending-recorder.ts `ended`), then recorded as Playwright does (its text only, `Name: message`),
 * a skip making it skipped; `uncaught`, what Playwright recorded that no catch saw (a test timeout), as the
 * teardown records it. Its status, its errors' text and its annotations, for endedTest.
 */
export function failedWith(
  thrown: readonly unknown[],
  requirement = 'PAG-A',
  uncaught: readonly string[] = [],
) {
  const info = stoppableInfo(requirement);
  let stopped = false;
  for (const error of thrown) {
    try {
      ended(info, error);
    } catch (caught) {
      if (caught instanceof Skipped) stopped = true;
      else
        info.errors.push({
          message: caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught),
        });
    }
  }
  info.errors.push(...uncaught.map((message) => ({ message })));
  for (const finding of uncaughtFindings(info)) recordFinding(info, finding);
  const errors = info.errors.map((error) => error.message ?? '');
  const status =
    errors.length > 0 ? ('failed' as const) : stopped ? ('skipped' as const) : ('passed' as const);
  return { status, annotations: info.annotations, errors, checksAlone: failedOnChecksAlone(info) };
}

export interface Ended {
  status: 'passed' | 'failed' | 'skipped';
  annotations?: { type: string; description?: string }[];
  errors?: string[];
  tags?: string[];
  title?: string;
}

const FILE = `${process.cwd()}/tests/conformance/x.spec.ts`;

/** A finished test of tests/conformance/x.spec.ts (by default "PAG-A: t", tagged @PAG-A). */
export const endedTest = ({
  status,
  annotations = [],
  errors = [],
  tags = ['@PAG-A'],
  title = 'PAG-A: t',
}: Ended): TestCase =>
  ({
    title,
    tags,
    annotations: [],
    results: [{ status, annotations, errors: errors.map((message) => ({ message })), duration: 1500 }],
    location: { file: FILE, line: 3, column: 1 },
    parent: { type: 'file', location: { file: FILE } },
    outcome: () => (status === 'skipped' ? 'skipped' : status === 'passed' ? 'expected' : 'unexpected'),
    titlePath: () => ['', 'conformance', 'x.spec.ts', title],
  }) as unknown as TestCase;

/** The run a report of these stand-ins describes: the sandbox, ci-gate, three requests. */
export const sandboxRunMeta: RunMeta = {
  target: 'sandbox',
  baseUrl: 'http://x',
  profile: 'ci-gate',
  environment: 'non-production',
  strict: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  requestsSent: 3,
  interrupted: false,
  selection: [],
};

/** An empty result of the run `sandboxRunMeta` describes (no test, no requirement), to build on. */
export const emptyResult = (): ConformanceReport => buildReport([], [], [], sandboxRunMeta);

/** The messages of a test's findings of `outcome`. */
export const messagesOf = (test: Pick<TestResultSummary, 'findings'> | undefined, outcome: FindingOutcome) =>
  (test?.findings ?? []).filter((finding) => finding.outcome === outcome).map((finding) => finding.message);
