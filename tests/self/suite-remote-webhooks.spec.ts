// Webhooks on a target that is not the embedded sandbox: the suite's receiver listens for the run on
// CONFORMANCE_WEBHOOK_LISTEN, the team registered CONFORMANCE_WEBHOOK_PUBLIC_URL (here through the sandbox's
// administration API, as in a console), the users' data changes on its own (--user-activity), and the
// checks read the run's webhook log. WH-SIGNED and REVOKE-WEBHOOKS-STOP are verified under the timestamp
// scheme the variant timestamped-webhook-signatures uses and the configuration states; a service that
// signs otherwise than the configured scheme fails WH-SIGNED, and one whose webhooks go on after a
// revocation fails REVOKE-WEBHOOKS-STOP. A 204 of add-test-data that names no requisition is followed by the
// webhook that announces it: the generated requisition is read from it.
import { expect, test } from '@playwright/test';
import type { SandboxInput } from '../../sandbox/options.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { freePort } from '../../src/runner/run/prism.ts';
import { messagesOf } from './findings-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { credentials, start } from './sandbox-client.ts';
import { runSuiteAgainst } from './suite-against.ts';

const WEBHOOK_CHECKS = '@WH-SIGNED(?=\\s|$)|@REVOKE-WEBHOOKS-STOP';

/**
 * The receiver's port is chosen free here, registered, and bound by the run later: another process of a
 * busy machine may take it meanwhile. The run then ends ERROR naming the port (kind `port`), and is made
 * again on another port, at most three times.
 */
async function webhookRun(options: SandboxInput, grep = WEBHOOK_CHECKS) {
  for (let attempt = 1; ; attempt++) {
    const report = await webhookRunOnce(options, grep);
    if (report.runError?.kind !== 'port' || attempt === 3) return testsOf(report);
    console.log(`the receiver's port was taken (${report.runError.cause}): again on another`);
  }
}

async function webhookRunOnce(options: SandboxInput, grep: string) {
  const sandbox = await start({ ...options, userActivityMs: 300 });
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks`;
    for (const owner of [credentials.client.clientId, credentials.partners[0].clientId]) {
      const registered = await fetch(`${sandbox.authUrl}/sandbox/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner, url }),
      });
      expect(registered.status).toBe(201);
    }
    const { report } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_TARGET: 'remote',
      CONFORMANCE_SIGN_IN: 'form',
      CONFORMANCE_GREP: grep,
      CONFORMANCE_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
      CONFORMANCE_WEBHOOK_PUBLIC_URL: url,
      CONFORMANCE_WEBHOOK_WAIT_S: '2',
      CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: 'Service-Timestamp',
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    });
    return report;
  } finally {
    await sandbox.close();
  }
}

const testsOf = (report: ConformanceReport) =>
  report.tests.map((t) => ({
    requirement: t.requirements[0],
    status: t.status,
    failed: t.failedRequirements,
    notVerified: messagesOf(t, 'not-verified'),
    notes: (report.requirements.find((r) => r.id === 'OP-ADD-TEST-DATA')?.notes ?? []).map(
      (note) => note.message,
    ),
  }));

test("verified from the run receiver's log under the configured timestamp scheme", async () => {
  const tests = await webhookRun({ variants: ['timestamped-webhook-signatures'] });
  expect(tests.map((t) => `${t.requirement} ${t.status}`).sort()).toEqual([
    'REVOKE-WEBHOOKS-STOP passed',
    'WH-SIGNED passed',
    'WH-SIGNED passed',
  ]);
});

test('signatures outside the configured scheme fail WH-SIGNED; webhooks after a revocation fail REVOKE-WEBHOOKS-STOP', async () => {
  const tests = await webhookRun({ faults: ['revoke-webhooks-continue'] });
  const failed = tests.filter((t) => t.status === 'failed').flatMap((t) => t.failed);
  expect(failed.sort()).toEqual(['REVOKE-WEBHOOKS-STOP', 'WH-SIGNED']);
});

test("add-test-data's 204 naming no requisition is read from the webhook that announced it", async () => {
  // A run of the command line against a started sandbox: a run's time on a busy machine, never asserted.
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const tests = await webhookRun(
    { variants: ['test-data-204'] },
    '@TD-GENERATES-REQUISITION|@TD-MOBILE-ADDRESS',
  );
  expect(tests.map((t) => `${t.requirement} ${t.status}`).sort()).toEqual([
    'TD-GENERATES-REQUISITION passed',
    'TD-GENERATES-REQUISITION passed',
    'TD-GENERATES-REQUISITION passed',
    'TD-GENERATES-REQUISITION passed',
    'TD-MOBILE-ADDRESS passed',
  ]);
  expect(tests.flatMap((t) => t.notVerified)).toEqual([]);
  expect(tests[0]?.notes).toContain(
    'add-test-data answered 204 naming no requisition; a webhook announced it',
  );
});
