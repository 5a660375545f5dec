// The authorization request of the user flow (RFC 6749 §4.1.1): {auth_url}/oauth/oauth2/auth with the
// client, redirect URI, scope and a random state, plus PKCE S256 (RFC 7636; the run's default, which a
// server that does not support it ignores, §4.5).
import { createHash, randomBytes } from 'node:crypto';
import type { UserLogin } from '../config/suite-config.ts';
import type { ConfiguredUser } from './sign-in-errors.ts';
import type { SignInJournal } from './sign-in-journal.ts';

export interface AuthorizationRequest {
  url: string;
  state: string;
  /** The PKCE code_verifier the token request must send (when PKCE is used). */
  codeVerifier?: string;
}

export function authorizationRequest(
  authUrl: string,
  login: Pick<UserLogin, 'clientId' | 'redirectUri'>,
  scopes: string,
  pkce: boolean,
): AuthorizationRequest {
  const state = randomBytes(12).toString('hex');
  const url = new URL(`${authUrl}/oauth/oauth2/auth`);
  url.search = new URLSearchParams({
    client_id: login.clientId,
    redirect_uri: login.redirectUri,
    response_type: 'code',
    scope: scopes,
    state,
  }).toString();
  if (!pkce) return { url: url.toString(), state };
  const codeVerifier = randomBytes(32).toString('base64url');
  url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return { url: url.toString(), state, codeVerifier };
}

/** What a redirect to the redirect URI gave: the code, and the scope granted when the server said it there. */
export interface AuthorizationCode {
  code: string;
  scope?: string;
}

/** A redirect to the redirect URI without a code: why, and the `error` code it carried (RFC 6749 §4.1.2.1). */
export interface AuthorizationError {
  error: string;
  errorCode?: string;
}

/** The code of a redirect to `redirectUri`, checked against the state; undefined for any other URL. */
export function codeFromRedirect(
  address: string,
  redirectUri: string,
  state: string,
): AuthorizationCode | AuthorizationError | undefined {
  const url = new URL(address);
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) return undefined;
  if (url.searchParams.get('state') !== state)
    return { error: 'the redirect carried a different state (or none)' };
  const code = url.searchParams.get('code');
  const scope = url.searchParams.get('scope');
  if (code) return scope ? { code, scope } : { code };
  const error = url.searchParams.get('error') ?? undefined;
  return {
    error:
      `the redirect carried ${error ?? 'no code'}: ${url.searchParams.get('error_description') ?? ''}`.trim(),
    ...(error === undefined ? {} : { errorCode: error }),
  };
}

/** The user a sign-in fills in, and where the authorization server sends the code. */
export interface SignInAccount {
  username: string;
  password: string;
  redirectUri: string;
  /** Which configured user this is, for the message when the target refuses the password (default A). */
  user?: ConfiguredUser;
}

/**
 * A way to sign a user in: returns the authorization code the redirect carried (checked against the state).
 * The journal tells which steps worked earlier (a 4xx there is the server's); a sign-in that ends with a code
 * records its own steps there. Without one, the sign-in knows of no other.
 */
export type CodeSource = (
  request: AuthorizationRequest,
  account: SignInAccount,
  journal?: SignInJournal,
) => Promise<AuthorizationCode>;
