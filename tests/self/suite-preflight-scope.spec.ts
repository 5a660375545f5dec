// A run error is as wide as its cause, in the preflight too: the CLI runs a selection against a sandbox it did
// not start (so the preflight checks the credentials and signs the users in). A partner token endpoint that
// answers 429 from the first request fails OP-PARTNER-TOKEN (it lists no 429), in the preflight as in the
// tests, and the user checks run; a captcha on user B's sign-in only stops the checks that need user B, and
// a fault in user A's data is seen: FAIL. The time of each run is recorded (an annotation), never asserted.
import { expect, test } from '@playwright/test';
import { cliAgainst, expectFailWithoutRunError } from './auth-attribution-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { credentials } from './sandbox-client.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

test('a partner token endpoint answering 429 from the first request: FAIL naming OP-PARTNER-TOKEN, in the preflight as in the tests; the user checks run', async () => {
  const run = await cliAgainst(
    { faults: ['partner-token-429'] },
    { CONFORMANCE_GREP: '@OP-PARTNER-TOKEN|@PAG-LIMIT-DEFAULT' },
  );
  expectFailWithoutRunError(run);
  const preflight = run.report.tests.filter((t) => t.title.startsWith('preflight: partner'));
  expect(preflight.map((t) => t.title).sort()).toEqual([
    'preflight: partner A token',
    'preflight: partner B token',
  ]);
  for (const entry of preflight) {
    expect(entry.failedRequirements).toEqual(['OP-PARTNER-TOKEN']);
    expect(entry.error).toMatch(
      /^\[OP-PARTNER-TOKEN\] POST \/developer\/v2\/partner\/token answered 429, a status the contract does not list for it, again after the run waited out the first as it asked \(Retry-After 1 s\)/,
    );
    expect(entry.error).toMatch(/reproduce: curl -i -X POST '\S+\/v2\/partner\/token'/);
    expect(entry.error).not.toContain(credentials.partners[0]?.clientSecret ?? 'no secret');
  }
  expect(run.report.requirements.find((r) => r.id === 'OP-PARTNER-TOKEN')?.status).toBe('fail');
  expect(run.report.requirements.find((r) => r.id === 'PAG-LIMIT-DEFAULT')?.status).toBe('pass');
});

test("a captcha on user B's sign-in only, with a fault in user A's data: FAIL for the data fault; only the checks that need user B stop", async () => {
  const userB = credentials.users[1]?.username ?? '';
  const run = await cliAgainst(
    { captchaFor: [userB], faults: ['cycle-strain-over-21'] },
    { CONFORMANCE_GREP: '@INV-STRAIN-RANGE|@DATA-OWN-USER-ONLY|@OP-PARTNER-TOKEN' },
  );
  expectFailWithoutRunError(run);
  expect(run.report.requirements.find((r) => r.id === 'INV-STRAIN-RANGE')?.status).toBe('fail');
  expect(run.report.requirements.find((r) => r.id === 'OP-PARTNER-TOKEN')?.status).toBe('pass');
  // The checks that need user B stop at once, naming the person's sign-in; no other.
  const [stop, ...others] = run.report.runSideStops ?? [];
  expect(others).toEqual([]);
  expect(stop?.kind).toBe('person');
  expect(stop?.cause).toMatch(
    /^A sign-in of user B needs a person: the page asks for "Type the characters shown"/,
  );
  expect(run.report.requirements.find((r) => r.id === 'DATA-OWN-USER-ONLY')?.status).toBe('not-verified');
  expect(run.output).toMatch(
    /^Not verified on the run's side \(person\): A sign-in of user B needs a person/m,
  );
});
