// Who is charged for a sign-in, end to end: the CLI runs a narrow selection against a sandbox it did not
// start (so the preflight signs in), with a fault of the sign-in. Whatever the authorization server answers
// is the server's: a 500, a 404 once the endpoint has worked, a 503 at the login post, a redirect loop now
// and then, a break mid-run beside a data fault: FAIL, each finding naming AUTH-CODE-FLOW and the request.
// What is the run's stays the run's: a 404 at the first sign-in is ERROR naming both readings, and so is an
// invalid_request there (a server requiring PKCE, with CONFORMANCE_PKCE=0); a captcha
// from mid-run stops the checks that need a new sign-in, reported beside the data fault's FAIL. The time of
// each run is recorded (an annotation), never asserted.
import { expect, test } from '@playwright/test';
import type { ConformanceReport, TestResultSummary } from '../../src/runner/report/model.ts';
import { cliAgainst, cliRun, expectFailWithoutRunError, type Run } from './auth-attribution-support.ts';
import { start } from './sandbox-client.ts';
import { startFaultProxy } from './suite-hostile-proxy.ts';

const WITHOUT_USER_B = ['CONFORMANCE_USER_B', 'CONFORMANCE_PASSWORD_B'];

/** The entries (tests, and the preflight's) that failed AUTH-CODE-FLOW. */
const signInFailures = (report: ConformanceReport): TestResultSummary[] =>
  report.tests.filter((t) => t.outcome === 'fail' && t.failedRequirements.includes('AUTH-CODE-FLOW'));

/** FAIL, exit 1; every AUTH-CODE-FLOW failure names the requirement, the request and what it answered. */
function expectChargedToServer(run: Run, answered: RegExp): TestResultSummary[] {
  expectFailWithoutRunError(run);
  expect(run.report.requirements.find((r) => r.id === 'AUTH-CODE-FLOW')?.status).toBe('fail');
  const failures = signInFailures(run.report);
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(failure.error).toContain('[AUTH-CODE-FLOW]');
    expect(failure.error).toMatch(answered);
    expect(failure.error).toMatch(
      /reproduce: curl -i -X (GET|POST) 'https?:\/\/\S+\/oauth\/oauth2\/(auth|token)/,
    );
    // Each failure keeps the answer it rests on, and where in it the rule broke.
    const finding = failure.findings.find((f) => f.requirement === 'AUTH-CODE-FLOW' && f.outcome === 'fail');
    expect([finding?.exchange, finding?.fields?.length], failure.title).toEqual([expect.any(String), 1]);
  }
  return failures;
}

const skipReason = (report: ConformanceReport, id: string): string[] =>
  report.tests.filter((t) => t.requirements.includes(id)).map((t) => t.skipReason ?? t.outcome);

