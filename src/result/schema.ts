// The published shape of reports/conformance.json, defined once: TypeBox gives both the TypeScript type
// (`ConformanceResult`) and the JSON Schema 2020-12 (result-schema/conformance-result.schema.json, written by
// `npm run docs:tables`, which readers validate against: src/result/validate.ts). Every object is closed; every list of statuses is closed and rolls up from one
// outcome list, a finding's. Every renderer (Markdown, JUnit, CTRF, the GitHub summary, the page) reads this
// and nothing else, so a result written by an older suite of the same major version renders again.
import Type, { type Static } from 'typebox';
import type { RequirementLevel } from '../contract/requirements.ts';
import { RUN_ERROR_KINDS } from '../run-state/run-error.ts';
import { RESULT_SCHEMA_ID } from './identity.ts';
import {
  NOT_VERIFIED_KINDS,
  OUTCOMES,
  REQUIREMENT_STATUSES,
  RUN_VERDICTS,
  TEST_OUTCOMES,
} from './outcomes.ts';

export const REQUIREMENT_LEVELS = [
  'MUST',
  'READING',
  'UNSPECIFIED',
] as const satisfies readonly RequirementLevel[];

const closed = { additionalProperties: false } as const;
const text = (description: string) => Type.String({ description });
const count = (description: string) => Type.Integer({ minimum: 0, description });
const ids = (description: string) => Type.Array(Type.String(), { description });
const oneOf = <const T extends string[]>(values: readonly [...T], description: string) =>
  Type.Enum(values, { description });
const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description: string) =>
  Type.Object(properties, { ...closed, description });

const Outcome = oneOf(OUTCOMES, 'what a check found');
const TestOutcome = oneOf(TEST_OUTCOMES, 'how a test ended');
const RequirementStatus = oneOf(REQUIREMENT_STATUSES, "a requirement's status");
const RunVerdict = oneOf(RUN_VERDICTS, 'the run verdict');
const NotVerifiedKind = oneOf(NOT_VERIFIED_KINDS, 'why a requirement was not verified');

const RUN_ERROR = {
  kind: oneOf(RUN_ERROR_KINDS, "the run-side cause's kind"),
  cause: text('what went wrong, redacted'),
  remedy: text('what to do about it, e.g. "check CONFORMANCE_BASE_URL"'),
  stack: Type.Optional(text("kind suite: where the suite's code failed (the error's stack, redacted)")),
};
const RunError = object(
  RUN_ERROR,
  "what on the suite's or the user's side stopped checks (never the target's failure)",
);

const RequestTally = object(
  {
    user: count('user-data operations'),
    partner: count('partner requests'),
    other: count('sign-in and administration requests'),
  },
  'requests by the credential whose rate budget they drew on',
);

const Replay = object(
  {
    seed: Type.Integer({ description: "fast-check's seed" }),
    path: Type.Optional(text("fast-check's path to the counterexample")),
    command: text('the command that runs the check again with this seed'),
  },
  'how to replay a property-based failure',
);

const Finding = object(
  {
    requirement: text('the requirement ID the finding is about'),
    outcome: Outcome,
    message: text('what the check found, redacted'),
    evidence: Type.Optional(text('context the message rests on (the request line and its curl), redacted')),
    exchange: Type.Optional(text("the id of the exchange it rests on, in the result's `exchanges`")),
    curl: Type.Optional(
      text(
        'the curl that sends the request again, where the finding rests on a request and no exchange (one left without an answer), redacted (since 1.2.0)',
      ),
    ),
    fields: Type.Optional(
      Type.Array(Type.String({ pattern: '^(/[^/]*)+$' }), {
        minItems: 1,
        description:
          'where in the answer the rule broke, where the check knows it: JSON pointers (RFC 6901) into the answer as {status, headers, body}, e.g. /status, /headers/content-type, /body/records/3/score/strain (since 1.1.0)',
      }),
    ),
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'outcome pass: how many observations it rests on (1 if absent)',
      }),
    ),
    prerequisite: Type.Optional(text('outcome blocked: the requirement that failed first')),
    kind: Type.Optional(
      oneOf(
        ['data', 'configuration', 'not-run'],
        'outcome not-verified: why (absent: the data held too little)',
      ),
    ),
    variables: Type.Optional(ids('outcome not-verified: the variables that would supply what was lacking')),
    runError: Type.Optional(RunError),
    replay: Type.Optional(Replay),
  },
  "one outcome of a check, as the check recorded it (src/protocol/finding.ts); a test's outcome and a requirement's status roll up from these",
);

