// Sharding splits the run and never repeats it, and the shards share the target's clients as one run does:
// each shard (`physiology-conformance run --shard i/n`, run at once as a CI matrix runs them) spends 1/n of
// every announced rate budget, and `merge-reports` gives one result with the unsharded run's requirement
// statuses, what the shards saw outside their tests included (their records); it refuses shards of
// different runs, or a run with a shard missing. The commands are docs/sharding.md's.
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import AdmZip from 'adm-zip';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { PRODUCTION_RATE_LIMITS } from '../../sandbox/rate-limit.ts';
import { requestsSent } from '../../src/http/request-counter.ts';
import type { ConformanceResult } from '../../src/result/schema.ts';
import { readResult } from '../../src/result/validate.ts';
import {
  mergeDifferences,
  SHARD_RECORD_KEY,
  type ShardRecord,
  shardsAsOneRun,
} from '../../src/runner/report/shard-record.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';
import { sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

const REVOKE = 'DELETE /developer/v2/user/access';
const SHARDS = 4;

interface Served {
  by_route: Record<string, number>;
  rate_limited: { client: number; own_limit: number };
  limited: { client: number; own_limit: number };
}

const served = async (sandbox: RunningSandbox): Promise<Served> =>
  (await (await fetch(`${sandbox.authUrl}/sandbox/requests`)).json()) as Served;

/** The suite's command against `sandbox`, with its reports in `reports`: its exit status and output. */
async function command(sandbox: RunningSandbox, reports: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  const [program, programArgs] = cli(...args);
  return runProcess(
    program,
    programArgs,
    { ...sandboxTargetEnv(sandbox, reports), CONFORMANCE_WORKERS: '1', ...env },
    true,
  );
}

/** The selection, unsharded, against a sandbox of its own: its result and the revocations the target saw. */
async function unsharded(env: NodeJS.ProcessEnv, options: SandboxInput = {}) {
  const sandbox = await startSandbox({ port: 0, ...options });
  const reports = scratchDir();
  try {
    await command(sandbox, reports, env, 'run');
    return { result: readResult(join(reports, 'conformance.json')), served: await served(sandbox) };
  } finally {
    await sandbox.close();
  }
}

/** `total` shards at once against `sandbox` (one target, one set of clients), then merged. */
async function sharded(sandbox: RunningSandbox, env: NodeJS.ProcessEnv, total = SHARDS) {
  const reports = scratchDir();
  const blobs = Array.from({ length: total }, (_, i) => join(reports, `blob-${i + 1}`));
  const shards = await Promise.all(
    blobs.map((blob, i) =>
      command(
        sandbox,
        join(reports, `shard-${i + 1}`),
        { ...env, PLAYWRIGHT_BLOB_OUTPUT_DIR: blob },
        'run',
        '--shard',
        `${i + 1}/${total}`,
      ),
    ),
  );
  const seen = await served(sandbox);
  const merged = await command(sandbox, join(reports, 'merged'), env, 'merge-reports', ...blobs);
  return {
    shards,
    /** What the shards sent, each by its own request log (it stays on the shard's machine). */
    shardsSent: blobs.reduce(
      (sum, _, i) => sum + requestsSent(join(reports, `shard-${i + 1}`, '.run', 'requests.log')),
      0,
    ),
    merged,
    result: readResult(join(reports, 'merged', 'conformance.json')),
    served: seen,
    /** `merge-reports` of some of the blobs, in a job of its own with `variables`. */
    mergeOf: async (dirs: readonly string[], variables: NodeJS.ProcessEnv = env) => {
      const dir = join(reports, `merge-${dirs.length}-${Math.random()}`);
      const merge = await command(sandbox, dir, variables, 'merge-reports', ...dirs);
      return { ...merge, result: () => readResult(join(dir, 'conformance.json')) };
    },
    blobs,
  };
}

/** A copy of the blob report in `dir` whose shard's record `edit` changed (the report of another run). */
function editedBlob(dir: string, edit: (record: ShardRecord) => ShardRecord): string {
  const [name] = readdirSync(dir).filter((file) => file.endsWith('.zip'));
  const zip = new AdmZip(join(dir, name ?? ''));
  const lines = (zip.getEntry('report.jsonl')?.getData().toString('utf8') ?? '').split('\n');
  const at = lines.findIndex((line) => line.includes('"onConfigure"'));
  const event = JSON.parse(lines[at] ?? '{}');
  const metadata: Record<string, unknown> = event.params.config.metadata;
  for (const key of Object.keys(metadata).filter((k) => k.startsWith(SHARD_RECORD_KEY)))
    metadata[key] = edit(metadata[key] as ShardRecord);
  lines[at] = JSON.stringify(event);
  zip.updateFile('report.jsonl', Buffer.from(lines.join('\n')));
  const edited = mkdtempSync(join(scratchDir(), 'edited-'));
  zip.writeZip(join(edited, name ?? 'report.zip'));
  return edited;
}

const statuses = (result: ConformanceResult) =>
  Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));

