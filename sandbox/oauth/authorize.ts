// Validation of an authorization request (RFC 6749 §4.1.1; PKCE, RFC 7636 §4.3) at {auth_url}/oauth/oauth2/auth,
// shared by the form (GET) and its submission (POST). Errors about the client or the redirect URI are shown on a page and
// never redirected (§4.1.2.1); every other error goes back to the redirect URI with `error` and `state`.
import { createHash } from 'node:crypto';
import { type OAuthClient, redirectUriAllowed } from './clients.ts';
import { KNOWN_SCOPES, parseScope } from './scopes.ts';

/** The sandbox demands a state of at least this many characters (CSRF protection). */
export const MIN_STATE_LENGTH = 8;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state: string;
  /** PKCE (RFC 7636): the code challenge the token request's code_verifier must match. */
  pkce?: Pkce;
}

export interface Pkce {
  challenge: string;
  method: 'S256' | 'plain';
}

/** RFC 7636 §4.2: 43 to 128 unreserved characters. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export type AuthorizationCheck =
  | { kind: 'ok'; request: AuthorizationRequest }
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; redirectUri: string; error: string; description: string; state?: string };

const field = (fields: Record<string, unknown>, name: string): string | undefined => {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
};

export function checkAuthorizationRequest(
  fields: Record<string, unknown>,
  clients: ReadonlyMap<string, OAuthClient>,
  /** Variant pkce-required: a request without a code challenge is refused (RFC 7636 §4.4.1). */
  requirePkce = false,
): AuthorizationCheck {
  const clientId = field(fields, 'client_id');
  const client = clientId === undefined ? undefined : clients.get(clientId);
  if (!client) return { kind: 'page', message: 'Unknown or missing client_id.' };
  const redirectUri = field(fields, 'redirect_uri');
  if (redirectUri === undefined || !redirectUriAllowed(client, redirectUri)) {
    return { kind: 'page', message: 'The redirect_uri is missing or not registered for this client.' };
  }
  const state = field(fields, 'state');
  const back = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    state,
  });
  if (field(fields, 'response_type') !== 'code')
    return back('unsupported_response_type', 'response_type must be code');
  if (state === undefined || state.length < MIN_STATE_LENGTH) {
    return back('invalid_request', `state must have at least ${MIN_STATE_LENGTH} characters`);
  }
  const scopes = parseScope(field(fields, 'scope'));
  if (scopes.length === 0) return back('invalid_scope', 'scope is missing');
  const unknown = scopes.filter((scope) => !KNOWN_SCOPES.has(scope));
  if (unknown.length > 0) return back('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
  const challenge = field(fields, 'code_challenge');
  const method = field(fields, 'code_challenge_method') ?? (challenge === undefined ? undefined : 'plain');
  if (challenge === undefined && method !== undefined)
    return back('invalid_request', 'code_challenge_method without code_challenge');
  if (challenge === undefined && requirePkce) return back('invalid_request', 'code_challenge is required');
  if (method !== undefined && method !== 'S256' && method !== 'plain')
    return back('invalid_request', 'code_challenge_method must be S256 or plain');
  if (challenge !== undefined && !PKCE_VALUE.test(challenge))
    return back('invalid_request', 'code_challenge must be 43 to 128 unreserved characters');
  const pkce = challenge === undefined ? undefined : { challenge, method: method as Pkce['method'] };
  return { kind: 'ok', request: { client, redirectUri, scopes, state, ...(pkce ? { pkce } : {}) } };
}

/** Whether a token request's code_verifier matches the challenge of its code (RFC 7636 §4.6). */
export function verifierMatches(pkce: Pkce, verifier: string | undefined): boolean {
  if (verifier === undefined || !PKCE_VALUE.test(verifier)) return false;
  const derived =
    pkce.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return derived === pkce.challenge;
}

/** The redirect URI with the given query parameters added. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