const Body = object(
  {
    text: text('the body as text, redacted, cut at the limit'),
    size: count('the whole body, in bytes'),
    truncated: Type.Boolean({ description: 'whether `text` was cut' }),
  },
  'a request or response body',
);
const Headers = Type.Record(Type.String(), Type.String(), { description: 'headers, redacted' });

const Exchange = object(
  {
    id: text('referenced by findings and tests'),
    test: text('the title of the test that sent it'),
    request: object(
      {
        method: text('the HTTP method'),
        url: text('redacted'),
        headers: Headers,
        body: Type.Optional(Body),
      },
      'the request as sent',
    ),
    response: object(
      {
        status: Type.Integer({ minimum: 100, maximum: 599, description: 'the HTTP status' }),
        headers: Headers,
        body: Body,
      },
      'the answer',
    ),
    curl: text('a shell-safe curl line that sends the request again, secrets as placeholders'),
    startedAt: Type.Optional(Type.String({ format: 'date-time', description: 'when it was sent' })),
    durationMs: Type.Optional(Type.Number({ minimum: 0, description: 'how long the target took to answer' })),
  },
  'one request and its answer, redacted, of a test that did not pass',
);

const TestResult = object(
  {
    title: text('the title path below the file, " › " between parts'),
    file: text("the spec file (tests/…), or 'global setup'"),
    status: oneOf(['passed', 'failed', 'skipped'], "Playwright's status of the test"),
    outcome: TestOutcome,
    requirements: ids('the requirement IDs the test declares (its tags)'),
    failedRequirements: ids('the requirements of its fail findings'),
    tags: ids('its other tags (@smoke, @write, …)'),
    skipReason: Type.Optional(text('why it stopped without a verdict')),
    findings: Type.Array(Finding, { description: 'what it found, in the order recorded' }),
    exchanges: Type.Optional(ids("its exchanges' ids (tests that did not pass)")),
    prismViolations: ids('violations Prism reported as a validating proxy (a second opinion)'),
    requests: Type.Optional(RequestTally),
    error: Type.Optional(text('its error, redacted, cut at 3000 characters')),
    runError: Type.Optional(
      object(
        RUN_ERROR,
        "what on the suite's or the user's side the test met: what stopped it (outcome error), or an error of the suite's own code beside its failures (outcome fail)",
      ),
    ),
    durationMs: Type.Optional(Type.Number({ minimum: 0, description: 'how long its last attempt took' })),
  },
  'one test',
);

/** A line of a requirement's result, and the test it comes from. */
const stated = <T extends Parameters<typeof Type.Object>[0]>(extra: T, description: string) =>
  object(
    { test: text('the title of the test that stated it'), message: text('what it stated'), ...extra },
    description,
  );

const RequirementResult = object(
  {
    id: Type.String({ pattern: '^[A-Z0-9]+(-[A-Z0-9]+)+$', description: 'the requirement ID, an anchor' }),
    level: oneOf(
      REQUIREMENT_LEVELS,
      'MUST: a stated rule; READING: the suite reads a loose point; UNSPECIFIED: not shown',
    ),
    section: text("the seed's section"),
    area: text('the first part of the section: how reports group requirements'),
    text: text("the seed's sentence"),
    reading: Type.Optional(text("the suite's reading of a loosely stated point (warnings name it)")),
    status: RequirementStatus,
    verifiable: Type.Boolean({ description: 'false for a stated rule no black-box client can observe' }),
    reason: Type.Optional(text('why it is not verifiable')),
    tests: Type.Array(
      object(
        { title: text("the test's title"), outcome: TestOutcome },
        'a test that verifies it, or failed on it',
      ),
    ),
    evidence: Type.Array(
      stated(
        {
          count: Type.Integer({
            minimum: 1,
            description: 'how many observations (1 if the check gave no count)',
          }),
        },
        'what a pass rests on, and on how many observations',
      ),
    ),
    evidenceCount: count('the observations its passes rest on: the sum of the evidence counts'),
    warnings: Type.Array(stated({}, "a departure from the suite's reading")),
    notVerified: Type.Array(
      stated(
        {
          kind: NotVerifiedKind,
          prerequisite: Type.Optional(text('kind blocked: the requirement that failed first')),
          variables: Type.Optional(ids('kind configuration: what to set')),
          remedy: Type.Optional(text('kind run-error: what to do')),
        },
        'why a test could not verify it, and how to',
      ),
    ),
    notes: Type.Array(stated({}, 'what the target does where the seed leaves it open')),
    deviation: Type.Optional(text('the documented reason of a known deviation (CONFORMANCE_EXPECTATIONS)')),
  },
  'a requirement of the catalogue (specs/requirements.yaml) and its result',
);

