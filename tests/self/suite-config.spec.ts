// The suite's configuration: every problem is reported by variable name before any request is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConfigError, loadConfig, normaliseScopes } from '../../src/config/config.ts';
import { scratchDir } from './scratch.ts';

const login = {
  CONFORMANCE_CLIENT_ID: 'client',
  CONFORMANCE_CLIENT_SECRET: 'client-secret',
  CONFORMANCE_REDIRECT_URI: 'http://127.0.0.1/cb',
  CONFORMANCE_USER: 'ada',
  CONFORMANCE_PASSWORD: 'pw-ada',
};
const remote = { CONFORMANCE_BASE_URL: 'https://api.example.test/developer', ...login };

const problems: [string, Record<string, string>, RegExp][] = [
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
    { ...remote, CONFORMANCE_PASSWORD: '' },
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
];

for (const [title, env, message] of problems) {
  test(`config error: ${title}`, () => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
}

test('a remote target with a login: defaults and capabilities', () => {
  const config = loadConfig(remote);
  expect(config).toMatchObject({
    target: 'remote',
    authUrl: 'https://api.example.test',
    profile: 'ci-gate',
    environment: 'non-production',
    requestBudget: 60,
  });
  expect([...config.capabilities].sort()).toEqual(['real-auth', 'scopes', 'stateful', 'user-login']);
  expect(config.insufficientScopeStatuses).toEqual([401]);
});

test('pre-issued tokens are keyed by normalised scope set; 403 may be accepted', () => {
  const config = loadConfig({
    CONFORMANCE_BASE_URL: remote.CONFORMANCE_BASE_URL,
    CONFORMANCE_USER_TOKENS: JSON.stringify({ 'read:sleep  read:cycles': 't1' }),
    CONFORMANCE_ACCEPT_403: '1',
  });
  expect(config.userTokens).toEqual({ [normaliseScopes(['read:cycles', 'read:sleep'])]: 't1' });
  expect(config.insufficientScopeStatuses).toEqual([401, 403]);
  expect(config.capabilities.has('user-login')).toBe(false);
});

test('the Prism target has no stateful or auth capabilities', () => {
  const config = loadConfig({ CONFORMANCE_TARGET: 'prism', CONFORMANCE_BASE_URL: 'http://127.0.0.1:4010' });
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
  const config = loadConfig({ CONFORMANCE_ENV_FILE: file, CONFORMANCE_PROFILE: 'certification' });
  expect(config.baseUrl).toBe(remote.CONFORMANCE_BASE_URL);
  expect(config.profile).toBe('certification');
});
