// The profile guards, end to end: the suite runs against a sandbox started here, and the sandbox counts,
// server-side, what the run sent; a narrowed run is never a PASS, nor a certificate. Also: no configured
// secret reaches reports/.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import { readResult } from '../../src/result/validate.ts';
import { EXIT_CODES } from '../../src/runner/report/exit-statuses.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';
import { runSuiteAgainst, sandboxEnv, sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

/** Routes of the service's API (the smoke budget counts them), not of the sign-in. */
const isApi = (route: string) => route.split(' ')[1]?.startsWith('/developer/') === true;
/** What the sandbox served of the service's API. */
const apiServed = (served: { by_route: Record<string, number> }) =>
  Object.entries(served.by_route)
    .filter(([route]) => isApi(route))
    .reduce((sum, [, count]) => sum + count, 0);

test('smoke sends no write and stays within its budget, even when --grep asks for writes', async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const { report, served } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_PROFILE: 'smoke',
      CONFORMANCE_REQUEST_BUDGET: '60',
      CONFORMANCE_GREP: '@smoke|@write|@destructive|@nonprod|@ratelimit',
    });
    // The API's writes; a sign-in's posts are no write of data, and the partner token request neither.
    const writes = Object.keys(served.by_route).filter(
      (route) => isApi(route) && !route.startsWith('GET ') && route !== 'POST /developer/v2/partner/token',
    );
    expect(writes, 'writes the smoke run sent').toEqual([]);
    expect(apiServed(served), "requests to the service's API the sandbox served").toBeLessThanOrEqual(60);
    expect(report.requestsSent).toBe(served.total);
    expect(report.totals.passed, 'smoke tests that ran').toBeGreaterThan(0);
    expect(report.totals.failed).toBe(0);
    const ranWrites = report.tests.filter(
      (t) =>
        t.status !== 'skipped' &&
        t.tags.some((tag) => ['@write', '@destructive', '@nonprod', '@ratelimit'].includes(tag)),
    );
    expect(ranWrites.map((t) => t.title)).toEqual([]);
  } finally {
    await sandbox.close();
  }
});

test('smoke against a production deployment with login and consent pages and no stored grant: 0 failures within its budget, its sign-ins finished', async () => {
  // Sign-in pages of their own (an e-mail page posting to /identity/signin/email, a password page, a consent
  // page), in production: no stored grant, so the preflight and the checks sign in.
  const sandbox = await startSandbox({ port: 0, environment: 'production', loginPage: 'identifier-first' });
  try {
    const { code, report, served, output, reports } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_PROFILE: 'smoke',
      CONFORMANCE_ENVIRONMENT: 'production',
    });
    expect(code, output.slice(-3000)).toBe(0);
    expect(report.verdict).toBe('pass');
    expect(report.totals.failed).toBe(0);
    // Every sign-in started was finished: each e-mail page posted was followed by its password and its
    // consent, both posted to the authorization endpoint.
    const started = served.by_route['POST /identity/signin/email'] ?? 0;
    expect(started).toBeGreaterThan(0);
    expect(served.by_route['POST /oauth/oauth2/auth']).toBe(2 * started);
    const api = apiServed(served);
    expect(api, "requests to the service's API").toBeLessThanOrEqual(60);
    expect(report.requests?.byCredential.other, "the sign-ins' steps, counted apart").toBe(
      served.total - api,
    );
    expect(readFileSync(join(reports, 'conformance.md'), 'utf8')).toMatch(
      new RegExp(`Request budget: ${api} of 60 requests to the service's API spent`),
    );
  } finally {
    await sandbox.close();
  }
});

test('a production environment never calls test-data generation except the 404 check', async () => {
  const sandbox = await startSandbox({ port: 0, environment: 'production' });
  try {
    const { report, served } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_ENVIRONMENT: 'production',
      CONFORMANCE_GREP: '@partner|@nonprod',
    });
    const calls = Object.entries(served.by_route).filter(([route]) => route.includes('add-test-data'));
    expect(calls).toEqual([['POST /developer/v2/partner/development/add-test-data', 1]]);
    expect(report.tests.find((t) => t.requirements.includes('TD-PRODUCTION-404'))?.status).toBe('passed');
    expect(report.totals.failed).toBe(0);
  } finally {
    await sandbox.close();
  }
});

/** The suite's command against `sandbox`, its reports in a directory of their own. */
async function runCommandAgainst(sandbox: RunningSandbox, env: NodeJS.ProcessEnv, ...args: string[]) {
  const reports = scratchDir();
  const [command, commandArgs] = cli(...args);
  const { code, output } = await runProcess(
    command,
    commandArgs,
    { ...sandboxTargetEnv(sandbox, reports), CONFORMANCE_WORKERS: '1', ...env },
    true,
  );
  return { code, output, reports, file: join(reports, 'conformance.json') };
}

const readReport = (file: string) => readResult(file);

