// Property-based robustness of the user-data reads (ERR-NO-5XX-ON-CLIENT-INPUT, ERR-400-MALFORMED-PARAMETER):
// fast-check generates path and query parameters from the operation's parameter schemas in the catalogue
// (validParameterValues / invalidParameterValues) and each request must get what the seed gives it:
//   a known id 200; an id of the right format that may not exist 200 or 404; a malformed id 400;
//   valid collection parameters 200; an invalid limit, start or end 400; start after end 400;
//   and never a 5xx.
// Each value is classified by the seed's types (int64, int32, uuid, ISO 8601 date-time), not by the
// generator's label: e.g. 2^53 is outside the JSON-safe integers but a valid int64. Where the seed leaves
// the answer open (limit 0 or negative, an ISO 8601 date-time that is not RFC 3339) both 200 and 400 pass;
// where the suite reads a loose point, and a conforming server may be lenient (an empty limit, start or end;
// a limit over the maximum or beyond int32, served capped; an integer id beyond int64, or an id in another
// notation of its type; a day past its month's end, or a date without a time; start after end, served
// empty) another non-5xx answer is a warning. What a lenient answer still may not do fails: a page over the
// maximum (PAG-LIMIT-OVER-MAX).
// DELETE /v2/user/access is left out (with a valid token it revokes the grant), and so are the operations
// without parameters (nothing to generate). Each test replays the failure store's counterexamples first
// (src/worker/verdict/explored-property.ts), then its boundary cases: a path parameter's whole finite set of id
// shapes (the known id, the edges of int64 and uuid, every malformed shape) and one per rule of the
// collection queries (an empty end, a limit beyond int32 and over the maximum, an impossible date, start
// after end), so that every requirement a test declares is exercised in every run; then as many generated
// requests as the run's depth plan gives, with the run's seed. A failure names the requirement, the exchange
// with its curl line, and fast-check's seed, path and counterexample.
import fc from 'fast-check';
import {
  type ApiClient,
  assertExplored,
  buildPath,
  covered,
  type Dataset,
  type DepthPlan,
  describeOperation,
  type Exchange,
  invalidParameterValues,
  type JsonSchema,
  type KnownIds,
  type Operation,
  type ParameterSchema,
  type RequirementId,
  requirementById,
  shareOf,
  Tags,
  test,
  userDataOperations,
  type Verdict,
  validParameterValues,
  verifies,
} from '../../src/worker/suite/index.ts';

// Each check is a long walk of generated requests (about 40 to 120): they spread over the workers, as a file
// in a row would hold one worker for the whole walk (on a target answering in 700 ms, about 8 minutes).
test.describe.configure({ mode: 'parallel' });

interface RequestCase {
  label: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** Statuses the seed allows for this request. */
  expected: readonly number[];
  /** The requirement a wrong (non-5xx) status breaks. */
  requirement: RequirementId;
  /** `expected` is the suite's reading, not the seed's word: another (non-5xx) status is a warning. */
  reading?: boolean;
  /** The most records a 200 may hold, whatever the reading, and the requirement a larger page breaks. */
  caps: readonly Cap[];
}

/** A bound on a 200's records: a limit over the maximum (PAG-LIMIT-OVER-MAX), start after end (none). */
interface Cap {
  records: number;
  requirement: RequirementId;
  what: string;
}

/** A verdict on a request: allowed statuses, the requirement, and whether they are only a reading. */
type StatusVerdict = [readonly number[], RequirementId, boolean?];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MAX = 2 ** 31 - 1;

const isInt64 = (value: string): boolean =>
  /^-?\d+$/.test(value) && BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX;
const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Whether a path value is an id of the parameter's type and format (int64 or uuid). */
function wellFormedId(schema: ParameterSchema, value: string): boolean {
  if (schema.type === 'integer') return isInt64(value);
  if (schema.format === 'uuid') return isUuid(value);
  return value !== '';
}

/**
 * Valid ids that could not be known, at the edges of the type: an int64's extremes, one past 2^53 and its
 * longest (19 digits); a uuid's nil, all-ones and upper-case shapes.
 */
