// The scope a grant carries (src/auth/granted-scope.ts), end to end against a sandbox whose user unticked
// read:workout on the checkbox consent page (variant checkbox-consent-unticked): the variant gate accepts
// INCOMPLETE with no failure; a run against it says so in its first lines and leaves the checks that need
// read:workout not verified, naming the grant, while the others pass; npm run login says so and stores the
// grant's real scope, from which the next run's refreshes ask only what it holds. The scope the redirect
// carries counts when the token response states none; a grant's statement names what it lacks and what it
// carries beyond what was asked.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { lackedScope, lackedScopes, narrowedGrant, widerGrant } from '../../src/auth/granted-scope.ts';
import type { TokenStoreData } from '../../src/auth/token-store.ts';
import { UserOAuthClient } from '../../src/auth/user-oauth.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { cli, runProcess, tsx } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { scratchDir } from './scratch.ts';
import { runSuiteAgainst, sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

const LACKS = 'the grant for user A lacks read:workout';
const GREP = 'SCOPE-READ-WORKOUT|SCOPE-READ-CYCLES|OP-LIST-CYCLES|OP-LIST-WORKOUTS|AUTH-CODE-FLOW';

/** The report's not-verified tests, title → reason, and its failed tests. */
function outcomes(report: ConformanceReport) {
  const notVerified = new Map(
    report.tests
      .filter((t) => t.outcome === 'not-verified')
      .map((t) => [t.title, t.skipReason ?? ''] as const),
  );
  return { notVerified, failed: report.tests.filter((t) => t.outcome === 'fail').map((t) => t.title) };
}

test('the variant gate holds checkbox-consent-unticked to INCOMPLETE with no failure', async () => {
  const reports = scratchDir();
  const [command, args] = tsx('src/dev/variants.ts', 'checkbox-consent-unticked');
  const gate = await runProcess(command, args, { CONFORMANCE_REPORTS_DIR: reports }, true);
  console.log(`npm run variants -- checkbox-consent-unticked: ${(gate.durationMs / 1000).toFixed(1)} s`);
  expect(gate.code, gate.output).toBe(0);
  const { variants } = JSON.parse(readFileSync(join(reports, 'variants.json'), 'utf8')) as {
    variants: { ok: boolean; verdict: string; failures: string[]; notVerified: string[] }[];
  };
  const [result] = variants;
  expect(result).toMatchObject({ ok: true, verdict: 'incomplete', failures: [] });
  expect(result?.notVerified).toEqual(expect.arrayContaining(['SCOPE-READ-WORKOUT', 'OP-LIST-WORKOUTS']));
  for (const verified of ['OP-LIST-CYCLES', 'SCOPE-READ-CYCLES', 'SCH-CYCLE', 'AUTH-CODE-FLOW'])
    expect(result?.notVerified).not.toContain(verified);
});

test.describe('a target whose user unticked read:workout', () => {
  let sandbox: RunningSandbox;
  test.beforeAll(async () => {
    sandbox = await start({ variants: ['checkbox-consent-unticked'] });
  });
  test.afterAll(async () => sandbox.close());

  test('the run says so first, and the checks that need read:workout are not verified, naming the grant', async () => {
    const run = await runSuiteAgainst(sandbox, { CONFORMANCE_GREP: GREP, CONFORMANCE_ALLOW_INCOMPLETE: '1' });
    const firstLines = run.output.slice(0, run.output.indexOf('Running '));
    expect(firstLines).toContain(`Sign-in: ${LACKS}`);
    expect(firstLines).toContain('Sign-in: the grant for user B lacks read:workout');
    const { notVerified, failed } = outcomes(run.report);
    expect(failed).toEqual([]);
    expect(run.report.verdict).toBe('incomplete');
    const workout = [...notVerified].filter(([title]) => /read:workout|workout \(listWorkouts\)/.test(title));
    expect(workout.length).toBeGreaterThanOrEqual(3);
    for (const [title, reason] of workout) expect(reason, title).toContain(LACKS);
    // The others are judged: the refusal of a token without read:cycles, the cycles, the code flow.
    for (const requirement of ['SCOPE-READ-CYCLES', 'OP-LIST-CYCLES', 'AUTH-CODE-FLOW'])
      expect(run.report.requirements.find((r) => r.id === requirement)?.status, requirement).toBe('pass');
  });

  test('npm run login says so and keeps the real scope; the next run refreshes within it', async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json');
    const env = { ...sandboxTargetEnv(sandbox, scratchDir()), CONFORMANCE_TOKEN_STORE: store };
    const [command, args] = cli('login');
    const login = await runProcess(command, args, env, true);
    expect(login.code, login.output).toBe(0);
    expect(login.output).toContain(`Sign-in: ${LACKS}`);
    const data = JSON.parse(readFileSync(store, 'utf8')) as TokenStoreData;
    for (const grant of Object.values(data.grants)) {
      expect(grant.scopes).toContain('read:cycles');
      expect(grant.scopes).not.toContain('read:workout');
    }
    const run = await runSuiteAgainst(sandbox, {
      CONFORMANCE_GREP: GREP,
      CONFORMANCE_TOKEN_STORE: store,
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    });
    const { notVerified, failed } = outcomes(run.report);
    expect(failed).toEqual([]);
    expect([...notVerified.values()].some((reason) => reason.includes(LACKS))).toBe(true);
    expect(run.report.requirements.find((r) => r.id === 'OP-LIST-CYCLES')?.status).toBe('pass');
  });
});

