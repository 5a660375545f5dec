// Stand-ins for what Playwright hands the worker and the reporter: a TestInfo that a check may stop (its
// skip throws `Skipped`), and the TestCase of a finished test with its result's annotations and errors.
import type { TestInfo } from '@playwright/test';
import type { TestCase } from '@playwright/test/reporter';
import { buildReport, type RunMeta } from '../../src/report/build-report.ts';
import { type FindingOutcome, recordFinding } from '../../src/report/finding.ts';
import type { ConformanceReport, TestResultSummary } from '../../src/report/model.ts';
import {
  checkEnding,
  endingErrors,
  keepEndingErrors,
  otherErrorFindings,
} from '../../src/suite/ending-errors.ts';

export class Skipped extends Error {}

/** A test declared with verifies(`requirement`), whose skip throws Skipped with the reason. */
export const stoppableInfo = (requirement = 'PAG-A'): TestInfo =>
  ({
    title: `${requirement}: a check`,
    annotations: [{ type: 'requirement', description: requirement }],
    skip: (_condition: boolean, reason: string) => {
      throw new Skipped(reason);
    },
  }) as unknown as TestInfo;

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
 * A test that `thrown` ended, as the worker's teardown sees it (src/suite/fixtures.ts failureFindings): each
 * error recorded as Playwright does (its text only, `Name: message`), the finding of each kept beside it and
 * recorded on the test. Its errors' text and its annotations, for endedTest.
 */
export function failedWith(thrown: readonly unknown[], requirement = 'PAG-A') {
  const errors: { message: string }[] = [];
  const info = Object.assign(stoppableInfo(requirement), {
    errors,
    _failWithError: (error: unknown) => {
      errors.push({ message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    },
  });
  keepEndingErrors(info);
  for (const error of thrown) info._failWithError(error);
  const kept = endingErrors(info);
  const findings = kept.map((error) => checkEnding(error, () => requirement));
  for (const finding of findings) if (finding) recordFinding(info, finding);
  for (const finding of otherErrorFindings(info, kept, findings)) recordFinding(info, finding);
  return { status: 'failed' as const, annotations: info.annotations, errors: errors.map((e) => e.message) };
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