const edgeIds = (schema: ParameterSchema): string[] =>
  schema.type === 'integer'
    ? ['0', '1', '9007199254740993', '9223372036854775807', '-9223372036854775808']
    : [
        '00000000-0000-0000-0000-000000000000',
        '00000000-0000-4000-8000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
      ];

/**
 * An id written in another notation of its type, which a lenient parser reads as the id it denotes (a
 * not-found, by the suite's reading a 400): a uuid without hyphens or in braces; an integer in hexadecimal
 * or exponent notation (1.0, the seed's own example, stays malformed).
 */
function inAnotherNotation(schema: ParameterSchema, value: string): boolean {
  if (schema.type === 'integer') return /^(0x[0-9a-f]+|\d+e\d+)$/i.test(value);
  if (schema.format !== 'uuid') return false;
  const hex = value.replace(/^\{(.*)\}$/, '$1');
  return (hex !== value && isUuid(hex)) || /^[0-9a-f]{32}$/i.test(value);
}

/**
 * Malformed ids beyond the generated ones, at the edges of the shape: one digit past int64 either way (20
 * digits), other notations; a uuid a character short or long, without hyphens, braced, with a non-hex digit.
 */
const malformedIds = (schema: ParameterSchema): string[] =>
  schema.type === 'integer'
    ? ['abc', '1.0', '0x10', '1e3', 'null', '9223372036854775808', '-9223372036854775809']
    : [
        'not-a-uuid',
        '123e4567-e89b-12d3-a456-42661417400g',
        '{123e4567-e89b-12d3-a456-426614174000}',
        '123e4567-e89b-12d3-a456-42661417400',
        '123e4567-e89b-12d3-a456-4266141740000',
        '123e4567e89b12d3a456426614174000',
      ];

/** What a generated request sends: its path parameters and query (what the failure store keeps). */
interface RawRequest {
  pathParams: Record<string, string>;
  query: Record<string, string>;
}

/** Generated requests, the boundary cases that go first, and how the seed's rules classify each. */
interface Cases {
  arbitrary: fc.Arbitrary<RawRequest>;
  examples: RawRequest[];
  classify: (request: RawRequest) => RequestCase;
}

/**
 * The path parameter's cases: the known id, and `shapes` of the finite set of id shapes at the edges of its
 * type (edgeIds, malformedIds), the share of this operation under the run's plan.
 */
function pathCases(op: Operation, ids: KnownIds, shapes: (all: string[]) => string[]): Cases {
  const [param] = op.pathParams;
  if (!param || op.pathParams.length !== 1) throw new Error(`${op.operationId}: expected one path parameter`);
  const schema = param.schema as unknown as JsonSchema;
  const classify = pathClassifier(param, ids);
  const raw = (value: string): RawRequest => ({ pathParams: { [param.name]: value }, query: {} });
  const invalid = invalidParameterValues(schema);
  // An empty path segment addresses another resource (/v2/cycle/), not this operation: left out.
  const generatedInvalid = invalid
    ? invalid.map((found) => found.value).filter((value) => value !== '')
    : fc.constantFrom(...malformedIds(param.schema));
  const known = ids[param.name];
  return {
    arbitrary: fc
      .oneof(
        ...(known === undefined ? [] : [fc.constant(known)]),
        validParameterValues(schema),
        fc.constantFrom(...edgeIds(param.schema)),
        generatedInvalid,
        fc.constantFrom(...malformedIds(param.schema)),
      )
      .map(raw),
    // The known id, then this operation's share of the id shapes at the edges of the type and of the
    // malformed ones: a finite domain, sent whole over the operations of each type in every run.
    examples: [
      ...(known === undefined ? [] : [known]),
      ...shapes([...edgeIds(param.schema), ...malformedIds(param.schema)]),
    ].map(raw),
    classify,
  };
}