/** A stand-in authorization server: its redirect carries `redirectScope`, its token response `tokenScope`. */
async function authorizationServer(redirectScope: string, tokenScope?: string) {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    request.resume();
    request.on('end', () => {
      if (url.pathname === '/oauth/oauth2/auth') {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.search = new URLSearchParams({
          code: 'the-code',
          state: url.searchParams.get('state') ?? '',
          scope: redirectScope,
        }).toString();
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ access_token: 'an-access-token', token_type: 'bearer', scope: tokenScope }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

test("the redirect's scope counts when the token response states none; the token response's wins", async () => {
  const transport = nodeTransport();
  try {
    for (const [tokenScope, expected] of [
      [undefined, { grantedScope: 'read:cycles,read:sleep', scopeStatedBy: 'redirect' }],
      ['read:cycles', { grantedScope: 'read:cycles' }],
    ] as const) {
      const server = await authorizationServer('read:cycles,read:sleep', tokenScope);
      try {
        const client = new UserOAuthClient(
          standaloneClient(transport, { baseUrl: server.origin }),
          server.origin,
          {
            clientId: 'c',
            clientSecret: 's',
            redirectUri: `${server.origin}/cb`,
            username: 'u',
            password: 'p',
          },
        );
        const token = await client.authorize('read:cycles read:sleep read:workout');
        expect(token).toMatchObject(expected);
        expect(narrowedGrant(token, 'A')).toMatch(
          /^the grant for user A lacks (read:sleep, )?read:workout: /,
        );
      } finally {
        await server.close();
      }
    }
  } finally {
    transport.dispose();
  }
});

test("a grant's statement: the scopes asked for it lacks, and the read scopes it carries beyond them", () => {
  const allButCycles = 'read:profile read:sleep';
  // Asked for every scope but read:cycles (a refusal check), stated with read:cycles too: wider than asked.
  const wider = { accessToken: 't', scopes: allButCycles, grantedScope: `${allButCycles} read:cycles` };
  expect(widerGrant(wider, 'A')).toMatch(
    /^the grant for user A is wider than asked: it carries read:cycles, which its token was asked without/,
  );
  expect(lackedScope(wider, 'A', 'read:cycles')).toBeUndefined();
  // Asked for read:sleep and stated without it.
  expect(
    lackedScope({ accessToken: 't', scopes: allButCycles, grantedScope: 'read:profile' }, 'B', 'read:sleep'),
  ).toBe(
    'the grant for user B lacks read:sleep (asked for "read:profile read:sleep"; the token response\'s scope "read:profile")',
  );
  // Stated as empty: it lacks every scope asked for, and carries none beyond them.
  const empty = { accessToken: 't', scopes: allButCycles, grantedScope: '' };
  expect(lackedScopes(empty)).toEqual(['read:profile', 'read:sleep']);
  expect(widerGrant(empty, 'A')).toBeUndefined();
  // No scope stated: the scope asked for (RFC 6749 §5.1); a scope beyond the read scopes is no wider grant.
  expect(lackedScope({ accessToken: 't', scopes: allButCycles }, 'A', 'read:sleep')).toBeUndefined();
  expect(
    widerGrant({ accessToken: 't', scopes: 'read:sleep', grantedScope: 'read:sleep offline' }, 'A'),
  ).toBeUndefined();
});
