// Every record of every page of user A's four collections, and a spread sample of every single-record read,
// validated against the schemas. Each violation is attributed to the requirement its rule states (the
// schemas' x-requirement annotations), then one test per requirement those schemas state asserts that none
// is attributed to it. Unknown properties are allowed by the contract: they become notes, never failures.
import {
  attributed,
  bodyField,
  bodyOf,
  buildPath,
  type DataRecord,
  type Dataset,
  type Exchange,
  formatNote,
  formatViolation,
  loadSchema,
  messageOf,
  type Operation,
  type OperationId,
  operations,
  requirementAt,
  requirementById,
  requirements,
  requirementsOf,
  succeeded,
  successRequirement,
  Tags,
  test,
  userCollections,
  validate,
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
const stated = new Set(
  [...userCollections, ...singleReads].flatMap((op) => requirementsOf(op.responseSchema as string)),
);
const schemaRequirements = requirements.map((r) => r.id).filter((id) => stated.has(id));
for (const id of schemaRequirements) {
  if (requirementById(id).level !== 'MUST')
    throw new Error(`${id} is not a MUST requirement of the catalogue`);
}

interface Finding {
  requirement: string;
  text: string;
  exchange?: Exchange;
  /** The offending field of the exchange's answer (a JSON pointer, src/worker/verdict/verdicts.ts). */
  field?: string;
}

interface Findings {
  problems: Finding[];
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
const witnesses: Record<string, (seen: Findings['seen']) => [number, string]> = {
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
const all = (seen: Findings['seen']): DataRecord[] => [...seen.records.values()].flat();
const checks = schemaRequirements.map((requirement) => {
  const witness = witnesses[requirement];
  if (witness === undefined) throw new Error(`no witnesses counted for ${requirement}`);
  return { requirement, witness };
});
const unstated = Object.keys(witnesses).filter((id) => !stated.has(id));
if (unstated.length > 0)
  throw new Error(`witnesses of requirements no schema states: ${unstated.join(', ')}`);

function collect(
  findings: Findings,
  noteCounts: Map<string, number>,
  op: Operation,
  where: string,
  body: unknown,
  exchange: Exchange,
) {
  const schema = op.responseSchema as string;
  const result = validate(schema, body);
  for (const violation of result.errors) {
    findings.problems.push({
      requirement: attributed(violation).requirement,
      text: `${where}: ${formatViolation(violation)}`,
      exchange,
      field: bodyField(violation.pointer),
    });
  }
  for (const unknown of result.notes) {
    const key = `${requirementAt(schema, unknown.pointer)}\n${op.method} ${op.path}: ${formatNote({ ...unknown, pointer: unknown.pointer.replace(/^\/records\/\d+/, '/records/*') })}`;
    noteCounts.set(key, (noteCounts.get(key) ?? 0) + 1);
  }
}

async function check(dataset: Dataset): Promise<Findings> {
  const findings: Findings = {
    problems: [],
    notes: new Map(),
    unreadable: [],
    blockers: [],
    withheld: [],
    seen: { records: new Map(), pages: 0, singles: new Map() },
  };
  const noteCounts = new Map<string, number>();
  for (const op of userCollections) {
    const withheld = await dataset.withheld(op);
    if (withheld) {
      findings.unreadable.push(`${op.method} ${op.path} was not read: ${withheld}`);
      findings.withheld.push(withheld);
      continue;
    }
    const outcome = await dataset.outcome(op);
    if (!outcome.ok) {
      const { error, failure, basis } = outcome;
      const message = messageOf(error);
      if (failure && schemaRequirements.includes(failure.requirement)) {
        findings.problems.push({
          requirement: failure.requirement,
          text: `${op.method} ${op.path}: ${message}`,
          exchange: basis?.exchange,
          field: basis?.fields?.[0],
        });
      } else if (!failure) {
        findings.problems.push({ requirement: 'SCH-ENVELOPE', text: `${op.method} ${op.path}: ${message}` });
      }
      findings.unreadable.push(
        `${op.method} ${op.path} could not be read to its end (${message.split('\n')[0]}); its records were not checked`,
      );
      findings.blockers.push({
        requirement: failure?.requirement ?? successRequirement(op),
        reason: `${op.method} ${op.path} could not be read to its end (${message.split('\n')[0]})`,
      });
      continue;
    }
    findings.seen.records.set(op.operationId, outcome.value.records);
    findings.seen.pages += outcome.value.pages.length;
    for (const [index, page] of outcome.value.pages.entries()) {
      // Every page of a walk is JSON: the walk read it so (src/worker/user-data/collections.ts pageOf).
      const body = bodyOf(page.exchange);
      if (body.ok)
        collect(findings, noteCounts, op, `${op.method} ${op.path} page ${index}`, body.value, page.exchange);
    }
  }
  for (const op of singleReads) {
    if (!(await dataset.canSupply(op))) {
      findings.unreadable.push(
        `${op.operationId} not sampled: its ids come from a collection that could not be read`,
      );
      continue;
    }
    const paramSets = await dataset.paramSets(op, (await dataset.plan()).singleReadSamples);
    for (const params of paramSets) {
      const exchange = await dataset.read(op, params);
      // Any 2xx with a body is checked; the exact success status is the operation test's business.
      if (!succeeded(exchange)) {
        findings.unreadable.push(
          `${exchange.request.method} ${buildPath(op, params)} answered ${exchange.status}: not checked here (see ${op.operationId}'s operation test)`,
        );
        continue;
      }
      const body = bodyOf(exchange);
      if (!body.ok) {
        findings.unreadable.push(
          `${buildPath(op, params)} is not JSON: not checked here (see OP-JSON-BODIES)`,
        );
        continue;
      }
      collect(findings, noteCounts, op, `GET ${buildPath(op, params)}`, body.value, exchange);
      findings.seen.singles.set(op.operationId, (findings.seen.singles.get(op.operationId) ?? 0) + 1);
    }
  }
  for (const [key, count] of noteCounts) {
    const [requirement, text] = key.split('\n') as [string, string];
    const list = findings.notes.get(requirement) ?? [];
    list.push(`${text} (${count} time(s))`);
    findings.notes.set(requirement, list);
  }
  return findings;
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
      // One check per worker and target: the findings are shared by the per-requirement tests.
      const findings = await session.sharedRead('schema findings', () => check(dataset));
      for (const text of findings.unreadable) verdict.note(text);
      if (requirement.startsWith('SCH-'))
        for (const text of findings.notes.get(requirement) ?? []) verdict.note(text);
      const mine = findings.problems.filter((problem) => problem.requirement === requirement);
      const shown = mine.find((problem) => problem.exchange)?.exchange;
      // The fields the failure names are those of the exchange it shows.
      verdict.expectNone(
        mine.map(({ text, exchange, field }) => (exchange === shown ? { text, field } : text)),
        shown,
      );
      const [count, what] = witness(findings.seen);
      const [blocker] = findings.blockers;
      if (count === 0 && blocker) verdict.blockedBy(blocker.requirement, blocker.reason);
      const [withheld] = findings.withheld;
      if (count === 0) verdict.notVerified(`no ${what} in user A's data${withheld ? ` (${withheld})` : ''}`);
      verdict.evidence(`${count} ${what} validated`, undefined, count);
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
