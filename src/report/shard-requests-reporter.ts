// A shard's requests, for the merge of a sharded run: a shard reports only its blob (src/run/reporters.ts),
// and its request log stays on its machine. The blob reporter writes the run's configuration, its metadata
// as it is then, at the run's end (Playwright adds its own `actualWorkers` there during the run too);
// listed before it, this reporter adds what the shard sent (its request log's tally) under a key of the
// shard's. The merge's conformance reporter sums the shards' (`shardRequests`), so the merged result's
// `requestsSent` is the run's (tests/self/suite-sharding.spec.ts).
import type { FullConfig, Reporter } from '@playwright/test/reporter';
import { currentRunManifest } from '../config/run-manifest.ts';
import {
  type RequestTally,
  rateLimitedAnswers,
  requestTally,
  sumOfTallies,
} from '../http/request-counter.ts';

const METADATA_KEY = 'conformance-requests';

/** What one shard sent: by credential, and how many paced requests were answered 429. */
export interface ShardRequests {
  tally: RequestTally;
  rateLimited: number;
}

const isShardRequests = (value: unknown): value is ShardRequests => {
  const { tally, rateLimited } = (value ?? {}) as Partial<ShardRequests>;
  return (
    typeof rateLimited === 'number' &&
    [tally?.user, tally?.partner, tally?.other].every((count) => typeof count === 'number')
  );
};

/** The shards' requests summed, from a merge's metadata; undefined when no shard recorded them. */
export function shardRequests(metadata: Readonly<Record<string, unknown>>): ShardRequests | undefined {
  const shards = Object.entries(metadata)
    .filter(([key, value]) => key.startsWith(METADATA_KEY) && isShardRequests(value))
    .map(([, value]) => value as ShardRequests);
  if (shards.length === 0) return undefined;
  return shards.reduce((sum, shard) => ({
    tally: sumOfTallies(sum.tally, shard.tally),
    rateLimited: sum.rateLimited + shard.rateLimited,
  }));
}

export default class ShardRequestsReporter implements Reporter {
  private config: FullConfig | undefined;

  onBegin(config: FullConfig): void {
    this.config = config;
  }

  onEnd(): void {
    const shard = this.config?.shard;
    let log: string | undefined;
    try {
      log = currentRunManifest()?.requestLog;
    } catch {
      return; // global setup wrote no manifest: the shard sent nothing of the run's
    }
    if (!this.config || !shard || !log) return;
    const requests: ShardRequests = { tally: requestTally(log), rateLimited: rateLimitedAnswers(log) };
    this.config.metadata[`${METADATA_KEY} ${shard.current}/${shard.total}`] = requests;
  }

  printsToStdio(): boolean {
    return false;
  }
}
