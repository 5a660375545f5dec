// Webhooks on a target that is not the embedded sandbox: the suite's receiver listens for the run on
// CONFORMANCE_WEBHOOK_LISTEN, the team registered CONFORMANCE_WEBHOOK_PUBLIC_URL (here through the sandbox's
// administration API, as in a console), the users' data changes on its own (--user-activity), and the
// checks read the run's webhook log. WH-SIGNED and REVOKE-WEBHOOKS-STOP are verified under the timestamp
// scheme the variant timestamped-webhook-signatures uses and the configuration states; a service that
// signs otherwise than the configured scheme fails WH-SIGNED, and one whose webhooks go on after a
// revocation fails REVOKE-WEBHOOKS-STOP.
import { expect, test } from '@playwright/test';
import type { SandboxInput } from '../../sandbox/options.ts';
import { freePort } from '../../src/run/prism.ts';
import { credentials, start } from './sandbox-client.ts';
import { runSuiteAgainst } from './suite-against.ts';

async function webhookRun(options: SandboxInput) {
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
      CONFORMANCE_GREP: '@WH-SIGNED(?=\\s|$)|@REVOKE-WEBHOOKS-STOP',
      CONFORMANCE_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
      CONFORMANCE_WEBHOOK_PUBLIC_URL: url,
      CONFORMANCE_WEBHOOK_WAIT_S: '2',
      CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: 'Service-Timestamp',
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    });
    return report.tests.map((t) => ({
      requirement: t.requirements[0],
      status: t.status,
      failed: t.failedRequirements,
    }));
  } finally {
    await sandbox.close();
  }
}

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
