// The shape of reports/conformance.json.
import type { RequirementLevel } from '../contract/requirements.ts';
import type { RequestTally } from '../http/request-counter.ts';
import type { RunError } from '../run-state/run-error.ts';
import type { Digest } from './digest.ts';
import type { RunVerdict } from './exit-statuses.ts';
import type { Finding } from './finding.ts';
import type { InputsSection } from './input-coverage.ts';
import type { LatencyRow } from './latency.ts';
import type { SlowRequestRow } from './slow-requests.ts';

/** How a test ended, in the verdict model's terms (src/suite/verdicts.ts). */
export type TestOutcome =
  | 'passed'
  | 'failed'
  /** could not run: too little data, or a capability the configuration lacks */
  | 'not-verified'
  /** a prerequisite failed */
  | 'blocked'
  /** outside the profile or environment (e.g. smoke runs no write) */
  | 'omitted'
  /** not verified: the run error (the suite's or the user's side, `runError`) stopped it; never a failure */
  | 'error';

export interface TestResultSummary {
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  outcome: TestOutcome;
  /** The requirement IDs the test declares (its tags). */
  requirements: string[];
  /** The requirements of its `fail` findings; the declared ones when it failed without one. */
  failedRequirements: string[];
  tags: string[];
  skipReason?: string;
  /** What the test found (src/report/finding.ts): the report's requirement results are built from these. */
  findings: Finding[];
  /** "ID: text" lines of its findings, by kind, for readers of conformance.json. */
  evidence: string[];
  warnings: string[];
  /** Requirements the test could not verify although it ran ("ID: reason"). */
  notVerified: string[];
  notes: string[];
  /** Violations Prism reported as a validating proxy (CONFORMANCE_PRISM_PROXY): a second opinion. */
  prismViolations: string[];
  /** The requests the test sent (shared reads count for the test that made them). */
  requests?: RequestTally;
  error?: string;
  /** Outcome 'error': what on the suite's or the user's side stopped the test. */
  runError?: RunError;
  durationMs?: number;
}

/** A requirement's verdict: the five classes of the verdict model, plus what no test of the run reached. */
export type RequirementStatus =
  | 'pass'
  | 'fail'
  | 'warning'
  | 'not-verified'
  | 'note'
  /** every test of it was outside the profile, or none was selected */
  | 'omitted';

export interface RequirementResult {
  id: string;
  level: RequirementLevel;
  section: string;
  text: string;
  /** The suite's reading of a loosely stated point (warnings name it). */
  reading?: string;
  status: RequirementStatus;
  verifiable: boolean;
  reason?: string;
  tests: { title: string; outcome: TestOutcome; skipReason?: string }[];
  evidence: string[];
  warnings: string[];
  /** Why it could not be verified (each test's reason). */
  notVerified: string[];
  notes: string[];
  /** The documented reason when a failure is a known deviation (CONFORMANCE_EXPECTATIONS). */
  deviation?: string;
}

/** The IDs of the report's requirement results of `status`, in the report's order. */
export const idsWithStatus = (results: readonly RequirementResult[], status: RequirementStatus): string[] =>
  results.flatMap((result) => (result.status === status ? [result.id] : []));

export interface ConformanceReport {
  target: string;
  baseUrl: string;
  profile: string;
  environment: string;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  requestsSent: number;
  /** The fast-check seed of every property of the run (CONFORMANCE_SEED): the same seed, the same requests. */
  propertySeed?: number;
  /** Why the run stopped sending before its end (the target stopped answering), said before anything else. */
  stoppedSending?: string;
  /**
   * What on the run's side stopped the whole run (verdict ERROR, unless a failure makes it FAIL: then the
   * run was cut short), said before anything else.
   */
  runError?: RunError;
  /** What on the run's side stopped only some checks (a page that needs a person), each with how many. */
  runSideStops?: RunSideStop[];
  /**
   * What narrowed the run to part of its profile (src/config/selection.ts: CONFORMANCE_GREP, --grep, a test
   * filter, a shard judged alone...); empty: the whole profile ran. A narrowed run is never a PASS.
   */
  selection: string[];
  /**
   * The run's requests by kind of credential (whose rate budget they drew on) and by requirement family, and
   * how many paced requests were answered 429 (each was sent again after the reset).
   */
  requests?: {
    byCredential: RequestTally;
    byFamily: Record<string, RequestTally>;
    rateLimitedAnswers: number;
  };
  totals: { passed: number; failed: number; skipped: number };
  /** Requirements by status. */
  requirementTotals: Record<RequirementStatus, number>;
  verdict: RunVerdict;
  /** A FAIL's verdict but for its failures (ERROR, INCOMPLETE or PASS): what CONFORMANCE_FAIL_ON=new leaves of it. */
  verdictBesideFailures?: Exclude<RunVerdict, 'fail'>;
  gateFailures: string[];
  /** MUST requirements of the profile not verified, each with its reasons (why the run is INCOMPLETE). */
  incomplete: { id: string; reasons: string[] }[];
  deviations: { test: string; key: string; reason: string }[];
  unknownRequirementTags: string[];
  requirements: RequirementResult[];
  tests: TestResultSummary[];
  digest?: Digest;
  /** `npm run check-recording`: what the recorded exchanges held. */
  recording?: RecordingSection;
  /** CONFORMANCE_BASELINE: this run against a previous one. */
  sinceLastRun?: SinceLastRun;
  /** Per operation: count, p50, p95, max of the target's answer times (ms), budget and baseline p95. */
  latency?: LatencyRow[];
  /**
   * The requests that were slow (past 1 s) or lost their connection, and what became of each sending
   * (src/report/slow-requests.ts); `sentTwice` of them were sent a second time beside their first.
   */
  slowRequests?: SlowRequestRow[];
  sentTwice?: number;
  /** How deep the run went and which classes of the input space it covered (src/report/input-coverage.ts). */
  inputs?: InputsSection;
}

/** A run-side cause that stopped some checks (not verified), and how many. */
export type RunSideStop = RunError & { checks: number };

/** Requirement IDs by how they changed since the baseline run. */
export interface SinceLastRun {
  /** The previous conformance.json. */
  baseline: string;
  /** CONFORMANCE_FAIL_ON: `new` makes the exit status reflect only `newFailures`. */
  failOn: 'any' | 'new';
  newFailures: string[];
  fixed: string[];
  stillFailing: string[];
  newlyNotVerified: string[];
  /** Passing both times, on less evidence (the counts its evidence states) than before. */
  evidenceShrank: { id: string; before: number; after: number }[];
}

/** The recorded traffic a report was built from (no request sent). */
export interface RecordingSection {
  sources: { file: string; format: 'har' | 'ndjson'; exchanges: number }[];
  exchanges: number;
  /** Exchanges of a known operation (the rest are unknown: counted and listed as notes, never failed). */
  matched: number;
  unknown: number;
  /** "unknown operation: GET /v3/x (4 exchange(s); first file.har#7)" */
  unknownRoutes: string[];
  exchangesPerSecond: number;
}
