// The suite's configuration: every problem is reported by variable name before any request is sent; a run
// resolves it once into its run manifest, which holds no secret, and which its workers and reporter read.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import { storeExpiries } from '../../src/auth/expired-tokens.ts';
import { BrowserUnavailable } from '../../src/auth/sign-in-errors.ts';
import { chromiumPath, chromiumSetting } from '../../src/config/chromium.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { environmentLayers, type VariableLayer } from '../../src/config/environment.ts';
import {
  manifestJson,
  parseRunManifest,
  RUN_MANIFEST_FILE,
  resolveRun,
  writeRunManifest,
} from '../../src/config/run-manifest.ts';
import { normaliseScopes } from '../../src/config/scope-set.ts';
import { secretsOf } from '../../src/config/secrets.ts';
import { flag, SWITCH_VALUES } from '../../src/config/variable-parsers.ts';
import { type Env, rows, SECTIONS } from '../../src/config/variables.ts';
import { variablesHelp, withVariableTables } from '../../src/config/variables-doc.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';
import { runSuiteAgainst, sandboxEnv } from './suite-against.ts';

const load = (env: Env) => loadConfig(env, storeExpiries);

const login = {
  CONFORMANCE_CLIENT_ID: 'client',
  CONFORMANCE_CLIENT_SECRET: 'client-secret',
  CONFORMANCE_REDIRECT_URI: 'http://127.0.0.1/cb',
  CONFORMANCE_USER: 'ada',
  CONFORMANCE_PASSWORD: 'pw-ada',
};
const remote = { CONFORMANCE_BASE_URL: 'https://api.example.test/developer', ...login };

const problems: [string, Env, RegExp][] = [
  [
    'a remote target needs a base URL',
    { CONFORMANCE_TARGET: 'remote', ...login },
    /CONFORMANCE_BASE_URL is required/,
  ],
  [
    'the base URL must be a URL',
    { ...remote, CONFORMANCE_BASE_URL: 'api.example.test' },
    /CONFORMANCE_BASE_URL must be an absolute URL/,
  ],
  [
    'user credentials or tokens are required',
    { CONFORMANCE_BASE_URL: remote.CONFORMANCE_BASE_URL },
    /CONFORMANCE_CLIENT_ID/,
  ],
  [
    'a partial login names the missing variable',
    { ...remote, CONFORMANCE_PASSWORD: undefined },
    /CONFORMANCE_PASSWORD is required/,
  ],
  [
    'an unknown profile',
    { ...remote, CONFORMANCE_PROFILE: 'nightly' },
    /CONFORMANCE_PROFILE must be one of ci-gate, certification, smoke/,
  ],
  [
    'an unknown environment',
    { ...remote, CONFORMANCE_ENVIRONMENT: 'prod' },
    /CONFORMANCE_ENVIRONMENT must be one of/,
  ],
  [
    'Prism proxy with the Prism mock',
    { CONFORMANCE_TARGET: 'prism', CONFORMANCE_BASE_URL: 'http://127.0.0.1:1', CONFORMANCE_PRISM_PROXY: '1' },
    /CONFORMANCE_PRISM_PROXY/,
  ],
  [
    'partner B without partner A',
    { ...remote, CONFORMANCE_PARTNER_B_CLIENT_ID: 'b', CONFORMANCE_PARTNER_B_CLIENT_SECRET: 'bs' },
    /CONFORMANCE_PARTNER_A_CLIENT_ID is required/,
  ],
  [
    'the same partner twice',
    {
      ...remote,
      CONFORMANCE_PARTNER_A_CLIENT_ID: 'a',
      CONFORMANCE_PARTNER_A_CLIENT_SECRET: 's1',
      CONFORMANCE_PARTNER_B_CLIENT_ID: 'a',
      CONFORMANCE_PARTNER_B_CLIENT_SECRET: 's2',
    },
    /must name a different partner/,
  ],
  [
    'malformed user tokens',
    { CONFORMANCE_BASE_URL: remote.CONFORMANCE_BASE_URL, CONFORMANCE_USER_TOKENS: '{nope' },
    /CONFORMANCE_USER_TOKENS must be JSON/,
  ],
  [
    'a malformed rate limit',
    { ...remote, CONFORMANCE_RATE_LIMIT: 'fast' },
    /CONFORMANCE_RATE_LIMIT must be REQUESTS\/SECONDS/,
  ],
  [
    'a malformed budget',
    { ...remote, CONFORMANCE_REQUEST_BUDGET: '-3' },
    /CONFORMANCE_REQUEST_BUDGET must be a positive integer/,
  ],
  [
    'an env file that does not exist',
    { CONFORMANCE_ENV_FILE: '/nonexistent/conformance.env' },
    /CONFORMANCE_ENV_FILE names a file that does not exist/,
  ],
  [
    'an empty env file name is not "no env file"',
    { ...remote, CONFORMANCE_ENV_FILE: '' },
    /CONFORMANCE_ENV_FILE is set but empty.*\(set in the environment\)$/,
  ],
  [
    'a switch that is neither on nor off',
    { ...remote, CONFORMANCE_ACCEPT_403: 'maybe' },
    /CONFORMANCE_ACCEPT_403 is a switch: 1, true, yes for on, 0, false, no for off; got "maybe"/,
  ],
  [
    "a switch's value no documented set holds",
    { ...remote, CONFORMANCE_PRISM_PROXY: 'on' },
    /CONFORMANCE_PRISM_PROXY is a switch/,
  ],
  // A pipeline's CONFORMANCE_BASE_URL=$UNSET: never the embedded sandbox in place of the server it meant.
  ...(['ci-gate', 'certification', 'smoke'] as const).map((profile): [string, Env, RegExp] => [
    `an empty base URL, profile ${profile}`,
    { ...login, CONFORMANCE_BASE_URL: '', CONFORMANCE_PROFILE: profile },
    /CONFORMANCE_BASE_URL is set but empty: give it a value, or unset it for its default \(none: the run starts the embedded sandbox\)/,
  ]),
  [
    'an empty base URL in production',
    { ...login, CONFORMANCE_BASE_URL: '', CONFORMANCE_ENVIRONMENT: 'production' },
    /CONFORMANCE_BASE_URL is set but empty/,
  ],
];

