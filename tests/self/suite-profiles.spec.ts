// Profiles are enforced in code: what a profile forbids cannot run, whatever --grep asks for.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { PROFILE_NAMES, ProfileViolation, refusal, requestGuard, Tags } from '../../src/config/profiles.ts';
import type { Environment, Profile } from '../../src/config/suite-config.ts';

const config = (profile: Profile, environment: Environment = 'non-production') => ({ profile, environment });

test('smoke runs only @smoke tests, and never one that writes, revokes, generates data or bursts', () => {
  expect(refusal(config('smoke'), ['@OP-LIST-CYCLES', Tags.smoke])).toBeUndefined();
  expect(refusal(config('smoke'), ['@OP-LIST-CYCLES'])).toMatch(/not part of the smoke profile/);
  for (const tag of [Tags.write, Tags.destructive, Tags.nonProduction, Tags.rateLimit, Tags.property]) {
    expect(refusal(config('smoke'), [Tags.smoke, tag]), tag).toBeDefined();
  }
});

test('ci-gate runs everything; certification does not burst a shared environment', () => {
  for (const tag of [Tags.write, Tags.destructive, Tags.nonProduction, Tags.rateLimit, Tags.property]) {
    expect(refusal(config('ci-gate'), [tag])).toBeUndefined();
  }
  expect(refusal(config('certification'), [Tags.rateLimit])).toMatch(/429/);
  expect(refusal(config('certification'), [Tags.write, Tags.partner])).toBeUndefined();
});

test('production: non-production tests do not run, except the production check', () => {
  expect(refusal(config('ci-gate', 'production'), [Tags.nonProduction])).toMatch(/production/);
  expect(
    refusal(config('ci-gate', 'production'), [Tags.nonProduction, Tags.productionCheck]),
  ).toBeUndefined();
});

const url = (path: string) => new URL(`https://api.example.test/developer${path}`);

test("the HTTP guard refuses every write in smoke, but lets token requests and the sign-in's steps through", () => {
  const guard = requestGuard('smoke', 'production', [Tags.smoke]);
  const signInStep = (path: string) =>
    guard('POST', new URL(`https://login.example.test${path}`), undefined, true);
  expect(() => guard('GET', url('/v2/cycle'))).not.toThrow();
  expect(() => guard('POST', url('/v2/partner/token'))).not.toThrow();
  // The user sign-in's steps, wherever its forms post: the login and consent posts, the token request.
  for (const path of [
    '/login',
    '/consent',
    '/identity/signin/email',
    '/oauth/oauth2/auth',
    '/oauth/oauth2/token',
  ])
    expect(() => signInStep(path), path).not.toThrow();
  expect(() => guard('POST', new URL('https://login.example.test/login'))).toThrow(ProfileViolation);
  for (const [method, path] of [
    ['DELETE', '/v2/user/access'],
    ['PATCH', '/v2/partner/requisition/x/status'],
    ['POST', '/v2/partner/service-request/x/results'],
    ['POST', '/v2/partner/development/add-test-data'],
  ] as const) {
    expect(() => guard(method, url(path)), `${method} ${path}`).toThrow(ProfileViolation);
  }
});

test('in production the HTTP guard refuses test-data generation except for the production check', () => {
  expect(() =>
    requestGuard('ci-gate', 'production', [Tags.nonProduction])(
      'POST',
      url('/v2/partner/development/add-test-data'),
    ),
  ).toThrow(ProfileViolation);
  expect(() =>
    requestGuard('ci-gate', 'production', [Tags.productionCheck])(
      'POST',
      url('/v2/partner/development/add-test-data'),
    ),
  ).not.toThrow();
  expect(() =>
    requestGuard('ci-gate', 'non-production', [])('POST', url('/v2/partner/development/add-test-data')),
  ).not.toThrow();
});

test("no code outside the profile table compares a profile's name: every call site reads its row", () => {
  const names = PROFILE_NAMES.join('|');
  const comparison = new RegExp(`[!=]==?\\s*['"](?:${names})['"]|['"](?:${names})['"]\\s*[!=]==?`);
  const files = [
    'playwright.config.ts',
    ...readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => join('src', name)),
  ].filter((file) => file !== join('src', 'config', 'profiles.ts'));
  const compared = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (comparison.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(compared).toEqual([]);
});
