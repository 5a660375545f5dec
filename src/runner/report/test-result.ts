// A test's result in the verdict model's terms, from its findings (src/protocol/finding.ts), which the worker
// recorded from the errors themselves where they were caught (src/worker/suite/ending-recorder.ts). A request to a target that cannot be
// reached is the check's failure where the target answered in the run, and the run error where it answered
// nothing. What a test ended with but recorded no finding for (a worker that died before its teardown, a test
// that never ran) is inferred here: an error is the suite's own (kind `suite`), never a failure of a
// declared requirement; a test that never ran is not verified.
import { stripVTControlCharacters } from 'node:util';
import type { Suite, TestCase } from '@playwright/test/reporter';
import { ownTitle, targetNameOf } from '../../config/run-plan.ts';
import { redactText } from '../../http/redact.ts';
import { REQUESTS_ANNOTATION, type RequestTally } from '../../http/request-counter.ts';
import { type Finding, findingsOf, isStop, type Stop, stopReason } from '../../protocol/finding.ts';
import { suiteError, type TestError } from '../../protocol/run-errors.ts';
import { keptExchangesOf, type RunFinding } from '../../protocol/run-findings.ts';
import { worstOf } from '../../result/outcomes.ts';
import { sourceOf } from '../../run-state/package.ts';
import type { TestResultSummary } from './model.ts';

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

/**
 * A failed request to a target that cannot be reached (src/worker/suite/ending-recorder.ts): the run
 * error where the target answered nothing in the whole run, else the check's failure.
 */
function charged(finding: Finding, targetAnswered: boolean): Finding {
  const { runError, ...failure } = finding;
  if (finding.outcome !== 'fail' || runError?.kind !== 'unreachable') return finding;
  return targetAnswered ? failure : { ...failure, outcome: 'error', message: runError.cause, runError };
}

/** What a test ended with, as the reporter sees it. */
interface Ended {
  ran: TestResultSummary['status'];
  title: string;
  errors: readonly TestError[];
  skipped: string | undefined;
}