for (const [title, env, message] of problems) {
  test(`config error: ${title}`, () => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });
}

test('every switch of the table takes the documented values, in any case, and refuses the rest', () => {
  const switches = rows().filter(([, row]) => row.parse === flag);
  expect(switches.map(([name]) => name)).toEqual(
    expect.arrayContaining(['CONFORMANCE_STRICT', 'CONFORMANCE_ACCEPT_403', 'CONFORMANCE_PRISM_PROXY']),
  );
  for (const [name, row] of switches) {
    for (const value of SWITCH_VALUES.on) expect(row.parse(value.toUpperCase(), name), name).toBe(true);
    for (const value of SWITCH_VALUES.off) expect(row.parse(value, name), name).toBe(false);
    for (const value of ['on', 'off', '2', 'y', ' 1'])
      expect(() => row.parse(value, name)).toThrow(ConfigError);
  }
  expect(load({ ...remote, CONFORMANCE_ACCEPT_403: 'true' }).insufficientScopeStatuses).toEqual([401, 403]);
  expect(load({ ...remote, CONFORMANCE_STRICT: 'No' }).strict).toBe(false);
});

test('an empty value in the env file is refused, naming the file and its line', () => {
  const file = envFileOf([...Object.entries(remote).map(([k, v]) => `${k}=${v}`), 'CONFORMANCE_STRICT=']);
  expect(() => load({ CONFORMANCE_ENV_FILE: file })).toThrow(
    new RegExp(`^Configuration error: CONFORMANCE_STRICT is set but empty: .* \\(set in ${file}, line 7\\)$`),
  );
});

