// Builds the conformance report from test results. A requirement's status comes from the verdicts that
// name it: the failures that name it (`fail` findings), the tests that declare it (passed, not verified,
// blocked, omitted), and the warnings and evidence they recorded (src/protocol/finding.ts). The run verdict:
// FAIL when a stated rule failed (documented deviations aside, stale ones counted), whatever else happened;
// else ERROR when a run-wide error (the suite's or the user's side) stopped the run from judging the target;
// else INCOMPLETE when a MUST requirement of the profile was not verified or run by no test, or the run was
// narrowed; else PASS.
import { profileRow } from '../../config/profiles.ts';
import { areaOf, type Requirement } from '../../contract/requirements.ts';
import { type RequestTally, sumOfTallies } from '../../http/request-counter.ts';
import { type Finding, type FindingOutcome, isStop, isStopOutcome } from '../../protocol/finding.ts';
import { REQUIREMENT_STATUSES, type RunVerdict, verdictOf, worstOf } from '../../result/outcomes.ts';
import type { RunError, RunErrorKind } from '../../run-state/run-error.ts';
import { byExpiry, type Expectation, expectationFor, statedExpectation } from './expectations.ts';
import {
  type ConformanceReport,
  idsWithStatus,
  type RequirementResult,
  type RequirementStatus,
  type RunSideStop,
  type TestResultSummary,
} from './model.ts';
import { resultHeader } from './result-header.ts';

export type RunMeta = Pick<
  ConformanceReport,
  | 'target'
  | 'baseUrl'
  | 'profile'
  | 'environment'
  | 'strict'
  | 'startedAt'
  | 'durationMs'
  | 'requestsSent'
  | 'stoppedSending'
  | 'propertySeed'
  | 'runError'
  | 'selection'
  | 'shards'
> & {
  interrupted: boolean;
  requestTally?: RequestTally;
  rateLimitedAnswers?: number;
  /** The exchanges of the tests that did not pass, by id (src/runner/report/test-exchanges.ts). */
  exchanges?: ConformanceReport['exchanges'];
};

/** A requirement's family: its ID up to the first dash (PAG-NEXT-TOKEN: PAG). */
const familyOf = (id: string): string => id.split('-')[0] ?? id;

/** The tests' requests by the family of the first requirement each declares. */
function requestsByFamily(tests: readonly TestResultSummary[]): Record<string, RequestTally> {
  const families: Record<string, RequestTally> = {};
  for (const { requests, requirements } of tests) {
    if (!requests) continue;
    const family = familyOf(requirements[0] ?? 'none');
    families[family] = sumOfTallies(families[family] ?? { user: 0, partner: 0, other: 0 }, requests);
  }
  return Object.fromEntries(Object.entries(families).sort(([a], [b]) => a.localeCompare(b)));
}

/** The test's findings of `outcome` about `id`. */
const stated = (test: TestResultSummary, outcome: FindingOutcome, id: string): Finding[] =>
  test.findings.filter((finding) => finding.outcome === outcome && finding.requirement === id);

/** Each item once, by `key`. */
const uniqueBy = <T>(items: readonly T[], key: (item: T) => string): T[] => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];
const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
/** A line of a requirement's result once per test and message (what stopped a check, test by test). */
const statementKey = (line: { test: string; message: string }) => `${line.test}\n${line.message}`;
/** Evidence, a warning or a note once, whichever tests said it (the first that did is named). */
const messageKey = (line: { message: string }) => line.message;

type NotVerifiedLine = RequirementResult['notVerified'][number];

/** A finding that left a requirement not verified, as its result states it: the kind says how to verify it. */
function notVerifiedLine(test: string, finding: Finding): NotVerifiedLine {
  const line = { test, message: finding.message };
  switch (finding.outcome) {
    case 'blocked':
      return { ...line, kind: 'blocked', prerequisite: finding.prerequisite ?? '' };
    case 'error':
      return { ...line, kind: 'run-error', ...(finding.runError ? { remedy: finding.runError.remedy } : {}) };
    default:
      return {
        ...line,
        kind: finding.kind ?? (finding.variables?.length ? 'configuration' : 'data'),
        ...(finding.variables?.length ? { variables: finding.variables } : {}),
      };
  }
}

