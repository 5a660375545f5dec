// RL-ANNOUNCED-LIMIT (a reading of "Requests over the rate limit get 429", whose values are not shown): the
// target keeps the limit it announces. Every user data read, sent as a paced client sends it: a 429 is
// waited out to the reset it announced, and a read the target still refuses after REFUSALS_BEFORE_STOP such
// waits is refused within its own limit (src/worker/session/rate-limit-judge.ts warns, or fails in strict mode). One
// request per read, the run's shared single read where the grant reads it (the answer other checks judge
// too: one request serves both); a target that announces no limit cannot be seen departing from one.
import {
  announcedRateLimit,
  attempt,
  operations,
  pathParamsFor,
  requestFor,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

/** The user data reads, those the contract lists 429 for. */
const reads = operations.filter((op) => op.method === 'GET' && op.statuses.includes(429));

test(
  ...verifies(
    'RL-ANNOUNCED-LIMIT',
    'every user data read is served within the rate limit the target announces, once any 429 has had its announced reset',
  ),
  async ({ api, dataset, userToken, verdict }) => {
    const token = await userToken();
    const ids = await dataset.knownIds();
    const answered: string[] = [];
    const refused: string[] = [];
    let announcing = 0;
    // A read whose path needs an id user A's data does not supply is left out (a sparse account).
    for (const op of reads.filter((read) => read.pathParams.every(({ name }) => ids[name] !== undefined))) {
      const sent = await attempt(
        (await dataset.withheld(op))
          ? api.send({ ...requestFor(op, ids), token })
          : dataset.read(op, pathParamsFor(op, ids)),
      );
      if (sent.ok) {
        answered.push(op.operationId);
        if (announcedRateLimit(sent.value.headers)) announcing += 1;
        continue;
      }
      // The target's refusals are what this check counts (the judge has warned); the run's own stop it.
      if (sent.stopped !== 'target') throw sent.error;
      refused.push(op.operationId);
    }
    if (announcing === 0 && refused.length === 0)
      verdict.notVerified(
        `none of the ${answered.length} user data reads sent announced a rate limit (no X-RateLimit-*, RateLimit or Retry-After header): a limit the target does not announce cannot be kept`,
      );
    verdict.evidence(
      `${answered.length} of ${reads.length} user data reads answered without a 429 that outlasted its reset (${announcing} announcing the limit)${refused.length > 0 ? `; refused by the target: ${refused.join(', ')}` : ''}`,
    );
  },
);
