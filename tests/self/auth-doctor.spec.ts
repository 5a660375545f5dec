// `npm run doctor`: on the sandbox it passes every check in at most 12 requests, none a write, and prints the
// table of requirement families; on a misconfigured target (a wrong client secret, a partner scope the target
// refuses) it names each problem on its own line and exits 1; it never prints a secret. Behind a limit announced
// without its window, it says where each figure of the rate comes from, and plans and estimates from it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { PRODUCTION_RATE_LIMITS } from '../../sandbox/rate-limit.ts';
import { cli } from '../../src/runner/run/run-step.ts';
import { start } from './sandbox-client.ts';
import { sandboxEnv } from './suite-against.ts';

let sandbox: RunningSandbox;
test.beforeAll(async () => {
  sandbox = await start();
});
test.afterAll(async () => sandbox.close());

const secretsIn = (env: Record<string, string | undefined>): string[] =>
  Object.entries(env).flatMap(([name, value]) => (/SECRET|PASSWORD/.test(name) && value ? [value] : []));

async function doctor(env: Record<string, string>, target = sandbox) {
  await fetch(`${target.authUrl}/sandbox/requests`, { method: 'DELETE' });
  const [command, args] = cli('doctor');
  // The whole output: the plan's lines come before the family table.
  const run = await promisify(execFile)(command, args, {
    env: {
      ...process.env,
      ...sandboxEnv,
      CONFORMANCE_ENV_FILE: undefined,
      CONFORMANCE_BASE_URL: target.baseUrl,
      CONFORMANCE_AUTH_URL: target.authUrl,
      ...env,
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  const served = (await (await fetch(`${target.authUrl}/sandbox/requests`)).json()) as {
    total: number;
    by_route: Record<string, number>;
  };
  for (const secret of [...secretsIn(sandboxEnv), ...secretsIn(env)])
    expect(run.output).not.toContain(secret);
  return { ...run, served };
}

const writes = (byRoute: Record<string, number>): string[] =>
  Object.keys(byRoute).filter((route) => !/^GET |token$|oauth2\/auth$/.test(route));

test('on the sandbox: every check passes within 12 requests, none a write, and the family table says what is verified', async () => {
  const run = await doctor({ CONFORMANCE_TARGET: 'sandbox' });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/✓ user A token: sign-in \(auto\)/);
  expect(run.output).toMatch(/✓ partner B token/);
  expect(run.output).toMatch(/^\| AUTH \| \d+ \| \d+ \| — \|$/m);
  expect(run.output).toMatch(/^\| RL \| 1 \| 1 \| — \|$/m);
  expect(run.served.total).toBeLessThanOrEqual(12);
  expect(writes(run.served.by_route)).toEqual([]);
});

test('on a misconfigured target: a wrong client secret and a refused partner scope, one line each, exit 1', async () => {
  const run = await doctor({
    CONFORMANCE_TARGET: 'remote',
    CONFORMANCE_SIGN_IN: 'form',
    CONFORMANCE_CLIENT_SECRET: 'not-the-client-secret',
    CONFORMANCE_PARTNER_SCOPE: 'partner/everything',
  });
  expect(run.code, run.output).toBe(1);
  expect(run.output).toMatch(/✗ user A token: sign-in \(form\) failed: Token request failed: .*→ 401/);
  expect(run.output).toMatch(
    /✗ partner A token: the token request answered 400 invalid_scope.*: check CONFORMANCE_PARTNER_SCOPE/,
  );
  expect(run.output).toMatch(
    /^\| AUTH \| 4 \| 3 \| AUTH-EXPIRED-TOKEN: expired-user-token: needs .*CONFORMANCE_EXPIRED_USER_TOKEN/m,
  );
  expect(run.output).toMatch(/✗ 4 problem\(s\) on the run's side/);
  expect(run.served.total).toBeLessThanOrEqual(12);
  expect(writes(run.served.by_route)).toEqual([]);
});

test('a configuration that cannot be read: one message naming the variable, exit 2', async () => {
  const run = await doctor({ CONFORMANCE_CLIENT_AUTH: 'client_secret_jwt' });
  expect(run.code).toBe(2);
  expect(run.output.trim()).toMatch(
    /^✗ Configuration error: CONFORMANCE_CLIENT_AUTH must be one of client_secret_post, client_secret_basic; got "client_secret_jwt"$/m,
  );
});

test('a browser sign-in the doctor does not try is shown untried, never ticked', async () => {
  const run = await doctor({ CONFORMANCE_TARGET: 'remote', CONFORMANCE_SIGN_IN: 'browser' });
  expect(run.output).toMatch(/^ {2}– user A token: not tried here/m);
  expect(run.output).not.toMatch(/✓ user A token/);
});

test('a three-step sign-in whose first step posts elsewhere: the doctor signs in (no write of data) and is ready', async () => {
  // The identifier-first page posts the e-mail to /identity/signin/email, then the password, then consent.
  const threeSteps = await start({ loginPage: 'identifier-first' });
  try {
    const run = await doctor({ CONFORMANCE_TARGET: 'remote' }, threeSteps);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/✓ user A token: sign-in \(auto\)/);
    expect(run.output).toMatch(/requests, none a write, and \d+ of sign-in/);
    expect(run.output).toMatch(/✓ ready to run/);
    expect(run.served.by_route['POST /identity/signin/email']).toBeGreaterThan(0);
  } finally {
    await threeSteps.close();
  }
});

test('a sign-in the server fails: the doctor says the run would charge the server, not end ERROR', async () => {
  const broken = await start({ faults: ['oauth-authorize-500'] });
  try {
    const run = await doctor({ CONFORMANCE_TARGET: 'remote' }, broken);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(
      /✗ user A token: sign-in \(auto\): the server failed it \(AUTH-CODE-FLOW\): GET http:\/\/\S+\/oauth\/oauth2\/auth answered 500/,
    );
    expect(run.output).toMatch(
      /✗ 2 failure\(s\) of the server: the run would charge them to the server \(FAIL, exit 1\)/,
    );
    expect(run.output).not.toMatch(/would end ERROR/);
  } finally {
    await broken.close();
  }
});

test("behind production's limit announced without its window: the window learned, the plan budgeted, a configured limit said so", async () => {
  const windowless = await start({ rateLimit: PRODUCTION_RATE_LIMITS, rateLimitHeaders: 'windowless' });
  try {
    const learned = await doctor({ CONFORMANCE_TARGET: 'remote' }, windowless);
    expect(learned.code, learned.output).toBe(0);
    expect(learned.output).toMatch(/^Rate limit of user data \(the OAuth client\): 100 per 60 s$/m);
    expect(learned.output).toMatch(/^ {2}limit 100: announced$/m);
    expect(learned.output).toMatch(
      /^ {2}window 60 s: learned \(the X-RateLimit-Reset of an answer that opened a window\)$/m,
    );
    expect(learned.output).toMatch(/^Depth: budgeted, because the rate limit is 100 per 60 s/m);
    expect(learned.output).toMatch(
      /^Estimate: a wall time of about \d+ s: ~\d+ user-data requests at 100 per 60 s/m,
    );
    const configured = await doctor(
      { CONFORMANCE_TARGET: 'remote', CONFORMANCE_RATE_LIMIT: '100/60' },
      windowless,
    );
    expect(configured.output).toMatch(/^ {2}limit 100: configured \(CONFORMANCE_RATE_LIMIT\)$/m);
    expect(configured.output).toMatch(
      /^Depth: budgeted, because the rate limit is 100 per 60 s \(configured by CONFORMANCE_RATE_LIMIT\)/m,
    );
  } finally {
    await windowless.close();
  }
});
