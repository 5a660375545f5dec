// What reports/index.html shows, independent of conformance.json's shape (src/result/schema.ts): the page's
// components read only this, and one adapter (from-report.ts) builds it from a result and the requirement
// history.
import type { RequirementStatus, RunVerdict } from '../../../result/outcomes.ts';

/** A requirement's status, and the run's verdict: the result's closed lists (src/result/outcomes.ts). */
export type Status = RequirementStatus;
export type Verdict = RunVerdict;

export type Level = 'MUST' | 'READING' | 'UNSPECIFIED';

export interface PageView {
  verdict: VerdictView;
  header: RunHeader;
  /** What was redacted from every request, response and message the page shows. */
  redaction: string;
  changes?: ChangesView;
  /** The known failures (CONFORMANCE_EXPECTATIONS) that covered a failure, and those past their expiry. */
  known: { inForce: KnownFailure[]; expired: KnownFailure[] };
  areas: AreaView[];
  notVerified: NotVerifiedView[];
  /** The distinct causes of the failures, in the order the run met them (src/runner/render/causes.ts). */
  causes: CauseView[];
  failures: FailureView[];
  /** Each failed requirement's first card (its anchor), for the links to it. */
  cardOf: Record<string, string>;
  latency: LatencyView[];
  /** The runs the trends cover, oldest first, this run last. */
  trendRuns: TrendRun[];
  /** What the trend could not read of the history, said under it. */
  historyNote?: string;
}

export interface VerdictView {
  verdict: Verdict;
  /** Why the verdict is not PASS, in one sentence; absent on a PASS. */
  cause?: string;
  /** On a PASS: what it rests on, and the MUST requirements it does not count (src/runner/render/verdict-cause.ts). */
  basis?: string;
  /** On a FAIL: what the run would be without its failures, and why ("no other problem: …"). */
  beside?: string;
  /** What else the run says beside the verdict (what cut it short, what narrowed it, gate failures). */
  details: string[];
  strict: boolean;
  counts: Record<Status, number>;
  tests: { passed: number; failed: number; skipped: number };
}

export interface RunHeader {
  target: string;
  baseUrl: string;
  environment: string;
  profile: string;
  /** What narrowed the run (empty: the whole profile). */
  selection: string[];
  suiteVersion: string;
  /** The contract judged by: short digests of the spec and schemas, and of the catalogue. */
  contract: string;
  /** The fast-check seed of the run's properties. */
  seed?: number;
  digest?: string;
  startedAt: string;
  durationMs: number;
  requestsSent: number;
}

export interface ChangesView {
  /** What this run is compared with: the baseline file, or the previous run of the history. */
  against: string;
  againstKind: 'baseline' | 'last run';
  newFailures: string[];
  fixed: string[];
  stillFailing: KnownFailure[];
  newlyNotVerified: string[];
  newlyVerified: string[];
  /** Set when the contract or the catalogue differs between the two runs: a change may be the suite's. */
  contractChanged?: string;
}

export interface KnownFailure {
  /** A requirement ID (a link on the page) or a test title. */
  id: string;
  /** The documented reason, owner, ticket and expiry of a known failure, where the expectations give them. */
  reason?: string;
  owner?: string;
  ticket?: string;
  expires?: string;
}

export interface AreaView {
  /** The area's name, also its filter value. */
  name: string;
  /** A fragment-safe id for the area's heading. */
  anchor: string;
  counts: Record<Status, number>;
  requirements: RequirementView[];
}

export interface RequirementView {
  id: string;
  area: string;
  /** The seed's section the requirement is stated in. */
  section: string;
  level: Level;
  /** The catalogue's text, quoting the seed's sentence. */
  text: string;
  /** The suite's reading of a loosely stated point. */
  reading?: string;
  status: Status;
  /** How much the evidence counts (records, pages, requests...), as the evidence lines state it. */
  evidenceCount: number;
  evidence: string[];
  warnings: string[];
  notes: string[];
  /** Why a stated rule cannot be observed by a client (omitted, by the catalogue). */
  unobservable?: string;
  /** A MUST requirement this data cannot show: not verified, and no part of the verdict. */
  uncounted: boolean;
  /** A failed requirement's cards (their anchors). */
  cards: string[];
  /** A known failure's documented reason. */
  deviation?: string;
  tests: { title: string; outcome: string }[];
  trend: TrendView;
}

