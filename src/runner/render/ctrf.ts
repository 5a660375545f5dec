// reports/ctrf-report.json: the result in CTRF (Common Test Report Format), which the CTRF GitHub reporter
// and other CI renderers read: one test per requirement, its suite the area, the suite's own status kept in
// `rawStatus` (a warning passes, a note is "other", what was not verified or not run is skipped, what an error
// left not verified is "other" and counted in the summary's `extra.errors`, with a run error no requirement
// carries as a test of its own). Validated with the `ctrf` reference package (tests/self/ci-renderers.spec.ts).
import type { CTRFReport, Test, TestStatus } from 'ctrf';
import type { ConformanceResult, RequirementStatus, ResultRequirement } from '../../result/schema.ts';
import { errorLines, failureLines, headline, notVerifiedLines } from './requirement-lines.ts';
import { type RunError, runErrorAlone, runErrorText } from './run-error-lines.ts';

const CTRF_STATUS: Record<RequirementStatus, TestStatus> = {
  pass: 'passed',
  warning: 'passed',
  fail: 'failed',
  'not-verified': 'skipped',
  omitted: 'skipped',
  note: 'other',
};

/** What a requirement's CTRF test says besides its status: its failure, or why it was not verified. */
function message(result: ConformanceResult, requirement: ResultRequirement): Pick<Test, 'message' | 'trace'> {
  switch (requirement.status) {
    case 'fail': {
      const [first = 'failed', ...rest] = failureLines(result, requirement);
      return { message: headline(first), trace: [first, ...rest].join('\n\n') };
    }
    case 'not-verified':
      return { message: notVerifiedLines(requirement).join('\n') };
    case 'warning':
      return { message: requirement.warnings.map((line) => line.message).join('\n') };
    case 'omitted':
      return {
        message: requirement.verifiable ? 'not in this run' : `not observable: ${requirement.reason ?? ''}`,
      };
    default:
      return {};
  }
}

function ctrfTest(
  result: ConformanceResult,
  requirement: ResultRequirement,
  durations: ReadonlyMap<string, number>,
): Test {
  return {
    name: requirement.id,
    // An error is neither the target's failure nor a skip by design: CTRF's "other".
    status: errorLines(requirement).length > 0 ? 'other' : CTRF_STATUS[requirement.status],
    rawStatus: requirement.status,
    duration: Math.round(requirement.tests.reduce((sum, test) => sum + (durations.get(test.title) ?? 0), 0)),
    suite: [requirement.area],
    tags: [requirement.level],
    ...message(result, requirement),
    extra: {
      text: requirement.text,
      ...(requirement.reading ? { reading: requirement.reading } : {}),
      evidenceCount: requirement.evidenceCount,
      tests: requirement.tests.map((test) => test.title),
    },
  };
}

/** The run error no requirement carries, as a test of its own. */
const runErrorTest = (runError: RunError): Test => ({
  name: 'the run error',
  status: 'other',
  rawStatus: 'error',
  duration: 0,
  suite: ['the run'],
  message: headline(runError.cause),
  trace: runErrorText(runError),
  extra: { kind: runError.kind },
});

export function ctrfReport(result: ConformanceResult): CTRFReport {
  const durations = new Map(result.tests.map((test) => [test.title, test.durationMs ?? 0]));
  const alone = runErrorAlone(result);
  const tests = [
    ...(alone ? [runErrorTest(alone)] : []),
    ...result.requirements.map((requirement) => ctrfTest(result, requirement, durations)),
  ];
  const errors = (alone ? 1 : 0) + result.requirements.filter((r) => errorLines(r).length > 0).length;
  const start = Date.parse(result.startedAt);
  const count = (status: TestStatus) => tests.filter((test) => test.status === status).length;
  return {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    timestamp: result.startedAt,
    generatedBy: `${result.suite.name} ${result.suite.version}`,
    results: {
      tool: { name: result.suite.name, version: result.suite.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        suites: new Set(tests.flatMap((test) => test.suite ?? [])).size,
        start,
        stop: start + Math.round(result.durationMs),
        duration: Math.round(result.durationMs),
        extra: { errors },
      },
      tests,
      environment: {
        testEnvironment: result.environment,
        extra: { target: result.target, baseUrl: result.baseUrl, profile: result.profile },
      },
      extra: {
        verdict: result.verdict,
        schemaVersion: result.schemaVersion,
        ...(result.runError ? { runError: result.runError } : {}),
      },
    },
  };
}
