// Cross-field rules that the schemas cannot express, checked on every record of user A's complete
// collections: score present exactly when SCORED, only the newest cycle open, no end before its start (the
// single reads too), no Sleep.v1_id past 2025-09-01; and what the target shows of score-state transitions.
import {
  appliesTo,
  bodyOf,
  buildPath,
  conditionalRequirementAt,
  type DataRecord,
  type Dataset,
  describeRecordProblem,
  type Exchange,
  endBeforeStartProblems,
  type LoadedCollection,
  type Operation,
  type OperationId,
  onPages,
  openCycleProblems,
  operations,
  type RecordProblem,
  scoreStateProblems,
  singleReadOf,
  succeeded,
  test,
  userCollections,
  V1_ID_CUTOFF,
  type Verdict,
  v1IdCutoffProblems,
  verifies,
} from '../../src/worker/suite/index.ts';

/** Records without an id (recoveries) are labelled by their cycle, so a problem names the record. */
const labelled = (records: readonly DataRecord[]): DataRecord[] =>
  records.map((record) =>
    record.id === undefined && record.cycle_id !== undefined
      ? { ...record, id: `cycle_id ${String(record.cycle_id)}` }
      : record,
  );

/** A complete collection, its records judged by `problemsOf`: each problem fails, named with its page. */
async function judgedCollection(
  dataset: Dataset,
  verdict: Verdict,
  collection: Operation | OperationId,
  problemsOf: (records: readonly DataRecord[]) => RecordProblem[],
): Promise<LoadedCollection> {
  const loaded = await dataset.collection(collection);
  const { problems, exchange } = onPages(loaded, problemsOf(loaded.records));
  verdict.expectNone(problems, exchange);
  return loaded;
}

// INV-CYCLE-SCORE-IFF-SCORED, INV-SLEEP-… and INV-RECOVERY-…: the "score iff SCORED" rule each collection's
// record schema states (its union's x-requirement), as the recorded exchanges are checked against it too.
const scoreRules = userCollections.flatMap((collection) => {
  const requirement = conditionalRequirementAt(collection.responseSchema as string, '/records/0');
  return requirement ? [{ requirement, collection }] : [];
});

for (const { requirement, collection } of scoreRules) {
  test(
    ...verifies(
      requirement,
      `score is present exactly when score_state is SCORED in every record of ${collection.path}`,
    ),
    async ({ dataset, verdict }) => {
      const loaded = await judgedCollection(dataset, verdict, collection, (records) =>
        scoreStateProblems(labelled(records)),
      );
      const scored = loaded.records.filter((record) => record.score_state === 'SCORED').length;
      if (scored === 0)
        verdict.notVerified(
          `${collection.path} holds no SCORED record (${loaded.records.length} records): a score's presence cannot be checked`,
        );
      verdict.evidence(`${loaded.records.length} records of ${loaded.pages.length} pages, ${scored} SCORED`, {
        count: loaded.records.length,
      });
    },
  );
}

test(
  ...verifies('INV-CURRENT-CYCLE-END', 'only the newest cycle lacks end', { needs: ['stateful'] }),
  async ({ dataset, verdict }) => {
    const cycles = await judgedCollection(dataset, verdict, 'listCycles', openCycleProblems);
    if (cycles.records.length < 2)
      verdict.notVerified(`user A has ${cycles.records.length} cycle(s): no older cycle to check`);
    verdict.evidence(
      `${cycles.records.length} cycles, ${cycles.records.filter((c) => c.end === undefined).length} without end`,
    );
  },
);

// INV-END-NOT-BEFORE-START: the operations that serve a record with its own start and end.
const END_RULE = 'INV-END-NOT-BEFORE-START';
const endRuled = operations.filter((op) => appliesTo(END_RULE, op));
const ended = (records: readonly DataRecord[]) => records.filter((record) => record.end !== undefined).length;

/** What one operation's reads showed: the records with an end, the problems, the first offending exchange. */
interface Judged {
  checked: number;
  problems: string[];
  exchange?: Exchange;
}

/** The reference walk of a collection, every page. */
async function judgedPages(dataset: Dataset, op: Operation): Promise<Judged> {
  const loaded = await dataset.collection(op);
  const { problems, exchange } = onPages(loaded, endBeforeStartProblems(loaded.records));
  return { checked: ended(loaded.records), problems, exchange: problems.length > 0 ? exchange : undefined };
}

