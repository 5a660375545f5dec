// Trouble on the user's side is never a failure: an unreachable base URL, refused credentials (client secret,
// partner secret, password), a login page with nothing to fill, no Chromium for a page built by script, a
// login page that needs a person (a captcha from the first page, a second factor with no stored grant): each
// ends the CLI ERROR, the cause named, exit 4, before the first test (no test request; the time is recorded,
// never asserted). A configuration error exits 2 in one line naming the variable, whatever reports/ holds.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { ConformanceReport } from '../../src/report/model.ts';
import { conformanceReportIn } from '../../src/run/suite-run.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { sandboxTargetEnv } from './suite-against.ts';
import { startCli } from './suite-hostile-support.ts';

// One run at a time: the time each takes is recorded as a run's, not two runs' sharing the machine's cores.
test.describe.configure({ mode: 'default' });

let sandbox: RunningSandbox;
test.beforeAll(async () => {
  sandbox = await start();
});
test.afterAll(async () => sandbox.close());

/** The CLI against a target of the test's choosing, with the sandbox's credentials unless `env` says otherwise. */
async function cliRun(env: Record<string, string>, target = sandbox) {
  const reports = scratchDir();
  const started = Date.now();
  const { code, output } = await startCli({ ...sandboxTargetEnv(target, reports), ...env }).exit;
  return { code, output, ms: Date.now() - started, reports };
}

function expectError(run: Awaited<ReturnType<typeof cliRun>>, cause: RegExp): ConformanceReport {
  expect(run.code, run.output).toBe(4);
  test.info().annotations.push({ type: 'duration', description: `ERROR after ${run.ms} ms` });
  expect(run.output).toMatch(cause);
  const report = conformanceReportIn(run.reports);
  // Found before the first test: no test sent a request (the preflight's own are counted, a handful).
  expect(report.tests.filter((t) => (t.requests?.user ?? 0) + (t.requests?.partner ?? 0) > 0)).toEqual([]);
  expect(report.requestsSent, 'the preflight sends a handful of requests, none of a test').toBeLessThan(12);
  expect(report.verdict).toBe('error');
  expect(report.runError?.cause).toMatch(cause);
  expect(report.totals.failed).toBe(0);
  expect(report.tests.length).toBeGreaterThan(0);
  expect(report.tests.filter((t) => t.outcome !== 'error')).toEqual([]);
  expect(report.requirementTotals.fail).toBe(0);
  return report;
}

test('an unreachable base URL: ERROR, the target cannot be reached, exit 4', async () => {
  const report = expectError(
    await cliRun({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9/developer' }),
    /the target cannot be reached: .*ECONNREFUSED/,
  );
  expect(report.runError?.remedy).toMatch(/CONFORMANCE_BASE_URL/);
});

test('a user OAuth client secret the target refuses: ERROR naming CONFORMANCE_CLIENT_SECRET, exit 4', async () => {
  const report = expectError(
    await cliRun({ CONFORMANCE_CLIENT_SECRET: 'not-the-secret' }),
    /the target refuses the user OAuth client/,
  );
  expect(report.runError?.remedy).toMatch(/CONFORMANCE_CLIENT_SECRET \(set in the environment\)/);
});

test("a partner secret the target refuses: ERROR naming partner B's variables, exit 4", async () => {
  const report = expectError(
    await cliRun({ CONFORMANCE_PARTNER_B_CLIENT_SECRET: 'not-the-secret' }),
    /the target refuses partner B's client credentials/,
  );
  expect(report.runError?.remedy).toMatch(/CONFORMANCE_PARTNER_B_CLIENT_SECRET/);
});

test('a password the target refuses: ERROR naming CONFORMANCE_PASSWORD, exit 4', async () => {
  const report = expectError(
    await cliRun({ CONFORMANCE_PASSWORD: 'not-the-password' }),
    /the target refused the password of CONFORMANCE_USER \(CONFORMANCE_PASSWORD\)/,
  );
  expect(report.runError?.kind).toBe('credentials');
  expect(JSON.stringify(report)).not.toContain('not-the-password');
});

test('a login page with no usable form: ERROR with the page described (address, title), exit 4', async () => {
  // An authorization server in maintenance: its token endpoint knows the client (invalid_grant), its
  // authorization page offers nothing to fill or press.
  const maintenance = createServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":"invalid_grant"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Sign in unavailable</title><h1>Back soon</h1><p>Maintenance.</p>');
  });
  await new Promise<void>((resolve) => maintenance.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = maintenance.address() as AddressInfo;
    const report = expectError(
      await cliRun({ CONFORMANCE_AUTH_URL: `http://127.0.0.1:${port}` }),
      /could not find its way: the page offers no form and no button\. The page: .*Sign in unavailable/,
    );
    expect(report.runError?.kind).toBe('sign-in');
  } finally {
    maintenance.close();
  }
});

test('no Chromium, and a login page built by script: ERROR before any test, naming the fix, exit 4', async () => {
  const scripted = await start({ realisticLogin: true });
  try {
    const report = expectError(
      await cliRun({ CONFORMANCE_CHROMIUM: '/nonexistent/chromium' }, scripted),
      /needs Chromium: there is none at \/nonexistent\/chromium/,
    );
    expect(report.runError?.kind).toBe('browser');
    expect(report.runError?.remedy).toMatch(/apt-get install chromium/);
  } finally {
    await scripted.close();
  }
});

test('a captcha on the first login page: ERROR, a person must sign in (never "refused the password"), exit 4', async () => {
  const wary = await start({ captchaFromSignIn: 1 });
  try {
    const report = expectError(
      await cliRun({}, wary),
      /A sign-in of user A needs a person: the page asks for "Type the characters shown"/,
    );
    expect(report.runError?.kind).toBe('person');
    expect(report.runError?.cause).not.toMatch(/refused the password/);
    expect(report.runError?.remedy).toMatch(/login --headed/);
  } finally {
    await wary.close();
  }
});

test('a second factor and no stored grant: ERROR, a person must sign in (login --headed), exit 4', async () => {
  const guarded = await start({ loginPage: 'second-factor' });
  try {
    const report = expectError(
      await cliRun(
        { CONFORMANCE_TOKEN_STORE: join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json') },
        guarded,
      ),
      /A sign-in of user A needs a person: the page asks for "Code"/,
    );
    expect(report.runError?.kind).toBe('person');
    expect(report.runError?.remedy).toMatch(/login --headed/);
  } finally {
    await guarded.close();
  }
});

test('a configuration error, with a PASS report of an earlier run left behind: exit 2, one line, no stack', async () => {
  const reports = scratchDir();
  writeFileSync(join(reports, 'conformance.json'), JSON.stringify({ verdict: 'pass' }));
  const { code, output } = await startCli({
    CONFORMANCE_ENV_FILE: undefined,
    CONFORMANCE_REPORTS_DIR: reports,
    CONFORMANCE_WORKERS: 'abc',
  }).exit;
  expect(code, output).toBe(2);
  expect(output.trim().split('\n')).toEqual([
    'Conformance: ERROR: Configuration error: CONFORMANCE_WORKERS must be a positive integer; got "abc" (set in the environment); correct CONFORMANCE_WORKERS',
  ]);
});
