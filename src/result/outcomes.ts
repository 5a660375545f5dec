// The closed lists of the result schema (src/result/schema.ts), apart from it so that what every worker loads
// (a check's finding, src/report/finding.ts) does not load the schema builder.

/** The one outcome list: what a check found. Test outcomes and requirement statuses are parts of it. */
export const OUTCOMES = [
  'pass',
  'fail',
  'warning',
  'not-verified',
  'blocked',
  'omitted',
  'note',
  'error',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

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
/** The run's verdict, in the order they outrank each other. */
export const RUN_VERDICTS = ['fail', 'error', 'incomplete', 'pass'] as const;
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
export type RunVerdict = (typeof RUN_VERDICTS)[number];
export type NotVerifiedKind = (typeof NOT_VERIFIED_KINDS)[number];