/** Who answers for a known failure, and until when it is known (CONFORMANCE_EXPECTATIONS; since 1.1.0). */
const KNOWN_FAILURE_OWNERSHIP = {
  owner: Type.Optional(text('who answers for it (a person or a team)')),
  ticket: Type.Optional(text('the ticket that tracks it')),
  expires: Type.Optional(
    Type.String({
      format: 'date',
      description: 'the last day it is known: a run that starts after it counts the failure again',
    }),
  ),
};

const SlowRequest = object(
  {
    operationId: Type.Optional(text('the operation of specs/openapi.yaml, when the request is one')),
    request: text('the request line, redacted'),
    test: text('the test that sent it'),
    first: text('what became of the first sending, in words'),
    second: Type.Optional(text('what became of the second sending, when there was one')),
    used: oneOf(['first', 'second', 'neither'], 'the sending the check went on with'),
  },
  'a request that was slow (past 1 s) or lost its connection (src/protocol/slow-requests.ts)',
);

const LatencyRow = object(
  {
    operationId: text('the operation of specs/openapi.yaml'),
    count: count('timed answers'),
    p50: Type.Number({ minimum: 0, description: 'median' }),
    p95: Type.Number({ minimum: 0, description: '95th percentile' }),
    max: Type.Number({ minimum: 0, description: 'slowest' }),
    budgetMs: Type.Optional(
      Type.Number({ minimum: 0, description: 'CONFORMANCE_LATENCY_BUDGET for its p95' }),
    ),
    baseline: Type.Optional(
      object({ p95: Type.Number({ minimum: 0, description: 'its p95 then' }) }, "the baseline run's figures"),
    ),
  },
  'answer times of one operation (ms, nearest rank)',
);

const Inputs = object(
  {
    depth: Type.Optional(
      object(
        {
          depth: text('quick, standard or deep'),
          why: text('why this depth'),
          propertyCases: count('generated cases per operation'),
          referencePages: count('pages a reference walk reads at most'),
          rotation: Type.Integer({ description: "which share of the input space this run's rotation took" }),
        },
        "the run's depth plan",
      ),
    ),
    covered: Type.Array(
      object(
        {
          family: text('the class family'),
          values: ids('the values covered'),
          pairs: count('(value, where) pairs'),
        },
        'a class family',
      ),
    ),
    budget: Type.Optional(
      object({ spent: count('requests spent'), of: count('the budget') }, 'the smoke request budget'),
    ),
  },
  'how deep the run went and which input classes it covered',
);

const SinceLastRun = object(
  {
    baseline: text('the previous conformance.json'),
    failOn: oneOf(['any', 'new'], 'CONFORMANCE_FAIL_ON'),
    newFailures: ids('failing now, not then'),
    fixed: ids('failing then, not now'),
    stillFailing: ids('failing both times'),
    newlyNotVerified: ids('not verified now, not then'),
    newlyVerified: ids('not verified then, passing now'),
    evidenceShrank: Type.Array(
      object(
        {
          id: text('the requirement'),
          before: count('its evidence count then'),
          after: count('its evidence count now'),
        },
        'a requirement whose evidence shrank',
      ),
      { description: 'passing both times, on fewer observations than before' },
    ),
    contractChanged: Type.Optional(
      Type.Boolean({
        description: 'the spec or schemas differ from the baseline run’s (a change is not the target’s)',
      }),
    ),
    catalogueChanged: Type.Optional(Type.Boolean({ description: 'the requirement catalogue differs' })),
  },
  'CONFORMANCE_BASELINE: this run against a previous one, requirement by requirement',
);

