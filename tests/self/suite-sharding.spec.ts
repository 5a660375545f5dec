// Sharding splits the run and never repeats it, and the shards share the target's clients as one run does:
// each shard (`physiology-conformance run --shard i/n`, run at once as a CI matrix runs them) spends 1/n of
// every announced rate budget, and `merge-reports` gives one result with the unsharded run's requirement
// statuses. The isolated tests (revocation, the 429 burst) run in the last shard only, so the target sees
// one revocation sequence. The commands are docs/sharding.md's.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import { PRODUCTION_RATE_LIMITS } from '../../sandbox/rate-limit.ts';
import { requestsSent } from '../../src/http/request-counter.ts';
import type { ConformanceResult } from '../../src/result/schema.ts';
import { readResult } from '../../src/result/validate.ts';
import { cli, runProcess } from '../../src/run/run-step.ts';
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
async function unsharded(env: NodeJS.ProcessEnv) {
  const sandbox = await startSandbox({ port: 0 });
  const reports = scratchDir();
  try {
    await command(sandbox, reports, env, 'run');
    return { result: readResult(join(reports, 'conformance.json')), served: await served(sandbox) };
  } finally {
    await sandbox.close();
  }
}

/** `SHARDS` shards at once against `sandbox` (one target, one set of clients), then merged. */
async function sharded(sandbox: RunningSandbox, env: NodeJS.ProcessEnv) {
  const reports = scratchDir();
  const blobs = Array.from({ length: SHARDS }, (_, i) => join(reports, `blob-${i + 1}`));
  const shards = await Promise.all(
    blobs.map((blob, i) =>
      command(
        sandbox,
        join(reports, `shard-${i + 1}`),
        { ...env, PLAYWRIGHT_BLOB_OUTPUT_DIR: blob },
        'run',
        '--shard',
        `${i + 1}/${SHARDS}`,
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
    partial: async () => {
      await command(sandbox, join(reports, 'partial'), env, 'merge-reports', blobs[0] ?? '');
      return readResult(join(reports, 'partial', 'conformance.json'));
    },
  };
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
  const whole = await unsharded(env);
  const sandbox = await startSandbox({ port: 0 });
  try {
    const run = await sharded(sandbox, env);
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
    // One shard merged alone is narrowed by the others.
    expect((await run.partial()).selection).toEqual([
      ...whole.result.selection,
      ...[2, 3, 4].map((n) => `--shard ${n}/${SHARDS} not merged`),
    ]);
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
  const whole = await unsharded(env);
  const sandbox = await startSandbox({
    port: 0,
    rateLimit: PRODUCTION_RATE_LIMITS,
    rateLimitHeaders: 'production',
  });
  try {
    const run = await sharded(sandbox, env);
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
