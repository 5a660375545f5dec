// The closed lists of the result schema (src/result/schema.ts), apart from it so that what every worker loads
// (a check's finding, src/protocol/finding.ts) does not load the schema builder. The one outcome list is in
// the order outcomes outrank each other, and worstOf is the one roll-up of that order: a test's outcome, a
// requirement's status and the run's verdict (src/runner/report/test-result.ts, build-report.ts) all come from it.

/** The one outcome list, what a check found, the outranking first: a failure outranks an error, then a stop. */
export const OUTCOMES = [
  'fail',
  'error',
  'blocked',
  'not-verified',
  'warning',
  'pass',
  'note',
  'omitted',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcome of `outcomes` that outranks the others (OUTCOMES' order); undefined for none. */
export function worstOf<O extends Outcome>(outcomes: Iterable<O>): O | undefined {
  let worst: O | undefined;
  for (const outcome of outcomes)
    if (worst === undefined || OUTCOMES.indexOf(outcome) < OUTCOMES.indexOf(worst)) worst = outcome;
  return worst;
}

/** How a test ended: the outcomes that end a check (a warning or a note never does). */
export const TEST_OUTCOMES = [
  'pass',
  'fail',
  'not-verified',
  'blocked',
  'omitted',
  'error',
] as const satisfies readonly Outcome[];
/** The test outcomes that end a check without a verdict of its own (a skip): all but a pass and a fail. */
export const STOP_OUTCOMES = TEST_OUTCOMES.filter(
  (outcome): outcome is Exclude<TestOutcome, 'pass' | 'fail'> => outcome !== 'pass' && outcome !== 'fail',
);
/** A requirement's status: blocked and error roll up into not-verified. */
export const REQUIREMENT_STATUSES = [
  'pass',
  'fail',
  'warning',
  'not-verified',
  'note',
  'omitted',
] as const satisfies readonly Outcome[];

/** The run verdict of the run's worst outcome: a failure FAILs it, an error ERRORs it, a stop leaves it INCOMPLETE. */
const VERDICT_OF = {
  fail: 'fail',
  error: 'error',
  blocked: 'incomplete',
  'not-verified': 'incomplete',
  warning: 'pass',
  pass: 'pass',
  note: 'pass',
  omitted: 'pass',
} as const satisfies Record<Outcome, string>;

/** The run's verdicts, in the order they outrank each other: their outcomes'. */
export const RUN_VERDICTS = [...new Set(OUTCOMES.map((outcome) => VERDICT_OF[outcome]))] as RunVerdict[];

/** The run's verdict from the outcomes it met (none: PASS). */
export const verdictOf = (outcomes: Iterable<Outcome>): RunVerdict => VERDICT_OF[worstOf(outcomes) ?? 'pass'];

/** The outcome a run verdict stands for, to roll it up with others (verdictOf). */
export const outcomeOfVerdict = (verdict: RunVerdict): Outcome =>
  verdict === 'incomplete' ? 'not-verified' : verdict;

/** Why a requirement was not verified, and so how to verify it. */
export const NOT_VERIFIED_KINDS = [
  /** the target's data held too little (the message says what was missing) */
  'data',
  /** the configuration lacks a capability or credential (`variables` names what would supply it) */
  'configuration',
  /** a prerequisite failed first (`prerequisite`) */
  'blocked',
  /** the run error, or a run-side cause that stopped the check (`remedy`) */
  'run-error',
  /** the check did not run: the run ended first */
  'not-run',
] as const;

export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];
export type TestOutcome = (typeof TEST_OUTCOMES)[number];
export type RunVerdict = (typeof VERDICT_OF)[Outcome];
export type NotVerifiedKind = (typeof NOT_VERIFIED_KINDS)[number];