const Recording = object(
  {
    sources: Type.Array(
      object(
        {
          file: text('the recording file'),
          format: oneOf(['har', 'ndjson'], 'HAR 1.2 or NDJSON'),
          exchanges: count('exchanges it held'),
        },
        'a recording read',
      ),
    ),
    exchanges: count('exchanges checked'),
    matched: count('exchanges of a known operation'),
    unknown: count('exchanges of no operation (notes)'),
    unknownRoutes: ids('"unknown operation: GET /v3/x (4 exchange(s); first file.har#7)"'),
    exchangesPerSecond: Type.Number({ minimum: 0, description: 'how fast they were checked' }),
  },
  '`check-recording`: the recorded traffic the result was built from (no request sent)',
);

const Digest = object(
  {
    algorithm: Type.Literal('sha256', { description: 'the hash' }),
    spec: text('SHA-256 of the spec, catalogue and schemas'),
    suiteVersion: text('the suite version it was computed with'),
    results: text(
      'SHA-256 of the whole result but `digest` and `signature`, as canonical JSON (keys sorted, no spaces; since 1.2.0: before, of the verdict, completeness, selection and requirements)',
    ),
    combined: text('SHA-256 of the three'),
    statement: Type.Optional(
      text('what the digest proves, in words: unsigned, an integrity digest, not a signature (since 1.2.0)'),
    ),
  },
  'the certification digest (verify-report checks it)',
);

const Signature = object(
  {
    algorithm: Type.Literal('ed25519', { description: 'the signature scheme (RFC 8032)' }),
    key: text("the signing key's fingerprint: sha256: and the hex SHA-256 of its public key (SPKI, DER)"),
    signed: text("what was signed: the digest's `combined`, after a fixed prefix"),
    value: text('the signature, base64'),
    statement: text('what the signature proves, and what it does not, in words'),
  },
  "the certifying party's Ed25519 signature of the digest (CONFORMANCE_SIGNING_KEY_FILE; verify-report --public-key checks it; since 1.2.0)",
);

/** `extensions`: what is not yet standard, each under a namespace of its own ("vendor.feature"). */
const Extensions = Type.Record(
  Type.String({ pattern: '^[a-z][a-z0-9-]*(\\.[a-z0-9-]+)+$' }),
  Type.Unknown(),
  {
    description: 'what is not yet standard, each under a dotted namespace of its own, e.g. "acme.ticket"',
  },
);