/** Why a declaring test left `id` not verified, if it did. */
function notVerifiedBy(test: TestResultSummary, id: string): NotVerifiedLine[] {
  const stop = [...test.findings].reverse().find((finding) => isStop(finding));
  // An omitted test leaves its requirement omitted, never not verified.
  if (isStopOutcome(test.outcome) && test.outcome !== 'omitted')
    return stop
      ? [notVerifiedLine(test.title, stop)]
      : [{ test: test.title, message: test.skipReason ?? 'did not run', kind: 'not-run' }];
  // A test that failed on another requirement never reached this one.
  if (test.outcome === 'fail' && !test.failedRequirements.includes(id))
    return [
      {
        test: test.title,
        message: `blocked by ${test.failedRequirements.join(', ')}`,
        kind: 'blocked',
        prerequisite: test.failedRequirements[0] ?? '',
      },
    ];
  return stated(test, 'not-verified', id).map((finding) => notVerifiedLine(test.title, finding));
}

/** What any test warned or noted (`outcome`) about `id`: a check may say so of any requirement. */
const saidOf = (tests: readonly TestResultSummary[], outcome: FindingOutcome, id: string) =>
  uniqueBy(
    tests.flatMap((test) =>
      stated(test, outcome, id).map((finding) => ({ test: test.title, message: finding.message })),
    ),
    messageKey,
  );

/** What the passing tests rest `id` on: their pass findings about it, or the pass itself where they stated none. */
const evidenceOf = (passed: readonly TestResultSummary[], id: string) =>
  uniqueBy(
    passed.flatMap((test) => {
      const rested = stated(test, 'pass', id);
      return rested.length > 0
        ? rested.map((finding) => ({ test: test.title, message: finding.message, count: finding.count ?? 1 }))
        : [{ test: test.title, message: `${test.title}: passed`, count: 1 }];
    }),
    messageKey,
  );

/**
 * A requirement's status: the worst of what the tests said of it (a failure, a line of not verified, a
 * warning, a pass; worstOf), omitted where none did; one the contract leaves open is a note unless it failed.
 */
function statusOf(
  level: Requirement['level'],
  said: { failing: number; notVerified: number; warnings: number; passed: number },
): RequirementStatus {
  const status =
    worstOf([
      ...(said.failing > 0 ? (['fail'] as const) : []),
      ...(said.notVerified > 0 ? (['not-verified'] as const) : []),
      ...(said.warnings > 0 ? (['warning'] as const) : []),
      ...(said.passed > 0 ? (['pass'] as const) : []),
    ]) ?? 'omitted';
  return level === 'UNSPECIFIED' && status !== 'fail' ? 'note' : status;
}

function resultOf(
  requirement: Requirement,
  tests: readonly TestResultSummary[],
  deviation: string | undefined,
): RequirementResult {
  const { id } = requirement;
  const declaring = tests.filter((test) => test.requirements.includes(id));
  const failing = tests.filter((test) => test.outcome === 'fail' && test.failedRequirements.includes(id));
  const related = unique([...declaring, ...failing]);
  const notVerified = uniqueBy(
    declaring.flatMap((test) => notVerifiedBy(test, id)),
    statementKey,
  );
  const warnings = saidOf(tests, 'warning', id);
  const passed = declaring.filter(
    (test) => test.outcome === 'pass' && stated(test, 'not-verified', id).length === 0,
  );
  const evidence = evidenceOf(passed, id);
  const status = statusOf(requirement.level, {
    failing: failing.length,
    notVerified: notVerified.length,
    warnings: warnings.length,
    passed: passed.length,
  });
  return {
    id,
    level: requirement.level,
    section: requirement.section,
    area: areaOf(requirement),
    text: requirement.text,
    ...(requirement.reading === undefined ? {} : { reading: requirement.reading }),
    status,
    verifiable: requirement.verifiable,
    ...(requirement.reason === undefined ? {} : { reason: requirement.reason }),
    tests: related.map((test) => ({ title: test.title, outcome: test.outcome })),
    evidence,
    evidenceCount: evidence.reduce((sum, line) => sum + line.count, 0),
    warnings,
    notVerified,
    notes: saidOf(tests, 'note', id),
    ...(deviation === undefined ? {} : { deviation }),
  };
}

