// A shard's record, for the merge of a sharded run: a shard reports only its blob (src/runner/run/reporters.ts), and
// its run's files stay on its machine. The blob reporter writes the run's configuration, its metadata as it is
// then, at the run's end; listed before it, this reporter adds the shard's record (src/runner/report/shard-record.ts:
// its preflight's findings, its first sendings, its run error, what it sent, its target and profile) under
// a key of the shard's, which the merge's reporter judges as one run's (tests/self/suite-sharding.spec.ts).
import type { FullConfig, Reporter } from '@playwright/test/reporter';
import { currentRunManifest, type RunManifest } from '../../config/run-manifest.ts';
import { rateLimitedAnswers, requestTally } from '../../http/request-counter.ts';
import { recordedRunFindings } from '../../protocol/run-findings.ts';
import { recordedSlowRequests } from '../../protocol/slow-requests.ts';
import { packageVersion } from '../../run-state/package.ts';
import { recordedRunError } from '../../run-state/run-error.ts';
import { runFactsOf, SHARD_RECORD_KEY, type ShardRecord } from './shard-record.ts';

/** The run's manifest; undefined when global setup stopped before writing one (its run error says why). */
function manifestOf(): RunManifest | undefined {
  try {
    return currentRunManifest();
  } catch {
    return undefined;
  }
}

/** What the shard saw and sent, as its blob carries it. */
function shardRecord(shard: ShardRecord['shard'], startedAt: Date): ShardRecord {
  const manifest = manifestOf();
  const log = manifest?.requestLog;
  const runError = recordedRunError();
  const facts = manifest ? runFactsOf(manifest) : undefined;
  return {
    shard,
    suiteVersion: packageVersion(),
    startedAt: manifest?.startedAt ?? startedAt.toISOString(),
    ...(facts ? { run: facts.run } : {}),
    requests: { tally: requestTally(log), rateLimited: rateLimitedAnswers(log) },
    runFindings: manifest ? recordedRunFindings() : [],
    slowRequests: manifest ? recordedSlowRequests(manifest.config.baseUrl) : [],
    ...(runError ? { runError } : {}),
    ...(facts?.stoppedSending ? { stoppedSending: facts.stoppedSending } : {}),
  };
}

export default class ShardReporter implements Reporter {
  private config: FullConfig | undefined;
  private readonly startedAt = new Date();

  onBegin(config: FullConfig): void {
    this.config = config;
  }

  onEnd(): void {
    const shard = this.config?.shard;
    if (!this.config || !shard) return;
    this.config.metadata[`${SHARD_RECORD_KEY} ${shard.current}/${shard.total}`] = shardRecord(
      { current: shard.current, total: shard.total },
      this.startedAt,
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