/** How the seed's rules classify a value of the path parameter: known, well-formed or malformed. */
const pathClassifier =
  (param: Operation['pathParams'][number], ids: KnownIds) =>
  ({ pathParams }: RawRequest): RequestCase => {
    const value = pathParams[param.name] ?? '';
    const known = value === ids[param.name];
    const wellFormed = wellFormedId(param.schema, value);
    // An integer beyond the int64 range, or an id in another notation: malformed (400) by the suite's
    // reading; the seed also lets a server read it as an id that names no record (404), a warning
    // (ERR-400-MALFORMED-PARAMETER).
    const overflow = !wellFormed && param.schema.type === 'integer' && /^-?\d+$/.test(value);
    const notation = !wellFormed && inAnotherNotation(param.schema, value);
    const kind = known
      ? 'a known id'
      : wellFormed
        ? 'a well-formed id'
        : overflow
          ? 'an integer beyond int64'
          : notation
            ? `an id in another notation of its ${param.schema.format ?? param.schema.type}`
            : 'a malformed id';
    return {
      label: `${param.name}=${JSON.stringify(value)} (${kind})`,
      pathParams: { [param.name]: value },
      query: {},
      expected: known ? [200] : wellFormed ? [200, 404] : [400],
      requirement: wellFormed ? 'ERR-NO-5XX-ON-CLIENT-INPUT' : 'ERR-400-MALFORMED-PARAMETER',
      reading: overflow || notation || undefined,
      caps: [],
    };
  };

/** An ISO 8601 date-time (calendar date, time, optional zone) with a real date: the seed's own word. */
function iso8601DateTime(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    value,
  );
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    Number(match[4]) < 24 &&
    Number(match[5]) < 60
  );
}

/**
 * A value that is no RFC 3339 date-time but that a lenient parser reads as an instant: a calendar date alone
 * (its start), or a date-time whose fields are in range but whose day is past its month's end (rolled over
 * into the next month). A month or day out of its field's range (2025-13-45, the seed's example) is not.
 */
function readLeniently(value: string): boolean {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.exec(value);
  if (!match) return false;
  const [, , month, day, hour, minute] = match.map(Number);
  const inRange = (n: number | undefined, min: number, max: number) =>
    n !== undefined && n >= min && n <= max;
  if (!inRange(month, 1, 12) || !inRange(day, 1, 31)) return false;
  if (match[4] === undefined) return dayExists(value);
  return inRange(hour, 0, 23) && inRange(minute, 0, 59) && !dayExists(value);
}