/** Requirements by status. */
export const requirementTotalsOf = (
  results: readonly RequirementResult[],
): Record<RequirementStatus, number> =>
  Object.fromEntries(
    REQUIREMENT_STATUSES.map((status) => [status, idsWithStatus(results, status).length]),
  ) as Record<RequirementStatus, number>;

/**
 * Run errors a check meets that stop that check alone (a page that needs a person, a browser for one
 * sign-in): the rest of the run still judges the target. Any other kind stops the whole run.
 */
const CHECK_SCOPED: readonly RunErrorKind[] = ['sign-in', 'person', 'browser'];

/**
 * The run-wide error (global setup's, or the first of a run-wide kind a test met), and the run-side causes
 * that stopped only some checks, each with how many.
 */
function runSide(
  setupError: RunError | undefined,
  tests: readonly TestResultSummary[],
): { runError?: RunError; runSideStops: RunSideStop[] } {
  const met = tests.flatMap((test) => (test.runError ? [test.runError] : []));
  const runError = setupError ?? met.find((error) => !CHECK_SCOPED.includes(error.kind));
  const stops = new Map<string, RunSideStop>();
  for (const error of met) {
    if (error === runError || !CHECK_SCOPED.includes(error.kind)) continue;
    const known = stops.get(error.cause);
    if (known) known.checks += 1;
    else stops.set(error.cause, { ...error, checks: 1 });
  }
  return { runError, runSideStops: [...stops.values()] };
}

/** What a failure's line says of the known failure that covered it until it expired. */
const expiredNote = (expectation: Expectation | undefined): string =>
  expectation
    ? `; known failure ${expectation.key} expired on ${expectation.expires}${expectation.owner ? ` (owner ${expectation.owner})` : ''}`
    : '';

/** The failed tests a known failure in force covers (deviations), and the others, each a gate failure. */
function judgedFailures(
  tests: readonly TestResultSummary[],
  inForce: readonly Expectation[],
  expired: readonly Expectation[],
): { gateFailures: string[]; deviations: ConformanceReport['deviations'] } {
  const gateFailures: string[] = [];
  const deviations: ConformanceReport['deviations'] = [];
  for (const test of tests.filter((t) => t.outcome === 'fail')) {
    const expectation = expectationFor(inForce, test.title, test.failedRequirements);
    if (expectation) deviations.push({ test: test.title, ...statedExpectation(expectation) });
    else
      gateFailures.push(
        `failed: ${test.title} (${test.failedRequirements.join(', ')})${expiredNote(expectationFor(expired, test.title, test.failedRequirements))}`,
      );
  }
  return { gateFailures, deviations };
}

/** The known failures that no longer happen (a test they cover passed, none failed), each a gate failure. */
function staleExpectations(
  tests: readonly TestResultSummary[],
  expectations: readonly Expectation[],
): string[] {
  return expectations
    .filter((expectation) => {
      const covered = tests.filter(
        (test) =>
          test.title === expectation.key ||
          test.requirements.includes(expectation.key) ||
          test.failedRequirements.includes(expectation.key),
      );
      return (
        covered.some((test) => test.outcome === 'pass') && !covered.some((test) => test.outcome === 'fail')
      );
    })
    .map(
      (expectation) =>
        `expected failure no longer happens: ${expectation.key} (${expectation.reason}); remove it from the expectations file`,
    );
}

/**
 * The MUST requirements that make the run INCOMPLETE: not verified, or run by no test, narrowed or not (a
 * test the profile leaves out, for its reason, leaves its requirement omitted by design). A narrowed run ran
 * part of its profile: it is never a PASS, even where every requirement it ran passed. The smoke profile is a
 * selection by design: what its own tests leave out is not listed (the report cannot tell which it would
 * have run).
 */