/** Why the tests whose outcome differs between two results ended as they did, to tell a cause from a glance. */
function differences(sharded: ConformanceResult, whole: ConformanceResult): string {
  const before = Object.fromEntries(whole.tests.map((t) => [t.title, t.outcome]));
  return sharded.tests
    .filter((t) => before[t.title] !== t.outcome)
    .map(
      (t) =>
        `${t.title}: ${before[t.title]} unsharded, ${t.outcome} sharded: ${t.error ?? t.skipReason ?? ''}`,
    )
    .join('\n');
}

test('four shards at once, merged: every test once, one revocation sequence, the unsharded requirement statuses', async () => {
  // The revocation tests (isolated) and a few shared ones, so that every shard gets some.
  const env = {
    CONFORMANCE_GREP: '@REVOKE-|@OP-REVOKE-ACCESS|@PAG-LIMIT-MAX(?=\\s|$)|@PAG-LIMIT-OVER-MAX|@OP-GET-CYCLE',
  };
  const sandbox = await startSandbox({ port: 0 });
  try {
    // The unsharded run against a sandbox of its own, at the same time.
    const [whole, run] = await Promise.all([unsharded(env), sharded(sandbox, env)]);
    expect(
      run.shards.map((shard) => shard.code),
      run.shards.map((s) => s.output).join('\n'),
    ).toEqual([0, 0, 0, 0]);
    expect(run.result.shards).toBe(SHARDS);
    // The merged result's requests are the shards' together (each shard's blob carries its own).
    expect(run.shardsSent).toBeGreaterThan(0);
    expect(run.result.requestsSent).toBe(run.shardsSent);
    expect(run.result.tests.length).toBe(whole.result.tests.length);
    expect(new Set(run.result.tests.map((t) => t.title)).size, 'each test once').toBe(
      run.result.tests.length,
    );
    expect(whole.served.by_route[REVOKE], 'the selection revokes').toBeGreaterThan(0);
    expect(run.served.by_route[REVOKE], 'revocations the target saw').toBe(whole.served.by_route[REVOKE]);
    expect(statuses(run.result), differences(run.result, whole.result)).toEqual(statuses(whole.result));
    expect(run.result.verdict).toBe(whole.result.verdict);
    // Every shard merged: the run's own selection, as unsharded (each shard's blob carried it).
    expect(whole.result.selection).toEqual([expect.stringMatching(/^CONFORMANCE_GREP=/)]);
    expect(run.result.selection).toEqual(whole.result.selection);
    expect(run.merged.code).toBe(3);
    // One shard merged alone is no whole run: refused, naming the shards missing, as an input error.
    const partial = await run.mergeOf([run.blobs[0] ?? '']);
    expect(partial.code).toBe(2);
    expect(partial.output).toContain(
      "not merged, the blob reports are not one whole run's: shard 2/4 is missing; shard 3/4 is missing; shard 4/4 is missing",
    );
  } finally {
    await sandbox.close();
  }
});