/** One run of the history, for the trend's columns. */
export interface TrendRun {
  startedAt: string;
  verdict: Verdict;
}

export type TrendKind =
  /** the same status every run */
  | 'steady'
  /** passed before, fails now */
  | 'regression'
  /** failed before, passes now */
  | 'fixed'
  /** alternates between pass and not verified: the data or the configuration, not the target */
  | 'data'
  /** alternates between pass and fail */
  | 'flaky'
  /** any other change */
  | 'changed'
  /** one run only */
  | 'new';

export interface TrendView {
  /** The status in each run of `PageView.trendRuns`; undefined where the run did not have it. */
  statuses: (Status | undefined)[];
  kind: TrendKind;
}

export type NotVerifiedKind =
  /** the check ran and saw too little (data the target does not hold) */
  | 'data'
  /** the configuration lacks a capability or a credential */
  | 'configuration'
  /** a prerequisite requirement failed */
  | 'blocked'
  /** the run's own side (a run error, a page that needs a person) stopped it */
  | 'run-error'
  /** the check did not run: the run ended first, or a narrowed run left it out */
  | 'not-run';

export interface NotVerifiedView {
  id: string;
  level: Level;
  area: string;
  /** A MUST requirement this data cannot show: no part of the verdict, and marked so. */
  uncounted: boolean;
  /** Each reason once, with the checks that gave it. */
  reasons: {
    tests: string[];
    kind: NotVerifiedKind;
    message: string;
    /** What would verify it: the variables to set, the data needed, the requirement to fix first. */
    howToVerify: string;
    /** Kind blocked: the requirement that failed first (a link on the page). */
    prerequisite?: string;
  }[];
}

/** A cause of failures: one server bug, whatever requirements and operations it fails. */
export interface CauseView {
  /** Its anchor: `cause-1`. */
  id: string;
  /** `/score/strain` (within a record), `status`. */
  field?: string;
  /** `24.94 > 21`. */
  what: string;
  /** `GET /v2/cycle/{id}, GET /v2/cycle`. */
  operations: string;
  /** The requirements it fails, each with its first card of this cause. */
  requirements: { id: string; card?: string }[];
  /** Its cards, the first the one its line links to and copies the curl of. */
  cards: string[];
  /** The card whose curl the line's Copy button copies. */
  curlCard?: string;
  /** Every failure of it is a known one (CONFORMANCE_EXPECTATIONS). */
  known: boolean;
}

/** A failure: one finding, or the same finding (requirement, message, request) met by several tests. */
export interface FailureView {
  /** A fragment-safe id of the card. */
  anchor: string;
  requirement: string;
  /** What broke, for the card's title: the operation, the field or status, what it held. */
  title: { operation?: string; field?: string; what: string; violations: number };
  /** The cause it is shown under (its first). */
  cause?: string;
  message: string;
  /** The offending fields of the answer (JSON pointers into {status, headers, body}), where the check knows them. */
  fields?: string[];
  /** The tests that met it, in the report's order. */
  tests: { title: string; file: string }[];
  request?: RequestView;
  response?: ResponseView;
  /** A shell-safe curl, secrets as variables to set (`placeholders`), and what to set them to. */
  curl?: { command: string; placeholders: string[]; settings: string };
  /** A property's failure: the fast-check seed and the command that replays it. */
  replay?: { seed: number; command: string };
  /** The request as the check stated it, where the result keeps no exchange for the finding. */
  evidence?: string;
  /** A property's failure: fast-check's report (seed, path, counterexample). */
  detail?: string;
}

export interface BodyView {
  text: string;
  /** The body's whole size in bytes, also when `text` is cut. */
  bytes: number;
  cut: boolean;
}

export interface RequestView {
  method: string;
  url: string;
  headers: [string, string][];
  body?: BodyView;
}

export interface ResponseView {
  status: number;
  headers: [string, string][];
  body?: BodyView;
}

export interface LatencyView {
  operationId: string;
  count: number;
  p50: number;
  p95: number;
  max: number;
  budgetMs?: number;
  overBudget: boolean;
  /** The p95 change against the baseline, e.g. `+12.5 ms (+25%)`. */
  sinceBaseline?: string;
}