function incompleteOf(
  requirements: readonly RequirementResult[],
  narrowed: boolean,
  meta: RunMeta,
): ConformanceReport['incomplete'] {
  // A recording's check (profile `recording`) judges what the recording holds, not a selection of tests.
  const row = profileRow(meta.profile);
  const listsNotRun = row !== undefined && row.ownTag === undefined;
  const notRun = narrowed
    ? `not in this run: the run was narrowed (${meta.selection.join('; ')})`
    : 'not in this run: no test of the run declares it';
  return requirements
    .filter((r) => r.level === 'MUST' && r.verifiable)
    .flatMap((r) => {
      if (r.status === 'not-verified')
        return [{ id: r.id, reasons: r.notVerified.map((line) => `${line.test}: ${line.message}`) }];
      return listsNotRun && r.status === 'omitted' && r.tests.length === 0
        ? [{ id: r.id, reasons: [notRun] }]
        : [];
    });
}

const testTotalsOf = (tests: readonly TestResultSummary[]): ConformanceReport['totals'] => ({
  passed: tests.filter((test) => test.status === 'passed').length,
  failed: tests.filter((test) => test.status === 'failed').length,
  skipped: tests.filter((test) => test.status === 'skipped').length,
});

/** The requirement IDs the tests name that the catalogue does not have. */
const unknownTagsOf = (tests: readonly TestResultSummary[], catalogue: readonly Requirement[]): string[] => {
  const known = new Set(catalogue.map((requirement) => requirement.id));
  return unique(
    tests
      .flatMap((test) => [...test.requirements, ...test.failedRequirements])
      .filter((id) => !known.has(id)),
  );
};

/** The gate failure of a run interrupted before its end. */
export const INTERRUPTED = 'the run was interrupted before every test ran';

export function buildReport(
  tests: TestResultSummary[],
  catalogue: readonly Requirement[],
  expectations: readonly Expectation[],
  meta: RunMeta,
): Omit<ConformanceReport, 'digest'> {
  // A known failure past its expiry is a failure again (src/runner/report/expectations.ts).
  const { inForce, expired } = byExpiry(expectations, meta.startedAt);
  const { gateFailures, deviations } = judgedFailures(tests, inForce, expired);
  gateFailures.push(...staleExpectations(tests, expectations));
  const requirements = catalogue.map((requirement) =>
    resultOf(requirement, tests, deviations.find((deviation) => deviation.key === requirement.id)?.reason),
  );
  const narrowed = meta.selection.length > 0;
  const incomplete = incompleteOf(requirements, narrowed, meta);
  const { interrupted, requestTally, rateLimitedAnswers = 0, exchanges = [], ...run } = meta;
  const failed = gateFailures.length > 0;
  // Said beside the failures, never one: the run's cutting short leaves it INCOMPLETE.
  if (interrupted) gateFailures.push(INTERRUPTED);
  const { runError, runSideStops } = runSide(meta.runError, tests);
  // A failure seen stays a failure, whatever else went wrong (worstOf: FAIL, then ERROR, INCOMPLETE, PASS).
  const besides = [
    ...(runError ? (['error'] as const) : []),
    ...(incomplete.length > 0 || interrupted || narrowed ? (['not-verified'] as const) : []),
  ];
  const besideFailures = verdictOf(besides) as Exclude<RunVerdict, 'fail'>;
  const verdict = verdictOf([...(failed ? (['fail'] as const) : []), ...besides]);
  return {
    ...resultHeader(),
    ...run,
    ...(runError ? { runError } : {}),
    ...(runSideStops.length > 0 ? { runSideStops } : {}),
    ...(requestTally
      ? { requests: { byCredential: requestTally, byFamily: requestsByFamily(tests), rateLimitedAnswers } }
      : {}),
    totals: testTotalsOf(tests),
    requirementTotals: requirementTotalsOf(requirements),
    verdict,
    ...(failed ? { verdictBesideFailures: besideFailures } : {}),
    gateFailures,
    incomplete,
    deviations,
    ...(expired.length > 0 ? { expiredDeviations: expired.map(statedExpectation) } : {}),
    unknownRequirementTags: unknownTagsOf(tests, catalogue),
    requirements,
    tests,
    exchanges,
  };
}