export const ConformanceResultSchema = Type.Object(
  {
    $schema: Type.Literal(RESULT_SCHEMA_ID, { description: 'the schema this result follows' }),
    schemaVersion: Type.String({
      pattern: '^1\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$',
      description: 'SemVer of the schema the result was written under (major 1)',
    }),
    suite: object(
      { name: text('the package name'), version: text('the package version') },
      'the suite that wrote it',
    ),
    contract: object(
      {
        spec: text('SHA-256 of specs/openapi.yaml and schemas/'),
        catalogue: text('SHA-256 of specs/requirements.yaml'),
      },
      'the contract the run judged against',
    ),
    target: text('the target kind: sandbox, prism, url'),
    baseUrl: text('redacted'),
    profile: text('ci-gate, certification or smoke'),
    environment: text('production or non-production'),
    strict: Type.Boolean({ description: 'CONFORMANCE_STRICT: warnings fail' }),
    startedAt: Type.String({ format: 'date-time', description: 'when the run started' }),
    durationMs: Type.Number({ minimum: 0, description: 'how long the run took' }),
    requestsSent: count('requests the run sent (summed over merged shards)'),
    propertySeed: Type.Optional(
      Type.Integer({ description: 'CONFORMANCE_SEED: the fast-check seed of every property' }),
    ),
    shards: Type.Optional(count('how many shards were merged into this result')),
    stoppedSending: Type.Optional(text('why the run stopped sending before its end')),
    runError: Type.Optional(RunError),
    runSideStops: Type.Optional(
      Type.Array(
        object(
          { ...RUN_ERROR, checks: count('checks it stopped') },
          'a run-side cause that stopped some checks',
        ),
      ),
    ),
    selection: ids('what narrowed the run to part of its profile; empty: the whole profile ran'),
    requests: Type.Optional(
      object(
        {
          byCredential: RequestTally,
          byFamily: Type.Record(Type.String(), RequestTally, {
            description: 'by the family of the first requirement each test declares (PAG, OP…)',
          }),
          rateLimitedAnswers: count('paced requests answered 429 (each sent again after the reset)'),
        },
        "the run's requests by credential and by requirement family",
      ),
    ),
    totals: object(
      {
        passed: count('tests passed'),
        failed: count('tests failed'),
        skipped: count('tests skipped (stopped without a verdict)'),
      },
      'tests by Playwright status',
    ),
    requirementTotals: object(
      Object.fromEntries(
        REQUIREMENT_STATUSES.map((status) => [status, count(`requirements of status ${status}`)]),
      ) as Record<(typeof REQUIREMENT_STATUSES)[number], ReturnType<typeof count>>,
      'requirements by status',
    ),
    verdict: RunVerdict,
    verdictBesideFailures: Type.Optional(
      oneOf(
        RUN_VERDICTS.filter(
          (verdict): verdict is Exclude<(typeof RUN_VERDICTS)[number], 'fail'> => verdict !== 'fail',
        ),
        "a FAIL's verdict but for its failures",
      ),
    ),
    gateFailures: ids('what makes the run FAIL, one line each'),
    incomplete: Type.Array(
      object(
        { id: text('the requirement'), reasons: ids('why, one line per test (or the narrowing)') },
        'a MUST requirement of the profile not verified',
      ),
      { description: 'why the run is INCOMPLETE' },
    ),
    deviations: Type.Array(
      object(
        {
          test: text('the failed test'),
          key: text('the expectation that covers it (a requirement ID or a title)'),
          reason: text('its documented reason'),
          ...KNOWN_FAILURE_OWNERSHIP,
        },
        'a documented known failure (CONFORMANCE_EXPECTATIONS)',
      ),
    ),
    expiredDeviations: Type.Optional(
      Type.Array(
        object(
          {
            key: text('the expectation (a requirement ID or a title)'),
            reason: text('its documented reason'),
            ...KNOWN_FAILURE_OWNERSHIP,
          },
          'a known failure past its expiry: its failures count again',
        ),
        {
          description:
            'CONFORMANCE_EXPECTATIONS entries whose `expires` date the run started after (since 1.1.0)',
        },
      ),
    ),
    unknownRequirementTags: ids('requirement tags no catalogue entry has'),
    redaction: object(
      {
        marker: text('what replaces a secret'),
        fields: ids('body and query fields whose values are replaced'),
        headers: ids('headers whose values are replaced'),
      },
      'what every text of the result had redacted',
    ),
    requirements: Type.Array(RequirementResult, {
      description: 'every requirement of the catalogue, in its order',
    }),
    tests: Type.Array(TestResult),
    exchanges: Type.Array(Exchange, { description: 'the exchanges of the tests that did not pass, by id' }),
    digest: Type.Optional(Digest),
    signature: Type.Optional(Signature),
    recording: Type.Optional(Recording),
    sinceLastRun: Type.Optional(SinceLastRun),
    latency: Type.Optional(Type.Array(LatencyRow)),
    slowRequests: Type.Optional(
      Type.Array(SlowRequest, { description: 'the slow or lost requests, and what became of each sending' }),
    ),
    sentTwice: Type.Optional(count('how many of them were sent a second time beside their first')),
    inputs: Type.Optional(Inputs),
    extensions: Extensions,
  },
  {
    ...closed,
    $id: RESULT_SCHEMA_ID,
    title: 'Conformance result of the Physiology Data and Partner Lab Service suite',
    description: 'reports/conformance.json: the single source of every report of a run',
  },
);

export type ConformanceResult = Static<typeof ConformanceResultSchema>;
export type ResultFinding = Static<typeof Finding>;
export type ResultTest = Static<typeof TestResult>;
export type ResultRequirement = Static<typeof RequirementResult>;
export type ResultExchange = Static<typeof Exchange>;
export type { NotVerifiedKind, Outcome, RequirementStatus, RunVerdict, TestOutcome } from './outcomes.ts';

/** The JSON Schema document as published: 2020-12, with the suite's own `$id`. */
export const resultSchemaDocument = (): Record<string, unknown> => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  ...(JSON.parse(JSON.stringify(ConformanceResultSchema)) as Record<string, unknown>),
});
