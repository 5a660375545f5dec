// Every record of every page of user A's four collections, and a spread sample of every single-record read,
// validated against the schemas. Each violation is attributed to the requirement its rule states (the
// schemas' x-requirement annotations), then one test per requirement those schemas state asserts that none
// is attributed to it. Unknown properties are allowed by the contract: they become notes, never failures.
import {
  bodyOf,
  buildPath,
  type CollectionOutcome,
  type DataRecord,
  type Dataset,
  type Exchange,
  isRequirementId,
  loadSchema,
  messageOf,
  type Operation,
  type OperationId,
  operations,
  requirementById,
  requirements,
  requirementsOf,
  type SchemaProblem,
  schemaProblems,
  succeeded,
  successRequirement,
  Tags,
  test,
  userCollections,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

// Single reads are sampled per operation, spread over the reference walk (newest, middle, oldest), as many
// as the run's depth plan says.
const singleReads = operations.filter(
  (op) =>
    (op.area === 'user-data' || op.area === 'utility') &&
    op.method === 'GET' &&
    !op.isCollection &&
    op.responseSchema !== null,
);

/** The requirements the schemas of these responses state (in the catalogue's order): one test each. */
const stated = new Set<string>(
  [...userCollections, ...singleReads].flatMap((op) => requirementsOf(op.responseSchema as string)),
);
const schemaRequirements = requirements
  .map((r) => r.id)
  .filter(isRequirementId)
  .filter((id) => stated.has(id));
for (const id of schemaRequirements) {
  if (requirementById(id).level !== 'MUST')
    throw new Error(`${id} is not a MUST requirement of the catalogue`);
}

/** A body the checks judged: its operation, the answer, and what its schema says of it (src/checks/). */
interface JudgedRead {
  op: Operation;
  exchange: Exchange;
  problems: SchemaProblem[];
}

/** What the reads of user A's data gave the schema checks, read once per worker and target. */
interface SchemaReads {
  judged: JudgedRead[];
  /** A collection whose walk failed on a rule these checks state: its failure, for the check of that rule. */
  failed: { requirement: string; text: string; exchange?: Exchange; fields?: readonly string[] }[];
  /** Unknown properties by requirement: "GET /v2/cycle /records/*∕extra: unknown property … (in 12 responses)". */
  notes: Map<string, string[]>;
  /** What could not be checked at all (a collection that could not be read). */
  unreadable: string[];
  /** The failure that kept a collection from being read, for the checks that then saw nothing. */
  blockers: { requirement: string; reason: string }[];
  /** Why a collection was not read: the grant lacks its scope (src/auth/granted-scope.ts). */
  withheld: string[];
  /** What was checked: each collection's records, the pages, and the 2xx single reads by operation. */
  seen: { records: Map<OperationId, DataRecord[]>; pages: number; singles: Map<OperationId, number> };
}

const scored = (records: readonly DataRecord[] = []) => records.filter((r) => r.score_state === 'SCORED');
const withScore = (records: readonly DataRecord[] = []) => records.filter((r) => r.score !== undefined);

/**
 * What each rule needs to have seen to say anything: the count of its witnesses in the data (a range rule
 * over zero scores verifies nothing). A rule with no witness is not verified.
 */
const witnesses: Record<string, (seen: SchemaReads['seen']) => [number, string]> = {
  'SCH-CYCLE': (s) => [s.records.get('listCycles')?.length ?? 0, 'cycles'],
  'SCH-CYCLE-SCORE': (s) => [scored(s.records.get('listCycles')).length, 'SCORED cycles'],
  'SCH-SLEEP': (s) => [s.records.get('listSleeps')?.length ?? 0, 'sleeps'],
  'SCH-SLEEP-SCORE': (s) => [scored(s.records.get('listSleeps')).length, 'SCORED sleeps'],
  'SCH-RECOVERY': (s) => [s.records.get('listRecoveries')?.length ?? 0, 'recoveries'],
  'SCH-RECOVERY-SCORE': (s) => [scored(s.records.get('listRecoveries')).length, 'SCORED recoveries'],
  'SCH-WORKOUT': (s) => [s.records.get('listWorkouts')?.length ?? 0, 'workouts'],
  'SCH-BODY-MEASUREMENT': (s) => [s.singles.get('getBodyMeasurement') ?? 0, 'body measurement reads'],
  'SCH-BASIC-PROFILE': (s) => [s.singles.get('getBasicProfile') ?? 0, 'basic profile reads'],
  'SCH-ACTIVITY-MAPPING': (s) => [s.singles.get('getActivityMapping') ?? 0, 'activity mapping reads'],
  'SCH-ENVELOPE': (s) => [s.pages, 'collection pages'],
  'SCH-TIMEZONE-OFFSET': (s) => [
    all(s).filter((r) => r.timezone_offset !== undefined).length,
    'timezone offsets',
  ],
  'SCH-DATE-TIME': (s) => [all(s).length, 'records'],
  'SCH-INTEGER-FORMATS': (s) => [all(s).length, 'records'],
  'INV-SCORE-STATE-ENUM': (s) => [all(s).filter((r) => r.score_state !== undefined).length, 'score states'],
  'INV-STRAIN-RANGE': (s) => [
    withScore(s.records.get('listCycles')).length + withScore(s.records.get('listWorkouts')).length,
    'cycle and workout scores',
  ],
  'INV-PERCENTAGE-RANGE': (s) => [
    scored(s.records.get('listRecoveries')).length + scored(s.records.get('listSleeps')).length,
    'SCORED recoveries and sleeps',
  ],
  'INV-NAP-NEED-NONPOSITIVE': (s) => [scored(s.records.get('listSleeps')).length, 'SCORED sleeps'],
  'VER-V2-IDS': (s) => [
    (s.records.get('listSleeps')?.length ?? 0) + (s.records.get('listWorkouts')?.length ?? 0),
    'sleeps and workouts',
  ],
  'VER-V2-RECOVERY-SLEEP-ID': (s) => [s.records.get('listRecoveries')?.length ?? 0, 'recoveries'],
  'VER-V2-ZONE-DURATIONS': (s) => [withScore(s.records.get('listWorkouts')).length, 'workout scores'],
  'INV-CYCLE-SCORE-IFF-SCORED': (s) => [scored(s.records.get('listCycles')).length, 'SCORED cycles'],
  'INV-SLEEP-SCORE-IFF-SCORED': (s) => [scored(s.records.get('listSleeps')).length, 'SCORED sleeps'],
  'INV-RECOVERY-SCORE-IFF-SCORED': (s) => [
    scored(s.records.get('listRecoveries')).length,
    'SCORED recoveries',
  ],
};
const all = (seen: SchemaReads['seen']): DataRecord[] => [...seen.records.values()].flat();
const checks = schemaRequirements.map((requirement) => {
  const witness = witnesses[requirement];
  if (witness === undefined) throw new Error(`no witnesses counted for ${requirement}`);
  return { requirement, witness };
});
const unstated = Object.keys(witnesses).filter((id) => !stated.has(id));
if (unstated.length > 0)
  throw new Error(`witnesses of requirements no schema states: ${unstated.join(', ')}`);

/** Judges a body served for `op` against its schema, counting its unknown properties (`noteCounts`). */
function judge(
  reads: SchemaReads,
  noteCounts: Map<string, number>,
  read: Omit<JudgedRead, 'problems'>,
  where: string,
) {
  const body = bodyOf(read.exchange);
  if (!body.ok) return;
  const { problems, unknown } = schemaProblems(read.op.responseSchema as string, body.value, where);
  reads.judged.push({ ...read, problems });
  for (const { requirement, text } of unknown) {
    const key = `${requirement}\n${read.op.method} ${read.op.path}: ${text}`;
    noteCounts.set(key, (noteCounts.get(key) ?? 0) + 1);
  }
}

/** A collection that could not be read to its end: its failure where it breaks a rule checked here. */
function unreadCollection(
  reads: SchemaReads,
  op: Operation,
  outcome: Extract<CollectionOutcome, { ok: false }>,
) {
  const { error, failure, basis } = outcome;
  const message = messageOf(error);
  const text = `${op.method} ${op.path}: ${message}`;
  if (failure && stated.has(failure.requirement))
    reads.failed.push({
      requirement: failure.requirement,
      text,
      exchange: basis?.exchange,
      fields: basis?.fields,
    });
  else if (!failure) reads.failed.push({ requirement: 'SCH-ENVELOPE', text });
  const why = `${op.method} ${op.path} could not be read to its end (${message.split('\n')[0]})`;
  reads.unreadable.push(`${why}; its records were not checked`);
  reads.blockers.push({ requirement: failure?.requirement ?? successRequirement(op), reason: why });
}

/** Every page of user A's four collections, judged. */
async function readCollections(dataset: Dataset, reads: SchemaReads, noteCounts: Map<string, number>) {
  for (const op of userCollections) {
    const withheld = await dataset.withheld(op);
    if (withheld) {
      reads.unreadable.push(`${op.method} ${op.path} was not read: ${withheld}`);
      reads.withheld.push(withheld);
      continue;
    }
    const outcome = await dataset.outcome(op);
    if (!outcome.ok) {
      unreadCollection(reads, op, outcome);
      continue;
    }
    reads.seen.records.set(op.operationId, outcome.value.records);
    reads.seen.pages += outcome.value.pages.length;
    // Every page of a walk is JSON: the walk read it so (src/worker/user-data/collections.ts pageOf).
    for (const [index, { exchange }] of outcome.value.pages.entries())
      judge(reads, noteCounts, { op, exchange }, `${op.method} ${op.path} page ${index}`);
  }
}

/** A spread sample of every single-record read, its 2xx answers judged. */
async function readSingles(dataset: Dataset, reads: SchemaReads, noteCounts: Map<string, number>) {
  for (const op of singleReads) {
    if (!(await dataset.canSupply(op))) {
      reads.unreadable.push(
        `${op.operationId} not sampled: its ids come from a collection that could not be read`,
      );
      continue;
    }
    for (const params of await dataset.paramSets(op, (await dataset.plan()).singleReadSamples)) {
      const exchange = await dataset.read(op, params);
      const path = buildPath(op, params);
      // Any 2xx with a body is checked; the exact success status is the operation test's business.
      if (!succeeded(exchange))
        reads.unreadable.push(
          `${exchange.request.method} ${path} answered ${exchange.status}: not checked here (see ${op.operationId}'s operation test)`,
        );
      else if (!bodyOf(exchange).ok)
        reads.unreadable.push(`${path} is not JSON: not checked here (see OP-JSON-BODIES)`);
      else {
        judge(reads, noteCounts, { op, exchange }, `GET ${path}`);
        reads.seen.singles.set(op.operationId, (reads.seen.singles.get(op.operationId) ?? 0) + 1);
      }
    }
  }
}

/** What the schema checks read of user A's data, each body judged by its schema. */
async function readForSchemas(dataset: Dataset): Promise<SchemaReads> {
  const reads: SchemaReads = {
    judged: [],
    failed: [],
    notes: new Map(),
    unreadable: [],
    blockers: [],
    withheld: [],
    seen: { records: new Map(), pages: 0, singles: new Map() },
  };
  const noteCounts = new Map<string, number>();
  await readCollections(dataset, reads, noteCounts);
  await readSingles(dataset, reads, noteCounts);
  for (const [key, count] of noteCounts) {
    const [requirement, text] = key.split('\n') as [string, string];
    reads.notes.set(requirement, [...(reads.notes.get(requirement) ?? []), `${text} (${count} time(s))`]);
  }
  return reads;
}

/**
 * The violations of `requirement` in the reads, failed softly one operation at a time: each failure shows the
 * first answer of the operation that breaks the rule, and names its fields; the check goes on to the next.
 */
function judgeEachOperation(verdict: Verdict, reads: SchemaReads, requirement: string) {
  for (const failed of reads.failed.filter((one) => one.requirement === requirement))
    verdict.soft.fail(failed.text, failed.exchange, failed.fields);
  for (const op of new Set(reads.judged.map((read) => read.op))) {
    const mine = reads.judged.flatMap(({ op: of, exchange, problems }) =>
      of === op ? problems.filter((p) => p.requirement === requirement).map((p) => ({ ...p, exchange })) : [],
    );
    const shown = mine[0]?.exchange;
    verdict.soft.expectNone(
      mine.map(({ text, field, exchange }) => (exchange === shown ? { text, field } : text)),
      shown,
    );
  }
}

for (const { requirement, witness } of checks) {
  test(
    ...verifies(
      requirement,
      "no schema violation attributed to it in user A's collections and single reads",
      {
        // The smoke profile's reads are these checks' too: they cost it no request of their own.
        tag: [Tags.smoke],
      },
    ),
    async ({ dataset, session, verdict }) => {
      // One read per worker and target: the judged reads are shared by the per-requirement tests.
      const reads = await session.sharedRead('schema reads', () => readForSchemas(dataset));
      for (const text of reads.unreadable) verdict.note(text);
      if (requirement.startsWith('SCH-'))
        for (const text of reads.notes.get(requirement) ?? []) verdict.note(text);
      judgeEachOperation(verdict, reads, requirement);
      const [count, what] = witness(reads.seen);
      const [blocker] = reads.blockers;
      if (count === 0 && blocker) verdict.blockedBy(blocker.requirement, blocker.reason);
      const [withheld] = reads.withheld;
      if (count === 0) verdict.notVerified(`no ${what} in user A's data${withheld ? ` (${withheld})` : ''}`);
      verdict.evidence(`${count} ${what} validated`, { count });
    },
  );
}

/** How often each field of a resource schema appears in the records, e.g. "sport_name 212/215". */
function presence(schema: string, records: readonly DataRecord[]): string {
  const fields = Object.keys((loadSchema(schema).properties ?? {}) as object);
  return fields
    .map((field) => `${field} ${records.filter((r) => r[field] !== undefined).length}/${records.length}`)
    .join(', ');
}

/** What the contract leaves "not shown" and the test below records, by what it is about. */
const NOT_SHOWN = {
  workoutFields: 'SCH-WORKOUT-REQUIRED',
  sports: 'SCH-SPORT-VALUES',
  profileFields: 'SCH-PROFILE-REQUIRED',
  stepCount: 'SCH-STEP-COUNT',
} as const;

test(
  ...verifies(
    NOT_SHOWN.workoutFields,
    'records which workout, profile and cycle fields the target returns (not shown by the contract)',
    { also: [NOT_SHOWN.sports, NOT_SHOWN.profileFields, NOT_SHOWN.stepCount] },
  ),
  async ({ dataset, verdict }) => {
    const workouts = await dataset.outcome('listWorkouts');
    if (workouts.ok) {
      const records = workouts.value.records;
      verdict.note(`fields present in ${records.length} workouts: ${presence('workout', records)}`);
      const sports = new Map<string, number>();
      for (const workout of records) {
        const key = `${JSON.stringify(workout.sport_id)}=${JSON.stringify(workout.sport_name)}`;
        sports.set(key, (sports.get(key) ?? 0) + 1);
      }
      verdict
        .of(NOT_SHOWN.sports)
        .note(`sport_id=sport_name pairs seen: ${[...sports].map(([k, n]) => `${k} (${n})`).join(', ')}`);
    } else {
      verdict.note('the workouts could not be read; nothing observed');
    }
    const cycles = await dataset.outcome('listCycles');
    if (cycles.ok) {
      const records = cycles.value.records;
      const types = new Set(
        records.filter((r) => r.step_count !== undefined).map((r) => typeof r.step_count),
      );
      verdict
        .of(NOT_SHOWN.stepCount)
        .note(
          `step_count present in ${records.filter((r) => r.step_count !== undefined).length}/${records.length} cycles${types.size ? ` (JSON types: ${[...types].join(', ')})` : ''}`,
        );
    }
    const profileOp = operations.find((op) => op.operationId === 'getBasicProfile') as Operation;
    const exchange = await dataset.read(profileOp);
    verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
    const body = bodyOf(exchange);
    const profile = body.ok ? body.value : undefined;
    verdict.of(NOT_SHOWN.profileFields).note(
      profile && typeof profile === 'object'
        ? `GET ${profileOp.path} (${exchange.status}) fields: ${Object.entries(profile)
            .map(([field, value]) => `${field}:${value === null ? 'null' : typeof value}`)
            .join(', ')}`
        : `GET ${profileOp.path} answered ${exchange.status} without a JSON object`,
    );
  },
);
