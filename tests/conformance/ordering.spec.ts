// Collection order over the reference walk, across page boundaries: cycles, sleeps and workouts by start
// descending; recoveries by the start of their related sleep descending (the sleep looked up in the sleeps
// collection, or read by id when the collection does not hold it).
import {
  type ApiClient,
  buildPath,
  type DataRecord,
  type Dataset,
  descendingProblems,
  jsonOf,
  onPages,
  operationById,
  requirementOf,
  succeeded,
  test,
  userCollections,
  type Verdict,
  verifies,
} from '../../src/worker/suite/index.ts';

/** At most this many recoveries' sleeps are read by id (the rest of the missing ones are left out, with a note). */
const MAX_SLEEP_LOOKUPS = 10;

// ORD-CYCLES, ORD-SLEEPS, ORD-WORKOUTS, ORD-RECOVERIES, each with its collection.
const orderRules = userCollections.map((collection) => ({
  requirement: requirementOf(collection, 'ORD-'),
  collection,
  bySleep: collection.operationId === 'listRecoveries',
}));

const parses = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** The fixtures the sleep look-ups take. */
interface Lookups {
  api: ApiClient;
  dataset: Dataset;
  verdict: Verdict;
}

/**
 * The recoveries keyed by the start of their related sleep: found in the sleeps collection, else read by
 * id (at most MAX_SLEEP_LOOKUPS). A sleep walk the plan's bound stopped does not reach the oldest
 * recoveries' sleeps: those are left out, not read one by one.
 */
async function bySleepStart(
  { api, dataset, verdict }: Lookups,
  token: string,
  recoveries: readonly DataRecord[],
) {
  const key = (id: unknown) => String(id).toLowerCase();
  const sleeps = await dataset.collection('listSleeps');
  const sleepStart = new Map<string, unknown>(sleeps.records.map((sleep) => [key(sleep.id), sleep.start]));
  const getSleep = operationById('getSleepById');
  let lookups = sleeps.complete ? 0 : MAX_SLEEP_LOOKUPS;
  for (const recovery of recoveries) {
    const id = recovery.sleep_id;
    if (typeof id !== 'string' || sleepStart.has(key(id)) || lookups >= MAX_SLEEP_LOOKUPS) continue;
    lookups++;
    const exchange = await api.send({ path: buildPath(getSleep, { sleepId: id }), token });
    verdict.expectNo5xx(exchange);
    const sleep = jsonOf(exchange.text);
    // Not a sleep: left out below, with the others whose sleep is not found.
    if (succeeded(exchange) && sleep.ok) sleepStart.set(key(id), (sleep.value as DataRecord).start);
  }
  return recoveries.map(
    (recovery): DataRecord => ({
      ...recovery,
      id: `cycle_id ${String(recovery.cycle_id)}`,
      sort_key: sleepStart.get(key(recovery.sleep_id)),
    }),
  );
}

// These checks relate records to each other (and to time): each needs a target that keeps real data.
for (const { requirement, collection, bySleep } of orderRules) {
  const what = bySleep ? 'the start of the related sleep' : 'start';
  test(
    ...verifies(requirement, `${collection.path} is sorted by ${what}, descending, across all pages`, {
      needs: ['stateful'],
    }),
    async ({ api, dataset, userToken, verdict }) => {
      const loaded = await dataset.collection(collection);
      const keyed = bySleep
        ? await bySleepStart({ api, dataset, verdict }, await userToken(), loaded.records)
        : loaded.records.map((record) => ({ ...record, sort_key: record.start }));
      // Records whose key cannot be read are left out of the comparison (the schema tests report them).
      const unordered = keyed.filter((record) => !parses(record.sort_key)).length;
      if (unordered > 0) {
        verdict.note(
          `${unordered} of ${keyed.length} record(s) left out: no readable ${what} (the related sleep not found or no start)`,
        );
      }
      if (keyed.length - unordered < 2)
        verdict.notVerified(`fewer than two records with a readable ${what}: no order to observe`);
      // Compared without the unreadable ones; each problem keeps its record's index in the walk, to name the page.
      const readable = keyed.flatMap((record, index) => (parses(record.sort_key) ? [{ record, index }] : []));
      const problems = descendingProblems(
        readable.map(({ record }) => record),
        (record) => record.sort_key,
        what,
      ).map((problem) => ({ ...problem, index: readable[problem.index]?.index ?? problem.index }));
      const located = onPages(loaded, problems);
      verdict.expectNone(located.problems, located.exchange);
      verdict.evidence(`${readable.length} records in order over ${loaded.pages.length} page(s)`, {
        count: readable.length,
      });
    },
  );
}