test('a remote target with a login: defaults and capabilities', () => {
  const config = load(remote);
  expect(config).toMatchObject({
    target: 'remote',
    authUrl: 'https://api.example.test',
    profile: 'ci-gate',
    environment: 'non-production',
    requestBudget: 60,
  });
  expect([...config.capabilities].sort()).toEqual([
    'rate-limit',
    'real-auth',
    'scopes',
    'stateful',
    'user-login',
  ]);
  expect(config.insufficientScopeStatuses).toEqual([401]);
  expect(config.rateLimit).toBeUndefined();
  expect(config.rateLimitHeaders).toEqual([]);
  expect(config.webhooks).toMatchObject({ waitSeconds: 10, signature: { header: 'Service-Signed' } });
});

test("a remote target with the suite's webhook receiver: its address, the URL the team registered, the wait", () => {
  const config = load({
    ...remote,
    CONFORMANCE_WEBHOOK_LISTEN: '0.0.0.0:8787',
    CONFORMANCE_WEBHOOK_PUBLIC_URL: 'https://hooks.example.test/conformance',
    CONFORMANCE_WEBHOOK_WAIT_S: '20',
  });
  expect(config.webhooks).toMatchObject({
    listen: { host: '0.0.0.0', port: 8787 },
    publicUrl: 'https://hooks.example.test/conformance',
    waitSeconds: 20,
  });
  expect(config.capabilities.has('webhooks')).toBe(true);
  expect(config.capabilities.has('sandbox-admin')).toBe(false);
  expect(
    load({
      ...remote,
      CONFORMANCE_WEBHOOK_LISTEN: '[::1]:9000',
      CONFORMANCE_WEBHOOK_PUBLIC_URL: 'http://x.test/',
    }).webhooks.listen,
  ).toEqual({ host: '::1', port: 9000 });
  expect(() => load({ ...remote, CONFORMANCE_WEBHOOK_LISTEN: '0.0.0.0:8787' })).toThrow(
    /CONFORMANCE_WEBHOOK_PUBLIC_URL is required with CONFORMANCE_WEBHOOK_LISTEN/,
  );
  expect(() =>
    load({
      ...remote,
      CONFORMANCE_WEBHOOK_LISTEN: '8787',
      CONFORMANCE_WEBHOOK_PUBLIC_URL: 'http://x.test/',
    }),
  ).toThrow(/CONFORMANCE_WEBHOOK_LISTEN must be HOST:PORT/);
});

test('pre-issued tokens are keyed by normalised scope set; 403 may be accepted', () => {
  const config = load({
    CONFORMANCE_BASE_URL: remote.CONFORMANCE_BASE_URL,
    CONFORMANCE_USER_TOKENS: JSON.stringify({ 'read:sleep  read:cycles': 't1' }),
    CONFORMANCE_ACCEPT_403: '1',
  });
  expect(config.userTokens).toEqual({ [normaliseScopes(['read:cycles', 'read:sleep'])]: 't1' });
  expect(config.insufficientScopeStatuses).toEqual([401, 403]);
  expect(config.capabilities.has('user-login')).toBe(false);
});

test('the Prism target has no stateful or auth capabilities', () => {
  const config = load({ CONFORMANCE_TARGET: 'prism', CONFORMANCE_BASE_URL: 'http://127.0.0.1:4010' });
  expect(config.capabilities.size).toBe(0);
});