test('behind 100 requests a minute shared by four shards at once: no 429 but the burst’s, the unsharded statuses', async () => {
  // The 429 burst (on a token with a limit of its own, CONFORMANCE_RATE_LIMIT) beside reads that need more
  // than one shard's part of a window; production's 429 carries no Retry-After (CONFORMANCE_RATE_LIMIT_HEADERS).
  const env = {
    CONFORMANCE_GREP: '@PAG-LIMIT-MAX(?=\\s|$)|@RL-429|@OP-GET-CYCLE|@PAG-FIRST-PAGE|@PAG-NEXT-TOKEN',
    CONFORMANCE_RATE_LIMIT: '20/1',
    CONFORMANCE_RATE_LIMIT_HEADERS: 'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset',
  };
  const sandbox = await startSandbox({
    port: 0,
    rateLimit: PRODUCTION_RATE_LIMITS,
    rateLimitHeaders: 'production',
  });
  try {
    const [whole, run] = await Promise.all([unsharded(env), sharded(sandbox, env)]);
    expect(run.served.rate_limited.own_limit, 'the burst reached its limit').toBeGreaterThan(0);
    expect(run.served.rate_limited.client, 'answered 429 over the shared client limit').toBe(0);
    // More than one window of the client's limit (the run's depth plan fits its reads to the budget): four
    // shards each spending the whole window would have overshot it.
    expect(run.served.limited.client, 'requests counted against the client’s limit').toBeGreaterThan(100);
    expect(statuses(run.result), differences(run.result, whole.result)).toEqual(statuses(whole.result));
    console.log(
      `four shards behind 100/min: ${run.served.limited.client} requests of the client's limit, ${run.served.rate_limited.client} answered 429; the burst's token ${run.served.limited.own_limit}, ${run.served.rate_limited.own_limit} answered 429`,
    );
  } finally {
    await sandbox.close();
  }
});

/** The requirements a result's failed entries (tests, the preflight's, first sendings) are charged to. */
const failedRequirements = (result: ConformanceResult) =>
  [...new Set(result.tests.flatMap((t) => (t.outcome === 'fail' ? t.failedRequirements : [])))].sort();

test('sandbox faults seen outside the tests too (a preflight 429, a late 500 on a first copy) and a data fault: two shards merged give the unsharded verdict and failures; blobs of different runs are refused', async () => {
  // The partner token endpoint's 429s are met only by the preflight (no partner test is selected); the body
  // measurement's first copy only by the run's first read of it, the check going on with its second copy.
  const faults = ['partner-token-429', 'first-copy-late-500', 'cycle-strain-over-21'];
  const env = { CONFORMANCE_GREP: '@INV-STRAIN-RANGE|@OP-GET-BODY-MEASUREMENT|@PAG-LIMIT-DEFAULT' };
  const sandbox = await startSandbox({ port: 0, faults });
  try {
    const [whole, run] = await Promise.all([unsharded(env, { faults }), sharded(sandbox, env, 2)]);
    expect(failedRequirements(whole.result)).toEqual([
      'INV-STRAIN-RANGE',
      'OP-GET-BODY-MEASUREMENT',
      'OP-PARTNER-TOKEN',
    ]);
    expect(run.result.verdict).toBe(whole.result.verdict);
    expect(failedRequirements(run.result)).toEqual(failedRequirements(whole.result));
    expect(run.merged.code, run.merged.output.slice(-2000)).toBe(1);
    // Each shard's preflight met the 429s: each answer judged, named by its shard.
    const preflight = run.result.tests.filter((t) => t.title.startsWith('preflight: partner'));
    expect(preflight.map((t) => t.title).sort()).toEqual(
      ['A', 'B'].flatMap((partner) =>
        [1, 2].map((n) => `preflight: partner ${partner} token (shard ${n}/2)`),
      ),
    );
    const exchanges = new Set(run.result.exchanges.map((exchange) => exchange.id));
    for (const entry of preflight) expect(exchanges.has(entry.exchanges?.[0] ?? '')).toBe(true);
    expect(run.result.slowRequests?.some((row) => row.operationId === 'getBodyMeasurement')).toBe(true);
    // The target and profile are the shards', never the merging job's variables.
    const elsewhere = await run.mergeOf(run.blobs, {
      ...env,
      CONFORMANCE_PROFILE: 'certification',
      CONFORMANCE_BASE_URL: 'https://elsewhere.example/developer',
    });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.result()).toMatchObject({ profile: 'ci-gate', baseUrl: sandbox.baseUrl });
    expect(elsewhere.result().digest).toBeUndefined();
    // Blobs of another profile, another suite, or of another number of shards (1/2 with 2/3): refused.
    const [one = '', two = ''] = run.blobs;
    for (const [edit, difference] of [
      [
        (r: ShardRecord) => ({ ...r, run: r.run && { ...r.run, profile: 'certification' } }),
        'profile: ci-gate (shard 1/2); certification (shard 2/2)',
      ],
      [(r: ShardRecord) => ({ ...r, suiteVersion: '0.0.9' }), 'suite version'],
      [
        (r: ShardRecord) => ({ ...r, shard: { current: 2, total: 3 } }),
        'shard total: 2 (shard 1/2); 3 (shard 2/3)',
      ],
    ] as const) {
      const refused = await run.mergeOf([one, editedBlob(two, edit)]);
      expect(refused.code, refused.output).toBe(2);
      expect(refused.output).toContain(`the shards differ in ${difference}`);
    }
  } finally {
    await sandbox.close();
  }
});

