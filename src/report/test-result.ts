// A test's result in the verdict model's terms, from its findings (src/report/finding.ts). What a test
// ended with but recorded no finding for (a Playwright expect, a timeout, a crash, a test that never ran)
// is inferred here: a failure is charged to the requirements it declares, unless its error shows a cause
// on the suite's or the user's side (src/report/run-errors.ts); a request without a complete answer (a reset,
// a cut body; one without any answer is the check's typed failure, src/suite/unanswered.ts) only to the
// requirement the check verifies.
import { stripVTControlCharacters } from 'node:util';
import type { Suite, TestCase } from '@playwright/test/reporter';
import { ownTitle, targetNameOf } from '../config/run-plan.ts';
import { redactText } from '../http/redact.ts';
import { REQUESTS_ANNOTATION, type RequestTally } from '../http/request-counter.ts';
import { TransportFailure } from '../http/transport-failure.ts';
import {
  type Finding,
  findingsOf,
  isStop,
  REQUIREMENT_ANNOTATION,
  type Stop,
  stopReason,
} from './finding.ts';
import type { TestResultSummary } from './model.ts';
import { runErrorOfTest } from './run-errors.ts';
import type { RunFinding } from './run-findings.ts';

const REQUIREMENT_TAG = /^@[A-Z0-9]+(-[A-Z0-9]+)+$/;

/** The spec file that declares a test (a matrix run's registrations are located where they are made). */
function specFileOf(test: TestCase): string {
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type !== 'file') suite = suite.parent;
  return suite?.location?.file ?? test.location.file;
}

const redacted = (finding: Finding): Finding => ({
  ...finding,
  message: redactText(finding.message),
  ...(finding.evidence === undefined ? {} : { evidence: redactText(finding.evidence) }),
});

/** The last finding that stopped the check: the one it ended with. */
const lastStop = (findings: readonly Finding[]): Stop | undefined => findings.filter(isStop).at(-1);

/** The findings of an outcome the test recorded none for; `verified`: the requirement the check verifies. */
function inferred(
  ran: TestResultSummary['status'],
  recorded: readonly Finding[],
  declared: readonly string[],
  verified: string,
  errors: readonly string[],
  skipped: string | undefined,
  targetAnswered: boolean,
): Finding[] {
  const requirement = declared[0] ?? '';
  if (ran === 'failed' && !recorded.some((finding) => finding.outcome === 'fail')) {
    const runError = runErrorOfTest(errors, targetAnswered);
    if (runError) return [{ requirement, outcome: 'error', message: runError.cause, runError }];
    const message = redactText(errors[0]?.split('\n')[0] ?? 'failed');
    const transport = errors.some((error) => error.startsWith(`${TransportFailure.name}: `));
    return (transport ? [verified] : declared).map((id) => ({ requirement: id, outcome: 'fail', message }));
  }
  if (ran === 'skipped' && !recorded.some(isStop))
    return [
      {
        requirement,
        outcome: 'not-verified',
        message: skipped ?? 'did not run (the run ended first)',
        kind: 'not-run',
      },
    ];
  return [];
}

/**
 * A test's result. `targetAnswered`: whether the target answered any request of the run (a refused
 * connection is a failure of a target that did, the user's side on one that did not).
 */
export function summarise(test: TestCase, targetAnswered = true): TestResultSummary {
  const result = test.results.at(-1);
  // Runtime annotations appear on both the test and its result: keep each once.
  const annotations = [
    ...new Map(
      [...test.annotations, ...(result?.annotations ?? [])].map((a) => [`${a.type}|${a.description}`, a]),
    ).values(),
  ];
  const ofType = (type: string) =>
    annotations.filter((a) => a.type === type).map((a) => redactText(a.description ?? ''));
  const errors = (result?.errors ?? []).map((e) => stripVTControlCharacters(e.message ?? ''));
  const declared = test.tags.filter((tag) => REQUIREMENT_TAG.test(tag)).map((tag) => tag.slice(1));
  // From the result, not the outcome: a gate run marks a check's failure expected to keep its worker
  // (src/suite/fixtures.ts `failureKeepsWorker`), and it is still a failure.
  const ran = test.outcome() === 'skipped' ? 'skipped' : result?.status === 'passed' ? 'passed' : 'failed';
  const recorded = findingsOf(annotations).map(redacted);
  const findings = [
    ...recorded,
    ...inferred(
      ran,
      recorded,
      declared,
      ofType(REQUIREMENT_ANNOTATION)[0] ?? declared[0] ?? '',
      errors,
      ofType('skip')[0],
      targetAnswered,
    ),
  ];
  // What the run error stopped is not verified, never failed.
  const stoppedByError = findings.filter(isStop).find((finding) => finding.outcome === 'error');
  const status = stoppedByError ? 'skipped' : ran;
  const stop = stoppedByError ?? (status === 'skipped' ? lastStop(findings) : undefined);
  const error = errors.join('\n');
  return {
    // A matrix run names each registration after its target: the target's report has the test's own title.
    title: [...test.titlePath().slice(3, -1), ownTitle(test.title, targetNameOf(test.annotations))].join(
      ' › ',
    ),
    file: specFileOf(test).replace(/^.*\/tests\//, 'tests/'),
    status,
    outcome: stop?.outcome ?? (status === 'passed' ? 'pass' : 'fail'),
    requirements: declared,
    failedRequirements:
      status === 'failed'
        ? [...new Set(findings.filter((f) => f.outcome === 'fail').map((f) => f.requirement))]
        : [],
    tags: test.tags.filter((tag) => !REQUIREMENT_TAG.test(tag)),
    skipReason: stop && stopReason(stop),
    findings,
    prismViolations: ofType('prism-violation'),
    requests: ofType(REQUESTS_ANNOTATION).map((json) => JSON.parse(json) as RequestTally)[0],
    error: error ? redactText(error).slice(0, 3000) : undefined,
    runError: stoppedByError?.runError,
    durationMs: result?.duration,
  };
}

/** A finding the run met outside any test (src/report/run-findings.ts), as an entry of the report of its own. */
export function summariseRunFinding({ where, finding }: RunFinding): TestResultSummary {
  const failed = finding.outcome === 'fail';
  const recorded = redacted(finding);
  return {
    title: where,
    file: 'global setup',
    status: failed ? 'failed' : 'passed',
    outcome: failed ? 'fail' : 'pass',
    requirements: [],
    failedRequirements: failed ? [finding.requirement] : [],
    tags: [],
    findings: [recorded],
    prismViolations: [],
    error: failed
      ? [`[${recorded.requirement}] ${recorded.message}`, recorded.evidence ?? ''].join('\n').trim()
      : undefined,
  };
}