test('an env file supplies variables; the process environment wins over it', () => {
  const file = join(scratchDir(), 'target.env');
  writeFileSync(
    file,
    Object.entries({ ...remote, CONFORMANCE_PROFILE: 'smoke' })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  const config = load({ CONFORMANCE_ENV_FILE: file, CONFORMANCE_PROFILE: 'certification' });
  expect(config.baseUrl).toBe(remote.CONFORMANCE_BASE_URL);
  expect(config.profile).toBe('certification');
});

/** An env file of these lines, as written. */
function envFileOf(lines: string[]): string {
  const file = join(scratchDir(), 'lines.env');
  writeFileSync(file, lines.join('\n'));
  return file;
}

test('CONFORMANCE_CHROMIUM set only in an env file is the Chromium the browser sign-in looks for', async () => {
  const chromium = join(scratchDir(), 'chromium-of-the-env-file');
  const saved = process.env.CONFORMANCE_ENV_FILE;
  // The process environment names the file and nothing else: the value is the file's alone.
  process.env.CONFORMANCE_ENV_FILE = envFileOf([`CONFORMANCE_CHROMIUM=${chromium}`]);
  try {
    expect(process.env.CONFORMANCE_CHROMIUM).toBeUndefined();
    expect(chromiumSetting()).toBe(chromium);
    expect(chromiumPath()).toBeUndefined();
    const signIn = new BrowserSignIn().codeSource(
      { url: 'http://127.0.0.1:9/oauth/oauth2/auth', state: 'state' },
      { username: 'ada', password: 'pw', redirectUri: 'http://127.0.0.1/cb' },
    );
    await expect(signIn).rejects.toBeInstanceOf(BrowserUnavailable);
    await expect(signIn).rejects.toThrow(`there is none at ${chromium}`);
    writeFileSync(chromium, '');
    expect(chromiumPath()).toBe(chromium);
  } finally {
    rmSync(chromium, { force: true });
    if (saved === undefined) delete process.env.CONFORMANCE_ENV_FILE;
    else process.env.CONFORMANCE_ENV_FILE = saved;
  }
});

test('an env file line that is not KEY=value is a configuration error naming the file and line', () => {
  const file = envFileOf([
    'FOO',
    'CONFORMANCE_PROFILE=smoke',
    ...Object.entries(remote).map(([k, v]) => `${k}=${v}`),
  ]);
  expect(() => load({ CONFORMANCE_ENV_FILE: file })).toThrow(ConfigError);
  expect(() => load({ CONFORMANCE_ENV_FILE: file })).toThrow(
    `Configuration error: ${file}:1 is not KEY=value, a # comment or a blank line`,
  );
});

test('an unterminated quote is a configuration error naming its line, not a value that swallows the next', () => {
  const file = envFileOf([
    '# the client',
    ...Object.entries(remote).map(([k, v]) => `${k}=${v}`),
    'CONFORMANCE_CLIENT_SECRET="abc',
    'CONFORMANCE_PROFILE=smoke',
    'CONFORMANCE_USER_B="ben"',
  ]);
  expect(() => load({ CONFORMANCE_ENV_FILE: file })).toThrow(
    `Configuration error: ${file}:8 opens a quote it does not close (CONFORMANCE_CLIENT_SECRET)`,
  );
});

test('an unknown CONFORMANCE_* name is a configuration error suggesting the nearest known one', () => {
  expect(() => load({ ...remote, CONFORMANCE_PROFIL: 'smoke' })).toThrow(
    'Configuration error: CONFORMANCE_PROFIL (the environment) is not a variable of the suite: did you mean CONFORMANCE_PROFILE?',
  );
  const file = envFileOf([
    ...Object.entries(remote).map(([k, v]) => `${k}=${v}`),
    'CONFORMANCE_PROFIL=smoke',
  ]);
  expect(() => load({ CONFORMANCE_ENV_FILE: file })).toThrow(
    `Configuration error: CONFORMANCE_PROFIL (${file}:7) is not a variable of the suite: did you mean CONFORMANCE_PROFILE?`,
  );
});

test("partner A's signing secret under its consistent name or its older one; a near miss suggests the same partner's", () => {
  expect(load({ ...remote, CONFORMANCE_PARTNER_A_SIGNING_SECRET: 'new-name' }).signingSecret).toBe(
    'new-name',
  );
  expect(load({ ...remote, CONFORMANCE_PARTNER_SIGNING_SECRET: 'old-name' }).signingSecret).toBe('old-name');
  expect(() => load({ ...remote, CONFORMANCE_PARTNER_SIGNING_SECRET: '' })).toThrow(
    /CONFORMANCE_PARTNER_SIGNING_SECRET is set but empty/,
  );
  expect(() => load({ ...remote, CONFORMANCE_PARTNER_A_SIGNING_SECRT: 'x' })).toThrow(
    'did you mean CONFORMANCE_PARTNER_A_SIGNING_SECRET?',
  );
  expect(() => load({ ...remote, CONFORMANCE_PARTNER_B_SIGNING_SECRT: 'x' })).toThrow(
    'did you mean CONFORMANCE_PARTNER_B_SIGNING_SECRET?',
  );
});

test('env files read as dotenv reads them: quotes, comments, export', () => {
  const file = envFileOf([
    ...Object.entries(remote).map(([k, v]) => `export ${k}=${v}`),
    "CONFORMANCE_PROFILE='smoke' # read-only",
    'CONFORMANCE_PARTNER_A_CLIENT_ID="a # not a comment"',
    'CONFORMANCE_PARTNER_A_CLIENT_SECRET=s',
    '',
  ]);
  const config = load({ CONFORMANCE_ENV_FILE: file });
  expect(config.profile).toBe('smoke');
  expect(config.partnerA?.clientId).toBe('a # not a comment');
});

/** A file of variables, as CONFORMANCE_ENV_FILE names one. */
function envFile(variables: Record<string, string>): string {
  const file = join(scratchDir(), 'target.env');
  writeFileSync(
    file,
    Object.entries(variables)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n'),
  );
  return file;
}

const facts = {
  startedAt: '2026-01-01T00:00:00.000Z',
  requestLog: '/dev/null',
  unansweredLog: '/dev/null',
  coordinatorUrl: 'http://127.0.0.1:9',
};

test('the run manifest refers to each secret by its variable and file, and reads it back from there', () => {
  const file = envFile({
    ...remote,
    CONFORMANCE_USER_TOKENS: JSON.stringify({ 'read:sleep  read:cycles': 'token-of-two-scopes' }),
    CONFORMANCE_PARTNER_A_CLIENT_ID: 'partner-a',
    CONFORMANCE_PARTNER_A_CLIENT_SECRET: 'partner-a-secret',
  });
  const layers = environmentLayers({ CONFORMANCE_ENV_FILE: file });
  const manifest = resolveRun(layers, facts, storeExpiries);
  const json = manifestJson(manifest, layers);
  expect(secretsOf(manifest.config)).toHaveLength(4);
  for (const secret of secretsOf(manifest.config)) expect(json).not.toContain(secret);
  const { config } = JSON.parse(json);
  expect(config.userLogin.password).toEqual({ secret: 'CONFORMANCE_PASSWORD', file });
  expect(config.partnerA.clientSecret).toEqual({ secret: 'CONFORMANCE_PARTNER_A_CLIENT_SECRET', file });
  expect(config.userTokens).toEqual({
    'read:cycles read:sleep': { secret: 'CONFORMANCE_USER_TOKENS', file, key: 'read:sleep  read:cycles' },
  });
  expect(parseRunManifest(json)).toEqual(manifest);
});

test('a secret gone from where the run read it is a configuration error; one only setup knew is never written', () => {
  const environment = environmentLayers({ ...remote, CONFORMANCE_PASSWORD: 'pw-not-in-this-process' });
  const json = manifestJson(resolveRun(environment, facts, storeExpiries), environment);
  expect(JSON.parse(json).config.userLogin.password).toEqual({ secret: 'CONFORMANCE_PASSWORD' });
  expect(() => parseRunManifest(json)).toThrow(/CONFORMANCE_\w+ is no longer set in the environment/);
  const computed: VariableLayer[] = [{ variables: remote, computed: true }];
  expect(() => manifestJson(resolveRun(computed, facts, storeExpiries), computed)).toThrow(
    /no variable the workers can read/,
  );
});

test('the run manifest is written once: a second write fails', () => {
  const layers = environmentLayers(remote);
  const path = join(scratchDir(), RUN_MANIFEST_FILE);
  const manifest = resolveRun(layers, facts, storeExpiries);
  writeRunManifest(path, manifest, layers);
  expect(() => writeRunManifest(path, { ...manifest, startedAt: new Date().toISOString() }, layers)).toThrow(
    /EEXIST/,
  );
  expect(JSON.parse(readFileSync(path, 'utf8')).startedAt).toBe(facts.startedAt);
});

test('target, credentials, profile and selection set only in the env file reach the workers and the report; the manifest holds no secret', async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const sandbox = await startSandbox({ port: 0 });
  try {
    const variables = {
      ...sandboxEnv,
      CONFORMANCE_TARGET: 'sandbox',
      CONFORMANCE_BASE_URL: sandbox.baseUrl,
      CONFORMANCE_AUTH_URL: sandbox.authUrl,
      CONFORMANCE_PROFILE: 'certification',
      CONFORMANCE_GREP: '@PAG-LIMIT-MAX(?=\\s|$)|@ratelimit',
    } as Record<string, string>;
    const file = envFile(variables);
    // The process environment sets none of them.
    const unset = Object.fromEntries(Object.keys(variables).map((name) => [name, undefined]));
    const { report, served, reports } = await runSuiteAgainst(sandbox, {
      ...unset,
      CONFORMANCE_ENV_FILE: file,
    });

    // The Playwright configuration selected the file's tests; the workers ran them against its target...
    const limitMax = report.tests.filter((t) => t.requirements.includes('PAG-LIMIT-MAX'));
    const burst = report.tests.filter((t) => t.requirements.includes('RL-429'));
    expect(limitMax.length).toBeGreaterThan(0);
    expect(report.tests).toHaveLength(limitMax.length + burst.length);
    expect(limitMax.map((t) => t.outcome)).toEqual(limitMax.map(() => 'pass'));
    expect(served.total, 'requests the sandbox served').toBe(report.requestsSent);
    expect(served.total).toBeGreaterThan(0);
    // ...under its profile, which refuses the burst in the worker...
    expect(burst.map((t) => t.outcome)).toEqual(['omitted']);
    expect(burst[0]?.skipReason).toContain('certification does not load a shared environment');
    // ...and the report names both, and the selection, which the digest covers: no certificate.
    expect(report).toMatchObject({ profile: 'certification', target: 'sandbox', baseUrl: sandbox.baseUrl });
    expect(report.selection).toEqual([`CONFORMANCE_GREP=${JSON.stringify(variables.CONFORMANCE_GREP)}`]);
    expect(report.digest?.combined).toMatch(/^[0-9a-f]{64}$/);
    expect(report.verdict).toBe('incomplete');

    const text = readFileSync(join(reports, RUN_MANIFEST_FILE), 'utf8');
    const secrets = Object.entries(sandboxEnv)
      .filter(([name]) => /SECRET|PASSWORD/.test(name))
      .map(([, value]) => value as string);
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
    const manifest = JSON.parse(text);
    expect(manifest.startedAt, 'the report read the manifest global setup wrote').toBe(report.startedAt);
    expect(manifest.config).toMatchObject({ profile: 'certification', baseUrl: sandbox.baseUrl });
    expect(manifest.config.userLogin.clientSecret).toEqual({ secret: 'CONFORMANCE_CLIENT_SECRET', file });
  } finally {
    await sandbox.close();
  }
});

test("docs/variables.md's tables of variables are the table's (npm run docs:tables writes them)", () => {
  const doc = readFileSync(new URL('../../docs/variables.md', import.meta.url), 'utf8');
  for (const section of Object.keys(SECTIONS)) expect(doc).toContain(`<!-- variables:begin ${section} -->`);
  expect(withVariableTables(doc)).toBe(doc);
  const help = variablesHelp();
  for (const [name] of rows()) expect(doc, name).toContain(`| \`${name}\` |`);
  for (const [name] of rows()) expect(help, name).toContain(`  ${name}`);
});