/** The single reads of `op` the run samples (those the schema checks read). */
async function judgedSingleReads(dataset: Dataset, verdict: Verdict, op: Operation): Promise<Judged> {
  const judged: Judged = { checked: 0, problems: [] };
  if (!(await dataset.canSupply(op))) {
    verdict.note(`${op.operationId} not read: its ids come from a collection that could not be read`);
    return judged;
  }
  for (const params of await dataset.paramSets(op, (await dataset.plan()).singleReadSamples)) {
    const exchange = await dataset.read(op, params);
    const body = bodyOf<DataRecord>(exchange);
    // Another answer is the operation test's to judge.
    if (!succeeded(exchange) || !body.ok) continue;
    const where = ` (GET ${buildPath(op, params)})`;
    const problems = endBeforeStartProblems([body.value]).map((one) => describeRecordProblem(one, where));
    judged.problems.push(...problems);
    if (problems.length > 0) judged.exchange ??= exchange;
    judged.checked += ended([body.value]);
  }
  return judged;
}

test(
  ...verifies(
    END_RULE,
    'no cycle, sleep or workout ends before it starts, on any page of its collection or read alone',
    { needs: ['stateful'] },
  ),
  async ({ dataset, verdict }) => {
    const all: Judged[] = [];
    for (const op of endRuled) {
      const withheld = await dataset.withheld(op);
      if (withheld) verdict.note(`${op.operationId} not read: ${withheld}`);
      else
        all.push(
          op.isCollection ? await judgedPages(dataset, op) : await judgedSingleReads(dataset, verdict, op),
        );
    }
    verdict.expectNone(
      all.flatMap((judged) => judged.problems),
      all.find((judged) => judged.exchange)?.exchange,
    );
    const checked = all.reduce((sum, judged) => sum + judged.checked, 0);
    if (checked === 0) verdict.notVerified("user A's cycles, sleeps and workouts read hold none with an end");
    verdict.evidence(`${checked} records with an end, none before its start`, { count: checked });
  },
);

test(
  ...verifies('VER-SLEEP-V1-ID-CUTOFF', 'no sleep starting past 2025-09-01 carries a v1_id', {
    needs: ['stateful'],
  }),
  async ({ dataset, verdict }) => {
    const sleeps = await judgedCollection(dataset, verdict, 'listSleeps', v1IdCutoffProblems);
    const late = sleeps.records.filter(
      (sleep) => typeof sleep.start === 'string' && Date.parse(sleep.start) >= V1_ID_CUTOFF,
    );
    if (late.length === 0) verdict.notVerified('user A has no sleep past 2025-09-01');
    verdict.evidence(`${late.length} sleeps past 2025-09-01 carry no v1_id`, { count: late.length });
  },
);

test(
  ...verifies(
    'STATE-TRANSITIONS',
    'records the score states seen and whether an unscored record changes on re-reading (not shown by the contract)',
  ),
  async ({ dataset, verdict }) => {
    for (const { collection } of scoreRules) {
      const outcome = await dataset.outcome(collection);
      if (!outcome.ok) {
        verdict.note(`${collection.path} could not be read; nothing observed`);
        continue;
      }
      const { records } = outcome.value;
      const counts = new Map<string, number>();
      for (const record of records)
        counts.set(String(record.score_state), (counts.get(String(record.score_state)) ?? 0) + 1);
      const newestUnscored = records.findIndex((record) => record.score_state !== 'SCORED');
      verdict.note(
        `${collection.path}: ${[...counts].map(([state, n]) => `${state} ${n}`).join(', ')}` +
          (newestUnscored >= 0 ? `; the newest unscored record is #${newestUnscored} (0 = newest)` : ''),
      );
      // Re-read the newest unscored record by id, where the collection has a single read, to see its state now.
      const single = singleReadOf(collection);
      const record = records[newestUnscored];
      const param = single?.pathParams[0];
      if (!single || !record || !param || (typeof record.id !== 'string' && typeof record.id !== 'number'))
        continue;
      const exchange = await dataset.read(single, { [param.name]: record.id });
      verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
      const body = bodyOf<DataRecord>(exchange);
      const now = body.ok ? body.value.score_state : undefined;
      verdict.note(
        `${single.path} for ${String(record.id)}: ${String(record.score_state)} in the collection, ${exchange.status === 200 ? String(now) : `status ${exchange.status}`} on re-reading`,
      );
    }
  },
);
