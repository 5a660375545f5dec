// Trouble on the user's side is never a failure: an unreachable base URL, refused credentials (client secret,
// partner secret, password), a login page with nothing to fill, no Chromium for a page built by script: each
// ends the CLI ERROR, the cause named, exit 4, before the first test (no test request; the time is recorded,
// never asserted). A login page that needs a person (a captcha from the first page, a second factor with no
// stored grant) is as wide as its cause: the checks that need a user stop, the partner checks run, exit 3
// (a narrowed run: INCOMPLETE at best).
// A configuration error exits 2 in one line naming the variable, whatever reports/ holds.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { conformanceReportIn } from '../../src/runner/run/suite-run.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { sandboxTargetEnv } from './suite-against.ts';
import { startCli } from './suite-hostile-support.ts';

let sandbox: RunningSandbox;
test.beforeAll(async () => {
  sandbox = await start();
});
test.afterAll(async () => sandbox.close());

/**
 * The CLI against a target of the test's choosing, with the sandbox's credentials unless `env` says otherwise;
 * one worker (a run that ends before its first test would start two for nothing).
 */
async function cliRun(env: Record<string, string>, target = sandbox) {
  const reports = scratchDir();
  const started = Date.now();
  const { code, output } = await startCli({
    ...sandboxTargetEnv(target, reports),
    CONFORMANCE_WORKERS: '1',
    ...env,
  }).exit;
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

/**
 * A sign-in that needs a person stops the checks that need that user, at once, and no other: the partner
 * checks run, and the run ends INCOMPLETE (exit 3) with the cause listed beside the verdict, never ERROR.
 */
function expectPersonScoped(
  run: Awaited<ReturnType<typeof cliRun>>,
  users: readonly string[],
  asked: string,
) {
  expect(run.code, run.output.slice(-3000)).toBe(3);
  test.info().annotations.push({ type: 'duration', description: `INCOMPLETE after ${run.ms} ms` });
  const report = conformanceReportIn(run.reports);
  expect(report.verdict).toBe('incomplete');
  expect(report.runError).toBeUndefined();
  expect(report.totals.failed).toBe(0);
  const stops = report.runSideStops ?? [];
  expect(stops.map((stop) => stop.kind)).toEqual(stops.map(() => 'person'));
  for (const user of users) {
    const stop = stops.find((one) => one.cause.startsWith(`A sign-in of user ${user} needs a person`));
    expect(stop?.cause, `user ${user}`).toContain(`the page asks for "${asked}`);
    expect(stop?.cause).not.toMatch(/refused the password/);
    expect(stop?.remedy).toMatch(/login --headed/);
  }
  expect(run.output).toMatch(
    /^Not verified on the run's side \(person\): A sign-in of user A needs a person/m,
  );
  // The partner checks need no user: they run.
  expect(report.requirements.find((r) => r.id === 'OP-PARTNER-TOKEN')?.status).toBe('pass');
  expect(report.requirements.find((r) => r.id === 'OP-LIST-CYCLES')?.status).toBe('not-verified');
}

/** A few checks of each kind: a user's, a partner's (a whole run of the suite would take minutes here). */
const SOME_CHECKS = { CONFORMANCE_GREP: '@OP-LIST-CYCLES|@OP-PARTNER-TOKEN|@PAG-LIMIT-DEFAULT' };

test('a captcha on the first login page: the checks that need a user stop, naming a person (never "refused the password"), the partner checks run, exit 3', async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const wary = await start({ captchaFromSignIn: 1 });
  try {
    const run = await cliRun(SOME_CHECKS, wary);
    expectPersonScoped(run, ['A'], 'Type the characters shown');
    // User B's too, said at the start: no check of this selection needs user B.
    expect(run.output).toMatch(
      /^Sign-in: A sign-in of user B needs a person: .*; the checks that need user B will not be verified$/m,
    );
  } finally {
    await wary.close();
  }
});

test('a second factor and no stored grant: the checks that need a user stop, a person must sign in (login --headed), exit 3', async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const guarded = await start({ loginPage: 'second-factor' });
  try {
    const store = join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json');
    expectPersonScoped(
      await cliRun({ ...SOME_CHECKS, CONFORMANCE_TOKEN_STORE: store }, guarded),
      ['A'],
      'Code',
    );
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
