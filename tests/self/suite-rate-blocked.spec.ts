// No verdict from blocked evidence: against a sandbox whose rate limit runs out early and resets only after
// the run's budget of time (30 requests per hour), the shared walks of the collections are refused a 429
// that outlasts the run. Every check that reads them is not verified, naming the rate limit and the request;
// none passes, and nothing fails: a 429 is "later", never the target's fault.
import { expect, test } from '@playwright/test';
import { start } from './sandbox-client.ts';
import { runSuiteAgainst } from './suite-against.ts';

test('a 429 that outlasts the run budget leaves the checks that needed the blocked walk not verified', async () => {
  const sandbox = await start({ rateLimit: { limit: 30, windowSeconds: 3600 } });
  try {
    const { code, report } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_GREP: '@VER-V2-IDS|@SCH-SLEEP|@PAG-NEXT-TOKEN|@OP-LIST-SLEEPS',
      // The run's budget ends 20 s before its timeout: the hour-long reset lies far past it.
      CONFORMANCE_RUN_TIMEOUT_S: '60',
    });
    expect(report.totals.failed, report.tests.map((t) => t.error ?? '').join('\n')).toBe(0);
    const blocked = report.tests.filter((t) =>
      /rate limited: 30 per window(, answered 429)?, reset in \d+ s, past the run.s budget of time \(CONFORMANCE_RUN_TIMEOUT_S\): on the run.s side/.test(
        t.skipReason ?? '',
      ),
    );
    expect(blocked.length, 'checks refused for the rate limit').toBeGreaterThan(0);
    expect(
      blocked.some((t) => /GET \S+\/v2\/\S+ was not sent/.test(t.skipReason ?? '')),
      'names the request',
    ).toBe(true);
    // The checks over the complete sleep collection read a walk the limit blocked: none of them passed.
    for (const id of ['VER-V2-IDS', 'SCH-SLEEP']) {
      const requirement = report.requirements.find((r) => r.id === id);
      expect(
        requirement?.status,
        `${id}: ${requirement?.notVerified.map((line) => line.message).join('; ')}`,
      ).toBe('not-verified');
    }
    // INCOMPLETE (the conformance CLI's exit 3; Playwright's own status here is a failed run).
    expect(report.verdict).toBe('incomplete');
    expect(code).not.toBe(0);
  } finally {
    await sandbox.close();
  }
});
