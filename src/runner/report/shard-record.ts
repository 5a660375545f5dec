// What a shard's blob carries beside its tests (src/runner/report/shard-reporter.ts writes it): everything the
// shard saw outside a test (its preflight's findings, its first sendings, its run error), what it sent, and
// the facts a merge must agree on (target, profile, suite version, shard total). The merge judges them as one
// run's, and refuses shards of different runs, or a run with a shard missing (src/cli/merge-reports.ts).
import type { RunManifest } from '../../config/run-manifest.ts';
import { redactText } from '../../http/redact.ts';
import { type RequestTally, sumOfTallies, UnansweredRequests } from '../../http/request-counter.ts';
import type { RunFinding } from '../../protocol/run-findings.ts';
import type { SlowRequestRecord } from '../../protocol/slow-requests.ts';
import type { RunError } from '../../run-state/run-error.ts';

/** The metadata key of a shard's record: `conformance-shard 2/4`. */
export const SHARD_RECORD_KEY = 'conformance-shard';

/** What one shard sent: by credential, and how many paced requests were answered 429. */
export interface ShardRequests {
  tally: RequestTally;
  rateLimited: number;
}

/** The run facts every shard of a run states alike. */
export interface ShardRun {
  /** The target's kind (sandbox, prism, url). */
  target: string;
  /** Where it is: its redacted base URL, or the sandbox the shard started itself (with its faults, variants). */
  where: string;
  /** Redacted. */
  baseUrl: string;
  environment: string;
  profile: string;
  strict: boolean;
  propertySeed?: number;
}

export interface ShardRecord {
  shard: { current: number; total: number };
  suiteVersion: string;
  startedAt: string;
  /** Undefined: the shard's global setup stopped before it resolved a target (its run error says why). */
  run?: ShardRun;
  requests: ShardRequests;
  runFindings: RunFinding[];
  slowRequests: SlowRequestRecord[];
  runError?: RunError;
  stoppedSending?: string;
}

/** Where a target is: a sandbox the run started has a port of its own in every shard, and is named by its faults. */
function whereOf({ config, options }: RunManifest): string {
  if (!options.embeddedSandbox) return `at ${redactText(config.baseUrl)}`;
  const named = (what: string, names: readonly string[]) =>
    names.length ? `, ${what} ${names.join(',')}` : '';
  return `started by the run${named('faults', config.sandboxFaults)}${named('variants', config.sandboxVariants)}`;
}

/** The run facts of a run's manifest, as its result states them, and why it stopped sending, if it did. */
export function runFactsOf(manifest: RunManifest): { run: ShardRun; stoppedSending?: string } {
  const { config, unansweredLog } = manifest;
  const stoppedSending = unansweredLog
    ? new UnansweredRequests(unansweredLog, config.unansweredBudget).spent()
    : undefined;
  const run: ShardRun = {
    target: config.target,
    where: whereOf(manifest),
    baseUrl: redactText(config.baseUrl),
    environment: config.environment,
    profile: config.profile,
    strict: config.strict,
    propertySeed: config.propertySeed,
  };
  return stoppedSending ? { run, stoppedSending } : { run };
}

const isRecord = (value: unknown): value is ShardRecord => {
  const { shard, suiteVersion, requests } = (value ?? {}) as Partial<ShardRecord>;
  return (
    typeof shard?.current === 'number' &&
    typeof shard.total === 'number' &&
    typeof suiteVersion === 'string' &&
    typeof requests?.rateLimited === 'number'
  );
};

/** The shard records a (merged) configuration's metadata holds, by shard. */
export const shardRecordsOf = (metadata: Readonly<Record<string, unknown>>): ShardRecord[] =>
  Object.entries(metadata)
    .filter(([key, value]) => key.startsWith(SHARD_RECORD_KEY) && isRecord(value))
    .map(([, value]) => value as ShardRecord)
    .sort((a, b) => a.shard.current - b.shard.current);

const shardName = ({ shard }: ShardRecord): string => `${shard.current}/${shard.total}`;

/** The facts shards of one run state alike, each as a line. */
const AGREED: Readonly<Record<string, (record: ShardRecord) => string | undefined>> = {
  target: ({ run }) => run && `${run.target} ${run.where} (${run.environment})`,
  profile: ({ run }) => run && `${run.profile}${run.strict ? ', strict' : ''}`,
  'suite version': ({ suiteVersion }) => suiteVersion,
  'shard total': ({ shard }) => String(shard.total),
};

/** What keeps `records` from being one run: facts they differ in, a shard missing or given twice. */
export function mergeDifferences(records: readonly ShardRecord[]): string[] {
  const differences = Object.entries(AGREED).flatMap(([fact, of]) => {
    const stated = new Map<string, string[]>();
    for (const record of records) {
      const value = of(record);
      if (value !== undefined) stated.set(value, [...(stated.get(value) ?? []), shardName(record)]);
    }
    if (stated.size < 2) return [];
    const each = [...stated].map(([value, shards]) => `${value} (shard ${shards.join(', ')})`);
    return [`the shards differ in ${fact}: ${each.join('; ')}`];
  });
  const total = records[0]?.shard.total ?? 0;
  if (differences.length > 0 || total === 0) return differences;
  const given = records.map((record) => record.shard.current);
  const twice = [...new Set(given.filter((current, index) => given.indexOf(current) !== index))];
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !given.includes(n));
  return [
    ...twice.map((n) => `shard ${n}/${total} is given twice`),
    ...missing.map((n) => `shard ${n}/${total} is missing`),
  ];
}

/** A shard's run finding, named by its shard: the same preflight on two shards is two answers, each judged. */
const ofShard = (record: ShardRecord, { where, finding, exchange, ...rest }: RunFinding): RunFinding => {
  const id = (own: string) => `shard-${record.shard.current}-${own}`;
  return {
    ...rest,
    where: `${where} (shard ${shardName(record)})`,
    finding: finding.exchange ? { ...finding, exchange: id(finding.exchange) } : finding,
    ...(exchange ? { exchange: { ...exchange, id: id(exchange.id) } } : {}),
  };
};

/** The shards' records as one run's: what they sent together, everything they saw outside a test. */
export interface ShardsAsOneRun {
  shards: number;
  run?: ShardRun;
  startedAt: string;
  requests: ShardRequests;
  runFindings: RunFinding[];
  slowRequests: SlowRequestRecord[];
  runError?: RunError;
  stoppedSending?: string;
}

export function shardsAsOneRun(records: readonly ShardRecord[]): ShardsAsOneRun | undefined {
  const [first] = records;
  if (!first) return undefined;
  return {
    shards: records.length,
    run: records.find((record) => record.run)?.run,
    startedAt: records.map((record) => record.startedAt).sort()[0] ?? first.startedAt,
    requests: records
      .map((record) => record.requests)
      .reduce((sum, shard) => ({
        tally: sumOfTallies(sum.tally, shard.tally),
        rateLimited: sum.rateLimited + shard.rateLimited,
      })),
    runFindings: records.flatMap((record) => record.runFindings.map((found) => ofShard(record, found))),
    slowRequests: records.flatMap((record) => record.slowRequests),
    runError: records.find((record) => record.runError)?.runError,
    stoppedSending: records.find((record) => record.stoppedSending)?.stoppedSending,
  };
}