test('the authorization endpoint answers 500: FAIL charged to AUTH-CODE-FLOW in the preflight, the checks that need a token blocked by it, the rest run', async () => {
  const run = await cliAgainst(
    { faults: ['oauth-authorize-500'] },
    { CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT|@PAUTH-TOKEN-INVALID-CLIENT' },
  );
  const failures = expectChargedToServer(run, /GET http:\/\/\S+\/oauth\/oauth2\/auth answered 500/);
  expect(failures.map((f) => f.title)).toContain('preflight: sign-in of user A');
  expect(run.report.gateFailures).toContain('failed: preflight: sign-in of user A (AUTH-CODE-FLOW)');
  // The server failed the run's last two sign-ins: no check signs in again, each is blocked.
  for (const reason of skipReason(run.report, 'PAG-LIMIT-DEFAULT'))
    expect(reason).toMatch(/^blocked by AUTH-CODE-FLOW: .*the server failed the run's last two sign-ins/);
  expect(run.report.requirements.find((r) => r.id === 'PAUTH-TOKEN-INVALID-CLIENT')?.status).toBe('pass');
  expect(run.output).toMatch(/^Conformance: FAIL/m);
});

test('the authorization endpoint answers 404 from the first sign-in: ERROR, naming both readings and the variables, no failure charged', async () => {
  const run = await cliAgainst(
    { faults: ['oauth-authorize-404'] },
    { CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT' },
  );
  expect(run.code, run.output.slice(-3000)).toBe(4);
  expect(run.report.verdict).toBe('error');
  expect(run.report.totals.failed).toBe(0);
  expect(run.report.runError?.kind).toBe('sign-in-refused');
  expect(run.report.runError?.cause).toMatch(
    /GET http:\/\/\S+\/oauth\/oauth2\/auth answered 404 .*Either the configuration does not match the server \(CONFORMANCE_AUTH_URL, CONFORMANCE_CLIENT_ID, CONFORMANCE_REDIRECT_URI\), or the server lacks or refuses its authorization endpoint/,
  );
  expect(run.report.runError?.remedy).toMatch(/CONFORMANCE_AUTH_URL/);
});

test('a server that requires PKCE: no failure with no configuration; with CONFORMANCE_PKCE=0 its invalid_request is ERROR naming both readings', async () => {
  const sandbox = await start({ variants: ['pkce-required'] });
  try {
    const grep = { CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT' };
    const signedIn = await cliRun(sandbox, grep);
    expect(signedIn.code, signedIn.output.slice(-3000)).toBe(3); // narrowed: INCOMPLETE at best
    expect(signedIn.report.totals.failed).toBe(0);
    expect(signedIn.report.runError).toBeUndefined();
    for (const id of ['AUTH-CODE-FLOW', 'PAG-LIMIT-DEFAULT'])
      expect(signedIn.report.requirements.find((r) => r.id === id)?.status, id).toBe('pass');
    const withoutPkce = await cliRun(sandbox, { ...grep, CONFORMANCE_PKCE: '0' });
    expect(withoutPkce.code, withoutPkce.output.slice(-3000)).toBe(4);
    expect(withoutPkce.report.totals.failed).toBe(0);
    expect(withoutPkce.report.runError?.kind).toBe('sign-in-refused');
    expect(withoutPkce.report.runError?.cause).toMatch(
      /carried invalid_request: code_challenge is required\. Either the authorization request the run's configuration builds does not suit the server .*, or the server refuses a request it should accept/,
    );
    expect(withoutPkce.report.runError?.remedy).toMatch(/CONFORMANCE_PKCE/);
  } finally {
    await sandbox.close();
  }
});

test('the authorization endpoint answers 404 once it has worked (mid-run): FAIL, the 404 charged with its request', async () => {
  const run = await cliAgainst(
    { faults: ['oauth-authorize-404-mid-run'] },
    { CONFORMANCE_GREP: '@PAG-LIMIT-DEFAULT' },
    WITHOUT_USER_B,
  );
  const failures = expectChargedToServer(
    run,
    /GET http:\/\/\S+\/oauth\/oauth2\/auth answered 404, where it answered within a sign-in earlier in this run/,
  );
  // The preflight's sign-in worked; a check met the 404 and is charged, its own requirement blocked.
  expect(failures.map((f) => f.title)).not.toContain('preflight: sign-in of user A');
  expect(run.report.requirements.find((r) => r.id === 'PAG-LIMIT-DEFAULT')?.status).toBe('not-verified');
});

test('the login form is shown but its POST answers 503: FAIL, charged to AUTH-CODE-FLOW with the post', async () => {
  const run = await cliAgainst(
    { faults: ['oauth-login-post-503'] },
    { CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT' },
  );
  expectChargedToServer(run, /POST http:\/\/\S+\/oauth\/oauth2\/auth answered 503/);
});

test('the authorization endpoint redirects to itself now and then: FAIL for each looping sign-in, the others sign in and their checks run', async () => {
  const run = await cliAgainst(
    { faults: ['oauth-authorize-redirect-loop'] },
    { CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT' },
  );
  expectChargedToServer(
    run,
    /the authorization server redirects in a loop: GET http:\/\/\S+\/oauth\/oauth2\/auth/,
  );
  expect(run.report.requirements.find((r) => r.id === 'PAG-LIMIT-DEFAULT')?.status).toBe('pass');
});

/**
 * A data check, then a check that signs in again: the scope matrix's (scopes.spec.ts runs after
 * schemas.spec.ts on one worker). An isolated test would not do: on a target the run did not start the
 * isolated tests run first, before the data check.
 */
const SIGN_IN_AFTER_DATA = '@INV-STRAIN-RANGE|@SCOPE-READ-CYCLES';

test('the authorization endpoint breaks after a number of sign-ins, with a data fault: FAIL for both, the data fault seen', async () => {
  const run = await cliAgainst(
    // The preflight signs in users A and B, the data check gets user A's token, the scope check (a later
    // file, one worker) a token of its scope set: the fourth sign-in breaks.
    { faults: ['oauth-authorize-500-mid-run', 'cycle-strain-over-21'], brokenFromSignIn: 4 },
    { CONFORMANCE_GREP: SIGN_IN_AFTER_DATA },
  );
  expectChargedToServer(run, /GET http:\/\/\S+\/oauth\/oauth2\/auth answered 500/);
  expect(run.report.requirements.find((r) => r.id === 'INV-STRAIN-RANGE')?.status).toBe('fail');
});

test('a login page that asks for a person from mid-run on, with a data fault: FAIL for the data fault, the run-side cause reported beside it', async () => {
  const run = await cliAgainst(
    { captchaFromSignIn: 4, faults: ['cycle-strain-over-21'] },
    { CONFORMANCE_GREP: SIGN_IN_AFTER_DATA },
  );
  expectFailWithoutRunError(run);
  expect(run.report.requirements.find((r) => r.id === 'INV-STRAIN-RANGE')?.status).toBe('fail');
  expect(signInFailures(run.report)).toEqual([]);
  const [stop] = run.report.runSideStops ?? [];
  expect(stop?.kind).toBe('person');
  expect(stop?.cause).toMatch(
    /A sign-in of user A needs a person: the page asks for "Type the characters shown"/,
  );
  expect(stop?.cause).not.toMatch(/refused the password/);
  expect(run.report.requirements.find((r) => r.id === 'SCOPE-READ-CYCLES')?.status).toBe('not-verified');
  expect(run.output).toMatch(
    /^Not verified on the run's side \(person\): A sign-in of user A needs a person/m,
  );
});

test('a target that answers 1 request in 25 with an HTML 500, its sign-in pages included: FAIL, never ERROR', async () => {
  const sandbox = await start();
  let signIns = 0;
  const proxy = await startFaultProxy(sandbox.authUrl, (request, body) => {
    if (body === undefined) return undefined;
    const firstSignIn = request.path.startsWith('/oauth/oauth2/auth?') && ++signIns === 1;
    return firstSignIn || request.index % 25 === 0 ? 'html500' : undefined;
  });
  try {
    const run = await cliRun(sandbox, {
      CONFORMANCE_BASE_URL: proxy.origin + new URL(sandbox.baseUrl).pathname,
      CONFORMANCE_AUTH_URL: proxy.origin,
      CONFORMANCE_GREP: '@AUTH-CODE-FLOW|@PAG-LIMIT-DEFAULT|@PAG-FIRST-PAGE|@PAUTH-TOKEN',
    });
    expect(proxy.faulted.length).toBeGreaterThan(1);
    expectFailWithoutRunError(run);
    // The sign-in page's 500 is the server's, with its request; so is every other 500.
    const [preflight] = signInFailures(run.report).filter((t) => t.title === 'preflight: sign-in of user A');
    expect(preflight?.error).toMatch(
      /GET http:\/\/\S+\/oauth\/oauth2\/auth answered 500\n.*reproduce: curl/s,
    );
    for (const failure of run.report.tests.filter((t) => t.outcome === 'fail'))
      expect(failure.error).toMatch(/500/);
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});
