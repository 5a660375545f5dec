// Helpers of the sandbox self-tests: start an in-process sandbox, run the OAuth authorization code flow
// over real HTTP, and call the API.

import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import { loadSandboxCredentials } from '../../sandbox/credentials.ts';
import { READ_SCOPES } from '../../sandbox/oauth/scopes.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import type { UserLogin } from '../../src/config/suite-config.ts';

export const credentials = loadSandboxCredentials();
export const ALL_SCOPES = [...READ_SCOPES, 'offline'];
export type UserKey = 'A' | 'B';

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

/** A fixed clock that tests can move. */
export class TestClock {
  constructor(public ms = Date.parse('2026-03-15T12:00:00Z')) {}
  readonly now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export async function start(options: SandboxInput = {}): Promise<RunningSandbox> {
  return startSandbox(options);
}

export function redirectUriFor(sandbox: RunningSandbox): string {
  return `${sandbox.authUrl}/callback`;
}

/** The sign-in of sandbox user A (or B) through the sandbox's OAuth client, as the suite is configured. */
export function userLoginFor(sandbox: RunningSandbox, user: UserKey = 'A', password?: string): UserLogin {
  const account = credentials.users[user === 'B' ? 1 : 0] ?? { username: '', password: '' };
  return {
    clientId: credentials.client.clientId,
    clientSecret: credentials.client.clientSecret,
    redirectUri: redirectUriFor(sandbox),
    username: account.username,
    password: password ?? account.password,
  };
}

export interface AuthorizeOptions {
  user?: UserKey;
  scopes?: readonly string[];
  state?: string;
  /** A PKCE S256 code challenge (RFC 7636) the authorization request carries. */
  codeChallenge?: string;
}

/** The fields of an authorization request of the sandbox client (every scope, a fixed state by default). */
export const authorizationFields = (sandbox: RunningSandbox, options: AuthorizeOptions = {}) => ({
  client_id: credentials.client.clientId,
  redirect_uri: redirectUriFor(sandbox),
  response_type: 'code',
  scope: (options.scopes ?? ALL_SCOPES).join(' '),
  state: options.state ?? 'state-12345678',
  ...(options.codeChallenge ? { code_challenge: options.codeChallenge, code_challenge_method: 'S256' } : {}),
});

/** GET the form, POST the login, and return the Location of the redirect to the redirect URI. */
export async function authorizationRedirect(
  sandbox: RunningSandbox,
  options: AuthorizeOptions = {},
): Promise<string> {
  const user = credentials.users[options.user === 'B' ? 1 : 0];
  const fields = authorizationFields(sandbox, options);
  const form = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth?${new URLSearchParams(fields)}`);
  if (form.status !== 200) throw new Error(`authorization form answered ${form.status}`);
  const submitted = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({
      ...fields,
      username: user.username,
      password: user.password,
      action: 'approve',
    }),
  });
  const location = submitted.headers.get('location');
  if (submitted.status !== 302 || !location) throw new Error(`login answered ${submitted.status}`);
  return location;
}

/** The code of the authorization redirect (see authorizationRedirect). */
export async function authorizationCode(
  sandbox: RunningSandbox,
  options: AuthorizeOptions = {},
): Promise<string> {
  const location = await authorizationRedirect(sandbox, options);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export async function tokenRequest(sandbox: RunningSandbox, fields: Record<string, string>, basic = false) {
  const { clientId, clientSecret } = credentials.client;
  const headers: Record<string, string> = basic
    ? { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` }
    : {};
  const body = new URLSearchParams(
    basic ? fields : { client_id: clientId, client_secret: clientSecret, ...fields },
  );
  return fetch(`${sandbox.authUrl}/oauth/oauth2/token`, { method: 'POST', headers, body });
}

/**
 * The whole authorization code flow; `extra` goes into the token request (e.g. sandbox_expires_in), `basic`
 * sends the client credentials by HTTP Basic instead of in the form body.
 */
export async function login(
  sandbox: RunningSandbox,
  options: AuthorizeOptions & { extra?: Record<string, string>; basic?: boolean } = {},
): Promise<Tokens> {
  const code = await authorizationCode(sandbox, options);
  const fields = { grant_type: 'authorization_code', code, redirect_uri: redirectUriFor(sandbox) };
  const response = await tokenRequest(sandbox, { ...fields, ...options.extra }, options.basic);
  if (response.status !== 200)
    throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Tokens;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience, bodies are asserted field by field
  body: any;
}

/** A request to {base_url}; `token` undefined sends no Authorization header. */
export async function api(
  sandbox: RunningSandbox,
  path: string,
  token: string | undefined,
  init: RequestInit = {},
): Promise<ApiResponse> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(`${sandbox.baseUrl}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: jsonOrUndefined(text) };
}

/** A body's JSON; undefined when the body is empty or not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The rate-limit headers of a response (X-RateLimit-*, the IETF fields, Retry-After), by lower-case name. */
export const rateLimitHeadersOf = (response: ApiResponse): Record<string, string> =>
  Object.fromEntries([...response.headers].filter(([name]) => /ratelimit|^retry-after$/.test(name)));

/** Follows next_token to the end; returns every record in order. */
export async function collectAll(
  sandbox: RunningSandbox,
  path: string,
  token: string,
  query: Record<string, string> = {},
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let nextToken: string | undefined;
  for (let pages = 0; pages < 500; pages += 1) {
    const params = new URLSearchParams({ limit: '25', ...query, ...(nextToken ? { nextToken } : {}) });
    const response = await api(sandbox, `${path}?${params}`, token);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${response.text}`);
    records.push(...response.body.records);
    nextToken = response.body.next_token;
    if (!nextToken) return records;
  }
  throw new Error('too many pages');
}

export const collections = {
  cycle: '/v2/cycle',
  recovery: '/v2/recovery',
  sleep: '/v2/activity/sleep',
  workout: '/v2/activity/workout',
} as const;