test('a narrowed certification (its profile from the env file) never exits 0, and verify-report refuses its report', async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const envFile = join(scratchDir(), 'certification.env');
    writeFileSync(envFile, 'CONFORMANCE_PROFILE=certification\n');
    const grep = '@PAG-LIMIT-MAX(?=\\s|$)';
    const run = await runCommandAgainst(
      sandbox,
      { CONFORMANCE_ENV_FILE: envFile, CONFORMANCE_PROFILE: undefined, CONFORMANCE_ALLOW_INCOMPLETE: '1' },
      'run',
      '--',
      '--grep',
      grep,
    );
    const report = readReport(run.file);
    expect(report.profile).toBe('certification');
    expect(report.selection).toEqual([`--grep ${JSON.stringify(grep)}`]);
    expect(report.totals).toMatchObject({ failed: 0 });
    expect(report.requirements.find((r) => r.id === 'PAG-LIMIT-MAX')?.status).toBe('pass');
    // Everything else of the profile is listed as not run; CONFORMANCE_ALLOW_INCOMPLETE=1 does not cover it.
    expect(report.verdict).toBe('incomplete');
    expect(report.incomplete.length).toBeGreaterThan(50);
    expect(report.incomplete.map((r) => r.id)).not.toContain('PAG-LIMIT-MAX');
    expect(run.code, run.output).toBe(EXIT_CODES.incomplete);
    expect(run.output).toContain('Run narrowed to part of the profile: --grep');
    expect(report.digest?.combined).toMatch(/^[0-9a-f]{64}$/);

    const verify = await runProcess(...cli('verify-report', run.file), {}, true);
    expect(verify.code).toBe(1);
    expect(verify.output).toContain('not a certificate: the run was narrowed to part of the profile (--grep');
    // The digest covers the selection: edited out, and the verdict with it, the digest no longer matches.
    writeFileSync(run.file, JSON.stringify({ ...report, selection: [], verdict: 'pass', incomplete: [] }));
    const edited = await runProcess(...cli('verify-report', run.file), {}, true);
    expect(edited.code).toBe(1);
    expect(edited.output).toContain('digest does not match: results');
  } finally {
    await sandbox.close();
  }
});

test('a narrowed ci-gate run (--grep after --) ends INCOMPLETE, exit 3, listing what it did not run', async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const run = await runCommandAgainst(sandbox, {}, 'run', '--', '--grep', '@PAG-LIMIT-DEFAULT');
    const report = readReport(run.file);
    expect(report).toMatchObject({
      profile: 'ci-gate',
      verdict: 'incomplete',
      selection: ['--grep @PAG-LIMIT-DEFAULT'],
    });
    expect(report.totals.failed).toBe(0);
    expect(report.incomplete.find((r) => r.id === 'PAG-NEXT-TOKEN')?.reasons).toEqual([
      'not in this run: the run was narrowed (--grep @PAG-LIMIT-DEFAULT)',
    ]);
    expect(run.code, run.output).toBe(EXIT_CODES.incomplete);
  } finally {
    await sandbox.close();
  }
});

test("a departure from the suite's reading is a warning; strict mode makes it a failure", async () => {
  // lenient-limits serves an empty limit with the default page: the seed's "default 10" allows it.
  const sandbox = await startSandbox({ port: 0, variants: ['lenient-limits'] });
  try {
    // Narrowed to one requirement, the run is INCOMPLETE at best: allowed here, so the status says "not failed".
    const selection = { CONFORMANCE_GREP: '@PAG-LIMIT-TYPE(?=\\s|$)', CONFORMANCE_ALLOW_INCOMPLETE: '1' };
    const lenient = await runSuiteAgainst(sandbox, selection);
    const limitType = lenient.report.requirements.find((r) => r.id === 'PAG-LIMIT-TYPE');
    expect(limitType?.status).toBe('warning');
    expect(limitType?.warnings.map((warning) => warning.message).join('\n')).toContain(
      'an empty limit answered 200, not 400',
    );
    expect(lenient.report.verdict).toBe('incomplete');
    expect(lenient.report.totals.failed).toBe(0);
    expect(lenient.code).toBe(0);
    const strict = await runSuiteAgainst(sandbox, { ...selection, CONFORMANCE_STRICT: '1' });
    expect(strict.report.requirements.find((r) => r.id === 'PAG-LIMIT-TYPE')?.status).toBe('fail');
    expect(strict.report.verdict).toBe('fail');
    expect(strict.code).toBe(1);
  } finally {
    await sandbox.close();
  }
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('no configured secret appears anywhere under reports/, even with failures attached', async () => {
  const sandbox = await startSandbox({
    port: 0,
    faults: [
      'auth-expired-token-accepted',
      'partner-token-wrong-secret-accepted',
      'pagination-default-not-10',
    ],
  });
  try {
    const { report, reports } = await runSuiteAgainst(
      sandbox,
      {
        CONFORMANCE_GREP: '@PAUTH-TOKEN-INVALID-CLIENT|@PAG-LIMIT-DEFAULT|@AUTH-CODE-FLOW',
      },
      true,
    );
    expect(report.totals.failed, 'the faults make tests fail, so exchanges are attached').toBeGreaterThan(0);
    const secrets = Object.entries(sandboxEnv)
      .filter(([name]) => /SECRET|PASSWORD/.test(name))
      .map(([, value]) => value)
      .filter((value): value is string => !!value);
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    const leaks = filesUnder(reports).flatMap((file) => {
      const text = readFileSync(file, 'latin1');
      return secrets
        .filter((secret) => text.includes(secret))
        .map((secret) => `${file}: ${secret.slice(0, 4)}…`);
    });
    expect(leaks).toEqual([]);
  } finally {
    await sandbox.close();
  }
});
