// A 429 cannot stall a run or excuse a server, end to end: the CLI runs a selection of the suite against a
// sandbox with a fault of the rate limiter (sandbox/rate-limit.ts `refuses`). An operation the contract lists
// no 429 for fails on its second 429; a user data read refused again and again within the announced limit
// is reported on the target's side and no longer sent. Neither holds the run: each client waits out one
// refusal per operation (counted by the run's log, so the bound does not depend on the machine's speed),
// and the console says what it waits for, and on whose account, without a secret.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { readResult } from '../../src/result/validate.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { sandboxEnv, sandboxTargetEnv } from './suite-against.ts';
import { startCli } from './suite-hostile-support.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

/** The CLI run (`physiology-conformance run`) of `grep` against a sandbox with `fault`. */
async function runWithFault(fault: string, grep: string) {
  const sandbox: RunningSandbox = await start({ faults: [fault] });
  const reports = scratchDir();
  try {
    const { code, output } = await startCli({
      ...sandboxTargetEnv(sandbox, reports),
      CONFORMANCE_GREP: grep,
      CONFORMANCE_WORKERS: '1',
    }).exit;
    const path = join(reports, 'conformance.json');
    const report = existsSync(path) ? readResult(path) : undefined;
    return { code, output, report };
  } finally {
    await sandbox.close();
  }
}

/** No secret of the sandbox's credentials appears on the console. */
function expectNoSecret(output: string): void {
  for (const [name, value] of Object.entries(sandboxEnv))
    if (/SECRET|PASSWORD/.test(name) && value) expect(output, name).not.toContain(value);
}

test('a partner operation that always answers 429: FAIL on its success requirement, one wait per client', async () => {
  const { code, output, report } = await runWithFault(
    'partner-results-429-forever',
    '@OP-POST-RESULTS|@PTN-OWNER-POST-RESULTS',
  );
  expect(report?.verdict, output.slice(-3000)).toBe('fail');
  expect(code).toBe(1);
  const failures = (report?.tests ?? []).flatMap((t) => t.findings.filter((f) => f.outcome === 'fail'));
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(failure.requirement).toBe('OP-POST-RESULTS');
    expect(failure.message).toMatch(
      /^POST \/v2\/partner\/service-request\/\{id\}\/results \(createServiceRequestResults\) answered 429, a status the contract does not list for it/,
    );
    expect(failure.evidence).toMatch(/→ 429\n {2}reproduce: curl -i -X POST '\S+\/results'/);
  }
  expect(failures[0]?.message).toMatch(
    /again after the run waited out the first as it asked \(.*Retry-After 1 s\)/,
  );
  // Each partner client waited out one 429, then stopped sending the operation.
  expect(report?.requests?.rateLimitedAnswers).toBeLessThanOrEqual(2);
  expect(output).toMatch(
    /rate limit: partner A's client waits \d+ s for its rate limit's reset: the target answered 429 .*, on its account; \d+ answer\(s\) 429 in this run/,
  );
  expect(output).toMatch(
    /rate limit: partner A's client: POST \/v2\/partner\/service-request\/\{id\}\/results .*no longer sent again/,
  );
  expectNoSecret(output);
});

test('a user data read refused within the announced limit: the target side, a warning, no stall', async () => {
  const { code, output, report } = await runWithFault(
    'rate-limit-429-within-budget',
    '@RL-ANNOUNCED-LIMIT|@OP-GET-BASIC-PROFILE',
  );
  expect(report?.totals.failed, output.slice(-3000)).toBe(0);
  expect(report?.verdict).toBe('incomplete');
  expect(code).toBe(3);
  const requirement = (id: string) => report?.requirements.find((r) => r.id === id);
  expect(requirement('RL-ANNOUNCED-LIMIT')?.status).toBe('warning');
  expect(requirement('RL-ANNOUNCED-LIMIT')?.warnings[0]?.message).toMatch(
    /^the target refused GET \/v2\/user\/profile\/basic \(getBasicProfile\) within the rate limit it announced: it answered 429 5 times in a row over \d+ s, each retry sent after the full reset the last 429 announced, although it announced requests remaining \(last: limit \d+ per window, remaining \d+, reset in \d+ s, Retry-After 1 s\)/,
  );
  const profile = requirement('OP-GET-BASIC-PROFILE');
  expect(profile?.status).toBe('not-verified');
  for (const reason of profile?.notVerified ?? [])
    expect(reason.message).toMatch(
      /GET \S+\/v2\/user\/profile\/basic was not sent again: the target answered 429.*: on the target's side, not the run's budget$/,
    );
  // One request waited out four resets; every later one stopped at its first 429.
  expect(report?.requests?.rateLimitedAnswers).toBe(4);
  expect(output).toMatch(
    /rate limit: the user OAuth client: GET \/v2\/user\/profile\/basic \(getBasicProfile\) answered 429 5 times .*no longer sent again in this run/,
  );
  expectNoSecret(output);
});
