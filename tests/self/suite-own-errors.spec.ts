// The suite's own errors are the run's (issue 35): a TypeError in a check's own code, or a check that never
// ends before Playwright's test timeout, ends the run ERROR with a run error of kind `suite` (the cause, the
// remedy, the stack), never a failure of the requirement the check declares; a failure another check saw in
// the same run stays a FAIL, the suite's error beside it. The errors are injected through the test-only
// hook CONFORMANCE_SELF_TEST_ERROR (src/worker/suite/self-test-hooks.ts), into OP-GET-BASIC-PROFILE's check.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readResult } from '../../src/result/validate.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { runSuiteAgainst } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

const BROKEN = 'OP-GET-BASIC-PROFILE';
/** The broken check and one that sees the data fault profile-user-id-string (SCH-BASIC-PROFILE). */
const GREP = `@${BROKEN}|@SCH-BASIC-PROFILE`;

async function run(env: Record<string, string>, ...playwright: string[]) {
  const reports = scratchDir();
  const [command, args] = cli('run', '--', ...playwright);
  const { code, output } = await runProcess(
    command,
    args,
    { CONFORMANCE_REPORTS_DIR: reports, CONFORMANCE_WORKERS: '1', CONFORMANCE_GREP: GREP, ...env },
    true,
  );
  const report = readResult(join(reports, 'conformance.json'));
  return { code, output, report };
}

/** The broken check's result. */
const broken = (report: ConformanceReport) => report.tests.find((t) => t.requirements.includes(BROKEN));

test("a TypeError in a check's own code ends the run ERROR `suite`, with its stack, never a failure", async () => {
  const { code, output, report } = await run({ CONFORMANCE_SELF_TEST_ERROR: `type-error:${BROKEN}` });
  expect(code, output).toBe(4);
  expect(report.verdict).toBe('error');
  expect(report.runError).toMatchObject({
    kind: 'suite',
    cause: expect.stringMatching(
      /^the suite's own code failed in "OP-GET-BASIC-PROFILE: .*": TypeError: Cannot read properties of null/,
    ),
    remedy: "report it to the suite's maintainers, with reports/ and the console output",
    stack: expect.stringContaining('self-test-hooks.ts'),
  });
  expect(broken(report)).toMatchObject({ outcome: 'error', failedRequirements: [] });
  expect(report.requirementTotals.fail).toBe(0);
  expect(report.requirements.find((r) => r.id === 'SCH-BASIC-PROFILE')?.status).toBe('pass');
  expect(output).toContain("Run error (suite): the suite's own code failed in");
});

test('a failure seen by another check stays FAIL, the TypeError beside it', async () => {
  const { code, output, report } = await run({
    CONFORMANCE_SELF_TEST_ERROR: `type-error:${BROKEN}`,
    CONFORMANCE_SANDBOX_FAULTS: 'profile-user-id-string',
  });
  expect(code, output).toBe(1);
  expect(report.verdict).toBe('fail');
  expect(report.verdictBesideFailures).toBe('error');
  expect(report.runError?.kind).toBe('suite');
  expect(report.tests.flatMap((t) => t.failedRequirements)).toEqual(['SCH-BASIC-PROFILE']);
  expect(broken(report)?.outcome).toBe('error');
  expect(output).toMatch(/Beside the failures, the suite's own code failed \(suite\)/);
});

test("a check that outlives Playwright's test timeout ends the run ERROR `suite`, never a failure", async () => {
  const { code, output, report } = await run(
    { CONFORMANCE_SELF_TEST_ERROR: `hang:${BROKEN}` },
    '--timeout',
    '3000',
  );
  expect(code, output).toBe(4);
  expect(report.runError).toMatchObject({
    kind: 'suite',
    cause: expect.stringMatching(/Test timeout of 3000ms exceeded/),
  });
  expect(broken(report)).toMatchObject({ outcome: 'error', failedRequirements: [] });
  expect(report.requirementTotals.fail).toBe(0);
});

test('the hook reaches no target but the embedded sandbox: against any other, the check runs', async () => {
  const sandbox = await start();
  try {
    const { report } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_TARGET: 'remote',
      CONFORMANCE_SIGN_IN: 'form',
      CONFORMANCE_GREP: GREP,
      CONFORMANCE_SELF_TEST_ERROR: `type-error:${BROKEN}`,
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    });
    expect(report.runError).toBeUndefined();
    expect(broken(report)?.outcome).toBe('pass');
  } finally {
    await sandbox.close();
  }
});