/** The findings of an outcome the test recorded none for. */
function inferred(
  { ran, title, errors: ended, skipped }: Ended,
  recorded: readonly Finding[],
  declared: readonly string[],
): Finding[] {
  const requirement = declared[0] ?? '';
  const judged = recorded.some((finding) => finding.outcome === 'fail' || finding.outcome === 'error');
  if (ran === 'failed' && !judged) {
    const suite = suiteError(title, ended[0] ?? { message: 'the test failed without an error' });
    return [{ requirement, outcome: 'error', message: suite.cause, runError: suite }];
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

type RunResult = TestCase['results'][number];

/** A test's annotations, each once: runtime annotations appear on both the test and its result. */
const annotationsOf = (test: TestCase, result: RunResult | undefined) => [
  ...new Map(
    [...test.annotations, ...(result?.annotations ?? [])].map((a) => [`${a.type}|${a.description}`, a]),
  ).values(),
];

/** The errors the test's last result ended with, without terminal colours. */
const endedErrorsOf = (result: RunResult | undefined) =>
  (result?.errors ?? []).map((e) => ({
    ...e,
    message: stripVTControlCharacters(e.message ?? ''),
    ...(e.stack === undefined ? {} : { stack: stripVTControlCharacters(e.stack) }),
  }));

/**
 * How the test ran. From the result, not the outcome: a gate run marks a check's failure expected to keep its
 * worker (src/worker/suite/fixtures.ts `_failureKeepsWorker`), and it is still a failure.
 */
const ranOf = (test: TestCase, result: RunResult | undefined): TestResultSummary['status'] =>
  test.outcome() === 'skipped' ? 'skipped' : result?.status === 'passed' ? 'passed' : 'failed';

/**
 * The test's title below its file. A matrix run names each registration after its target: the target's
 * report has the test's own title.
 */
const titleOf = (test: TestCase): string =>
  [...test.titlePath().slice(3, -1), ownTitle(test.title, targetNameOf(test.annotations))].join(' › ');

/**
 * How the test ended: the worst (worstOf) of what ended it, a failed test's failures, the run error (what it
 * stopped is not verified, never failed; a failure the test met outranks it, beside it) and a skipped test's
 * stops; a pass where nothing did. The stop is the last finding of that outcome.
 */
function endingOf(ran: TestResultSummary['status'], findings: readonly Finding[]) {
  const ended = findings.filter(
    (finding) =>
      finding.outcome === 'error' ||
      (ran === 'failed' && finding.outcome === 'fail') ||
      (ran === 'skipped' && isStop(finding)),
  );
  // What ends a test is a test outcome: a failure, an error, a stop.
  const outcome = (worstOf(ended.map((finding) => finding.outcome)) ??
    (ran === 'passed' ? 'pass' : 'fail')) as TestResultSummary['outcome'];
  const stop = ended
    .filter((finding): finding is Stop => isStop(finding) && finding.outcome === outcome)
    .at(-1);
  const status: TestResultSummary['status'] =
    outcome === 'pass' ? 'passed' : outcome === 'fail' ? 'failed' : 'skipped';
  return { metError: findings.find((finding) => finding.outcome === 'error'), status, outcome, stop };
}

/**
 * A test's result. `targetAnswered`: whether the target answered any request of the run (a refused
 * connection is a failure of a target that did, the user's side on one that did not); `unfinished`: why a
 * test the run ended before it finished did not (default: the run ended first).
 */
export function summarise(test: TestCase, targetAnswered = true, unfinished?: string): TestResultSummary {
  const result = test.results.at(-1);
  const annotations = annotationsOf(test, result);
  const ofType = (type: string) =>
    annotations.filter((a) => a.type === type).map((a) => redactText(a.description ?? ''));
  const ended = endedErrorsOf(result);
  const errors = ended.map((e) => e.message);
  const declared = test.tags.filter((tag) => REQUIREMENT_TAG.test(tag)).map((tag) => tag.slice(1));
  const ran = ranOf(test, result);
  const recorded = findingsOf(annotations).map((finding) => charged(redacted(finding), targetAnswered));
  const title = titleOf(test);
  const findings = [
    ...recorded,
    ...inferred({ ran, title, errors: ended, skipped: ofType('skip')[0] ?? unfinished }, recorded, declared),
  ];
  const { metError, status, outcome, stop } = endingOf(ran, findings);
  const error = errors.join('\n');
  return {
    title,
    file: sourceOf(specFileOf(test)).replace(/^.*\/tests\//, 'tests/'),
    status,
    outcome,
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
    runError: metError?.runError,
    durationMs: result?.duration,
  };
}

/**
 * A finding the run met outside any test (src/protocol/run-findings.ts), as an entry of the report of its own:
 * it ends as a test would have that recorded it alone (endingOf).
 */
export function summariseRunFinding(run: RunFinding): TestResultSummary {
  const { where, file, finding } = run;
  const recorded = redacted(finding);
  const ran = finding.outcome === 'fail' ? 'failed' : isStop(finding) ? 'skipped' : 'passed';
  const { status, outcome, stop } = endingOf(ran, [recorded]);
  const failed = status === 'failed';
  const exchanges = keptExchangesOf(run).map(({ id }) => id);
  return {
    title: where,
    file: file ?? 'global setup',
    status,
    outcome,
    requirements: [],
    failedRequirements: failed ? [finding.requirement] : [],
    tags: [],
    skipReason: stop && stopReason(stop),
    findings: [recorded],
    ...(exchanges.length > 0 ? { exchanges } : {}),
    prismViolations: [],
    error: failed
      ? [`[${recorded.requirement}] ${recorded.message}`, recorded.evidence ?? ''].join('\n').trim()
      : undefined,
    ...(recorded.runError ? { runError: recorded.runError } : {}),
  };
}