test('shard records: the facts a merge must agree on, every shard once, and what they saw as one run', () => {
  const record = (current: number, total: number, over: Partial<ShardRecord> = {}): ShardRecord => ({
    shard: { current, total },
    suiteVersion: '1.0.0',
    startedAt: `2026-01-0${current}T00:00:00.000Z`,
    run: {
      target: 'url',
      where: 'at https://api.example/developer',
      baseUrl: 'https://api.example/developer',
      environment: 'non-production',
      profile: 'certification',
      strict: false,
    },
    requests: { tally: { user: current, partner: 1, other: 0 }, rateLimited: 1 },
    runFindings: [
      {
        where: 'preflight: partner A token',
        finding: {
          requirement: 'OP-PARTNER-TOKEN',
          outcome: 'fail',
          message: 'x',
          exchange: 'run-finding-1',
        },
        exchange: { id: 'run-finding-1' } as ShardRecord['runFindings'][number]['exchange'],
      },
    ],
    slowRequests: [],
    ...over,
  });
  expect(mergeDifferences([record(1, 2), record(2, 2)])).toEqual([]);
  expect(mergeDifferences([record(1, 3), record(3, 3), record(3, 3)])).toEqual([
    'shard 3/3 is given twice',
    'shard 2/3 is missing',
  ]);
  const elsewhere = record(2, 2);
  expect(
    mergeDifferences([
      record(1, 2),
      { ...elsewhere, run: elsewhere.run && { ...elsewhere.run, baseUrl: 'x', where: 'at x' } },
    ]),
  ).toEqual([
    'the shards differ in target: url at https://api.example/developer (non-production) (shard 1/2); url at x (non-production) (shard 2/2)',
  ]);
  const merged = shardsAsOneRun([record(1, 2), record(2, 2)]);
  expect(merged?.requests).toEqual({ tally: { user: 3, partner: 2, other: 0 }, rateLimited: 2 });
  expect(merged?.startedAt).toBe('2026-01-01T00:00:00.000Z');
  expect(
    merged?.runFindings.map(({ where, finding, exchange }) => [where, finding.exchange, exchange?.id]),
  ).toEqual([
    ['preflight: partner A token (shard 1/2)', 'shard-1-run-finding-1', 'shard-1-run-finding-1'],
    ['preflight: partner A token (shard 2/2)', 'shard-2-run-finding-1', 'shard-2-run-finding-1'],
  ]);
});
