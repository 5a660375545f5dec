// References between records: every cycle_id and sleep_id of a recovery, and every cycle_id of a sleep, names
// a record of the referenced collection, or at least one readable by id. Where the referenced walk stopped at
// the plan's bound, only the records it reaches are judged (the older ones could name what was not read).
import {
  type ApiClient,
  buildPath,
  type DataRecord,
  type Dataset,
  danglingProblem,
  type Exchange,
  idSet,
  type LoadedCollection,
  missingReferences,
  type Operation,
  operationById,
  ownExtent,
  servedAt,
  singleReadOf,
  succeeded,
  successRequirement,
  test,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

/** References missing from the collections that are looked up by id, per test. */
const MAX_LOOKUPS = 20;

/**
 * References (`field` of each record) that are neither ids of `known` records nor resolve with a GET of
 * `read` (at most MAX_LOOKUPS looked up); also returns how many there were and how many were not looked up.
 */
async function unresolved(
  verdict: Verdict,
  api: ApiClient,
  token: string,
  from: LoadedCollection,
  field: string,
  known: ReadonlySet<string>,
  read: Operation,
  within: (record: DataRecord) => boolean,
): Promise<{ problems: string[]; references: number; notLookedUp: number; exchange?: Exchange }> {
  const { missing, references } = missingReferences(from.records, field, known, within);
  const [param] = read.pathParams;
  if (!param) throw new Error(`${read.operationId} has no path parameter`);
  const problems: string[] = [];
  let exchange: Exchange | undefined;
  let lookedUp = 0;
  for (const [value, index] of missing) {
    if (lookedUp >= MAX_LOOKUPS) break;
    lookedUp++;
    const answer = await api.send({ path: buildPath(read, { [param.name]: value }), token });
    verdict.of(successRequirement(read)).expectNo5xx(answer);
    if (succeeded(answer)) continue;
    const where = servedAt(from, index);
    exchange ??= where.exchange;
    problems.push(
      danglingProblem({
        index,
        where: `page ${where.page}, #${where.onPage}`,
        from: from.operation.path,
        field,
        value,
        read: read.path.replace(`{${param.name}}`, value),
        status: answer.status,
      }),
    );
  }
  return { problems, references, notLookedUp: missing.size - lookedUp, exchange };
}

const DAY = 86_400_000;

/** When a record started: its own start; a recovery's, its cycle's (or else its sleep's) in those walks. */
async function startOf(
  dataset: Dataset,
  from: LoadedCollection,
): Promise<(record: DataRecord) => number | undefined> {
  if (from.operation.operationId !== 'listRecoveries') return (record) => ownExtent(record)?.earliest;
  const starts = new Map<string, number | undefined>();
  for (const [id, kind] of [
    ['listCycles', 'cycle'],
    ['listSleeps', 'sleep'],
  ] as const)
    for (const record of (await dataset.collection(id)).records)
      starts.set(`${kind} ${String(record.id)}`, ownExtent(record)?.earliest);
  return (recovery) =>
    starts.get(`cycle ${String(recovery.cycle_id)}`) ?? starts.get(`sleep ${String(recovery.sleep_id)}`);
}

/**
 * Which records of `from` name records the walk of `to` reaches: all when that walk is complete; else those
 * that started (a recovery: its cycle or sleep) more than a day after the oldest record it holds, so that
 * what they name, which starts with them or before them within the day, is among those read.
 */
async function withinReach(
  dataset: Dataset,
  from: LoadedCollection,
  to: LoadedCollection,
): Promise<(record: DataRecord) => boolean> {
  if (to.complete) return () => true;
  const started = await startOf(dataset, from);
  const oldest = Math.min(
    ...to.records.map((record) => ownExtent(record)?.earliest ?? Number.POSITIVE_INFINITY),
  );
  return (record) => (started(record) ?? Number.NEGATIVE_INFINITY) > oldest + DAY;
}

// These checks relate records to each other (and to time): each needs a target that keeps real data.
const references = [
  { requirement: 'CONS-RECOVERY-REFERENCES', from: 'listRecoveries', field: 'cycle_id', to: 'listCycles' },
  { requirement: 'CONS-RECOVERY-REFERENCES', from: 'listRecoveries', field: 'sleep_id', to: 'listSleeps' },
  { requirement: 'CONS-SLEEP-CYCLE-REFERENCE', from: 'listSleeps', field: 'cycle_id', to: 'listCycles' },
] as const;

for (const { requirement, from, field, to } of references) {
  const source = operationById(from);
  const target = operationById(to);
  const read = singleReadOf(target) as Operation;
  test(
    ...verifies(
      requirement,
      `every ${field} of ${source.path} names a record of ${target.path} (or one readable by id)`,
      { needs: ['stateful'] },
    ),
    async ({ api, dataset, userToken, verdict }) => {
      const token = await userToken();
      const referring = await dataset.collection(source);
      const referenced = await dataset.collection(target);
      const known = idSet(referenced.records);
      const within = await withinReach(dataset, referring, referenced);
      const { problems, references, notLookedUp, exchange } = await unresolved(
        verdict,
        api,
        token,
        referring,
        field,
        known,
        read,
        within,
      );
      const beyond = referring.records.filter((record) => !within(record)).length;
      if (beyond > 0)
        verdict.note(
          `${beyond} record(s) of ${source.path} left out: they may name records older than the ${referenced.records.length} of ${target.path} read (the plan's bound)`,
        );
      if (notLookedUp > 0) {
        if (problems.length > 0)
          problems.push(`… and ${notLookedUp} more ${field}(s) missing from the collection, not looked up`);
        else
          verdict.note(
            `${notLookedUp} ${field}(s) missing from the collection were not looked up (cap ${MAX_LOOKUPS})`,
          );
      }
      verdict.expectNone(problems, exchange);
      if (references === 0) verdict.notVerified(`no record of ${source.path} carries a ${field}`);
      verdict.evidence(`${references} ${field}s of ${source.path} checked, none dangling`, {
        count: references,
      });
    },
  );
}