/** Whether the calendar date a value starts with exists (2024-02-29 does, 2025-02-30 does not). */
function dayExists(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function queryParam(op: Operation, name: string): JsonSchema {
  const param = op.queryParams.find((candidate) => candidate.name === name);
  if (!param) throw new Error(`${op.operationId}: no query parameter ${name}`);
  return param.schema as unknown as JsonSchema;
}

/**
 * Whether a request's answer could have broken the stated part of its requirement: any answer to a rule the
 * seed states or to a requirement that is a reading as a whole; to another reading, only a page over a
 * stated cap, from a collection holding more (`held` records).
 */
function couldFail(request: RequestCase, held: number): boolean {
  if (!request.reading || requirementById(request.requirement)?.level === 'READING') return true;
  return request.caps.some(
    (cap) => requirementById(cap.requirement)?.level !== 'READING' && held > cap.records,
  );
}

/** How many records the collection holds (its complete walk; 0 when that walk failed, reported elsewhere). */
async function collectionSize(dataset: Dataset, op: Operation): Promise<number> {
  const outcome = await dataset.outcome(op);
  return outcome.ok ? outcome.value.records.length : 0;
}

/** What the seed says about a limit value: [allowed statuses, requirement, reading only]. */
function limitVerdict(value: string, maximum: number): StatusVerdict {
  // An empty limit may be read as a malformed int32 or as no limit (the default): 400 is the reading.
  if (value === '') return [[400], 'PAG-LIMIT-TYPE', true];
  if (!/^-?\d+$/.test(value)) return [[400], 'PAG-LIMIT-TYPE'];
  const limit = Number(value);
  // No minimum is shown (PAG-LIMIT-MINIMUM): 0 and negative values, however far below int32, may be
  // served (as the default page) or refused.
  if (limit < 1) return [[200, 400], 'PAG-LIMIT-MINIMUM'];
  // Beyond int32 it is no int32, and over the maximum besides: 400 is the suite's reading; a page capped at
  // the maximum also conforms, as for 26 (a page beyond it fails PAG-LIMIT-OVER-MAX, see the caps).
  if (limit > INT32_MAX) return [[400], 'PAG-LIMIT-TYPE', true];
  // Over the maximum: 400 is the suite's reading; a page capped at the maximum also conforms.
  if (limit > maximum) return [[400], 'PAG-LIMIT-OVER-MAX', true];
  return [[200], 'ERR-NO-5XX-ON-CLIENT-INPUT'];
}

/** What the seed says about a start or end value, where it says anything. */
function dateVerdict(value: string): StatusVerdict | undefined {
  // An empty value may be read as a malformed date-time or as no value (absent): 400 is the reading.
  if (value === '') return [[400], 'FLT-MALFORMED-DATE', true];
  // A date alone, or a day past its month's end: malformed by the reading, read leniently by others.
  if (Number.isNaN(Date.parse(value)) || !iso8601DateTime(value))
    return [[400], 'FLT-MALFORMED-DATE', readLeniently(value) || undefined];
  // ISO 8601 but not RFC 3339 (no seconds, no zone): the seed does not say; either answer passes.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value))
    return [[200, 400], 'FLT-MALFORMED-DATE'];
  return undefined;
}

/** Whether a query's start is after its end, both date-times. */
const startAfterEnd = ({ start, end }: Record<string, string>): boolean =>
  start !== undefined &&
  end !== undefined &&
  iso8601DateTime(start) &&
  iso8601DateTime(end) &&
  Date.parse(start) > Date.parse(end);

/**
 * The verdict of a query's parameters together: a definite refusal wins (the seed's over a reading's);
 * otherwise the narrowest verdict that is not plain success.
 */
function queryVerdict(query: Record<string, string>, maximum: number): StatusVerdict {
  const verdicts: StatusVerdict[] = [];
  if (query.limit !== undefined) verdicts.push(limitVerdict(query.limit, maximum));
  for (const name of ['start', 'end'] as const) {
    const value = query[name];
    const verdict = value === undefined ? undefined : dateVerdict(value);
    if (verdict) verdicts.push(verdict);
  }
  // The seed is silent on start after end: 400 or an empty 200, by the suite's reading (FLT-START-AFTER-END).
  if (startAfterEnd(query)) verdicts.push([[200, 400], 'FLT-START-AFTER-END', true]);
  const refusals = verdicts.filter(([statuses]) => statuses.length === 1 && statuses[0] === 400);
  const refusal = refusals.find(([, , reading]) => !reading) ?? refusals[0];
  const open = verdicts.find(([statuses]) => statuses.length > 1);
  return refusal ?? open ?? [[200], 'ERR-NO-5XX-ON-CLIENT-INPUT'];
}

/** The caps on a query's page: the maximum for a limit over it, none for start after end. */
function capsOf(query: Record<string, string>, maximum: number): Cap[] {
  const over = query.limit !== undefined && /^\d+$/.test(query.limit) && Number(query.limit) > maximum;
  return [
    ...(over
      ? [{ records: maximum, requirement: 'PAG-LIMIT-OVER-MAX' as const, what: `the maximum ${maximum}` }]
      : []),
    ...(startAfterEnd(query)
      ? [{ records: 0, requirement: 'FLT-START-AFTER-END' as const, what: 'none, start being after end' }]
      : []),
  ];
}

/** How the seed's rules classify a collection query. */
const queryClassifier =
  (maximum: number) =>
  ({ query }: RawRequest): RequestCase => {
    const [expected, requirement, reading] = queryVerdict(query, maximum);
    const caps = capsOf(query, maximum);
    return {
      label: `query ${JSON.stringify(query)}`,
      pathParams: {},
      query,
      expected,
      requirement,
      reading,
      caps,
    };
  };

/** Generated collection queries: valid ones, each parameter invalid in turn, start after end. */
function queryArbitrary(op: Operation, maximum: number): fc.Arbitrary<RawRequest> {
  const limitSchema = queryParam(op, 'limit');
  const validLimit = validParameterValues(limitSchema);
  const validStart = validParameterValues(queryParam(op, 'start'));
  const validEnd = validParameterValues(queryParam(op, 'end'));
  const invalidLimit = fc.oneof(
    invalidParameterValues(limitSchema)?.map((found) => found.value) ?? fc.constant('abc'),
    fc.constant(String(maximum + 1)),
  );
  const invalidDate =
    invalidParameterValues(queryParam(op, 'start'))?.map((found) => found.value) ?? fc.constant('yesterday');
  const optional = (arbitrary: fc.Arbitrary<string>) => fc.option(arbitrary, { nil: undefined });
  const defined = (query: Record<string, string | undefined>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
  return fc
    .oneof(
      fc.record({ limit: optional(validLimit), start: optional(validStart), end: optional(validEnd) }),
      fc.record({ limit: invalidLimit, start: optional(validStart) }),
      fc.record({ start: invalidDate, limit: optional(validLimit) }),
      fc.record({ end: invalidDate, limit: optional(validLimit) }),
      fc
        .tuple(validStart, validEnd)
        .filter(([start, end]) => Date.parse(start) !== Date.parse(end))
        .map(([a, b]) => (Date.parse(a) > Date.parse(b) ? { start: a, end: b } : { start: b, end: a })),
    )
    .map((query) => ({ pathParams: {}, query: defined(query) }));
}

/**
 * An empty end (malformed by the suite's reading, absent by another) goes first, then a case of each rule
 * and of each edge where a conforming server may be lenient.
 */
const queryExamples = (maximum: number): Record<string, string>[] => [
  { end: '' },
  { limit: '1.5' },
  { limit: String(INT32_MAX + 1) },
  { limit: String(maximum * 2) },
  { start: '2025-13-45T00:00:00Z' },
  { start: '2025-02-30T00:00:00Z' },
  { start: '2024-03-01T12:00:00Z', end: '2024-02-29T12:00:00Z' },
];

function collectionCases(op: Operation): Cases {
  const maximum = op.queryParams.find((param) => param.name === 'limit')?.schema.maximum ?? 25;
  return {
    arbitrary: queryArbitrary(op, maximum),
    examples: queryExamples(maximum).map((query) => ({ pathParams: {}, query })),
    classify: queryClassifier(maximum),
  };
}

/** What the generated requests showed beyond their failures: departures from a reading, answers as the seed says. */
interface Tally {
  departures: Map<RequirementId, string>;
  governed: Map<string, number>;
}

/**
 * A case drawn again (an example the generator also draws, a shrink's step) is the answer already had: one
 * request serves every case that asks the same; `sent` counts the requests.
 */
function answerCache(api: ApiClient, op: Operation, token: string) {
  let sent = 0;
  const answers = new Map<string, Promise<Exchange>>();
  const answerTo = (path: string): Promise<Exchange> => {
    let answer = answers.get(path);
    if (!answer) {
      sent++;
      answer = api.send({ method: op.method, path, token });
      answers.set(path, answer);
      answer.catch(() => answers.delete(path));
    }
    return answer;
  };
  return { answerTo, sent: () => sent };
}

/** One generated request's answer: never a 5xx, within its caps, a status the seed (or the reading) gives it. */
function judgeAnswer(verdict: Verdict, request: RequestCase, exchange: Exchange, held: number, tally: Tally) {
  verdict.expectNo5xx(exchange);
  const served =
    exchange.status === 200 && request.caps.length > 0 ? verdict.pageRecords(exchange).length : 0;
  // A page over a stated cap fails; over a reading's (start after end), it departs from the reading.
  for (const cap of request.caps.filter((one) => served > one.records)) {
    const problem = `${request.label}: ${served} records, more than ${cap.what}`;
    if (requirementById(cap.requirement)?.level === 'READING') tally.departures.set(cap.requirement, problem);
    else verdict.of(cap.requirement).expectThat(false, problem, exchange);
  }
  if (!request.expected.includes(exchange.status) && request.reading) {
    tally.departures.set(
      request.requirement,
      `${request.label}: answered ${exchange.status}, not ${request.expected.join(' or ')}`,
    );
    return;
  }
  verdict
    .of(request.requirement)
    .expectThat(
      request.expected.includes(exchange.status),
      `${request.label}: expected ${request.expected.join(' or ')}, got ${exchange.status}`,
      exchange,
    );
  if (couldFail(request, held))
    tally.governed.set(request.requirement, (tally.governed.get(request.requirement) ?? 0) + 1);
}

/** The departures as warnings; each stated requirement answered as the seed says, with its count. */
function reportTally(
  verdict: Verdict,
  { departures, governed }: Tally,
  also: readonly RequirementId[],
  name: string,
) {
  for (const [requirement, departure] of departures) verdict.of(requirement).warn(departure);
  // A point the seed leaves open (PAG-LIMIT-MINIMUM) has no pass to rest on evidence.
  for (const requirement of also.filter((id) => requirementById(id).level !== 'UNSPECIFIED')) {
    const count = governed.get(requirement) ?? 0;
    if (count > 0)
      verdict
        .of(requirement)
        .evidence(`${name}: ${count} generated request(s) answered as the seed says`, { count });
  }
}

/** The id shapes a path parameter's examples sent, for the coverage table. */
function coverIdShapes(op: Operation, cases: Cases, ids: KnownIds, name: string) {
  const [param] = op.pathParams;
  if (!param) return;
  covered(
    'id shape',
    cases.examples
      .map((raw) => raw.pathParams[param.name] ?? '')
      .filter((value) => value !== ids[param.name])
      .map((value) => `${param.schema.format ?? param.schema.type} ${JSON.stringify(value)}`),
    name,
  );
}

// With a valid token DELETE /v2/user/access revokes the grant; operations without parameters have nothing
// to generate.
const generated = userDataOperations.filter(
  (op) => op.readOnly && (op.pathParams.length > 0 || op.queryParams.length > 0),
);

/** The operations whose path parameter has the same type as `op`'s (they share the id shapes). */
const sameIdType = (op: Operation): Operation[] =>
  generated.filter(
    (other) =>
      other.pathParams[0]?.schema.type === op.pathParams[0]?.schema.type && other.pathParams.length > 0,
  );

/** The share of the id shapes `op` sends under the plan: all of them deep, a rotating share when budgeted. */
const shapesOf =
  (op: Operation, plan: DepthPlan) =>
  (all: string[]): string[] => {
    const takers = sameIdType(op);
    return shareOf(all, takers.indexOf(op), takers.length, plan.rotation, plan.classes);
  };

for (const op of generated) {
  const name = describeOperation(op);
  // The requirements a generated request can break besides the test's own (see the verdicts above), the
  // open minimum of limit included: answered neither 200 nor 400, it fails.
  const also: RequirementId[] = op.isCollection
    ? [
        'PAG-LIMIT-TYPE',
        'PAG-LIMIT-OVER-MAX',
        'PAG-LIMIT-MINIMUM',
        'FLT-MALFORMED-DATE',
        'FLT-START-AFTER-END',
      ]
    : ['ERR-400-MALFORMED-PARAMETER'];
  const what = op.isCollection ? 'query parameters' : 'path parameters';

  test(
    ...verifies(
      'ERR-NO-5XX-ON-CLIENT-INPUT',
      `${name} answers generated ${what} as the seed says, never with a 5xx`,
      { also, tag: [Tags.property], needs: ['stateful'] },
    ),
    async ({ api, config, dataset, userToken, verdict }) => {
      const token = await userToken();
      const ids: KnownIds = (await dataset.idsFor(op)) ?? {};
      const plan = await dataset.plan();
      const cases = op.isCollection ? collectionCases(op) : pathCases(op, ids, shapesOf(op, plan));
      // A page over the maximum can be served only from a collection that holds more.
      const held = op.isCollection ? await collectionSize(dataset, op) : 0;
      const tally: Tally = { departures: new Map(), governed: new Map() };
      const answers = answerCache(api, op, token);
      const replays = await assertExplored(config, {
        check: `${verdict.requirement} ${op.operationId}`,
        arbitrary: cases.arbitrary,
        examples: cases.examples,
        cases: plan.propertyCases,
        predicate: async (raw) => {
          const request = cases.classify(raw);
          const exchange = await answers.answerTo(buildPath(op, request.pathParams, request.query));
          judgeAnswer(verdict, request, exchange, held, tally);
        },
      });
      reportTally(verdict, tally, also, name);
      coverIdShapes(op, cases, ids, name);
      verdict.evidence(
        `${name}: ${answers.sent()} generated requests (fast-check seed ${config.propertySeed}${replays > 0 ? `, ${replays} replayed from the failure store` : ''}), no 5xx`,
      );
    },
  );
}
