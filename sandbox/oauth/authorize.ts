// Validation of an authorization request (RFC 6749 §4.1.1) at {auth_url}/oauth/oauth2/auth, shared by the
// form (GET) and its submission (POST). Errors about the client or the redirect URI are shown on a page and
// never redirected (§4.1.2.1); every other error goes back to the redirect URI with `error` and `state`.
import { type OAuthClient, redirectUriAllowed } from './clients.ts';
import { KNOWN_SCOPES, parseScope } from './scopes.ts';

/** The sandbox demands a state of at least this many characters (CSRF protection). */
export const MIN_STATE_LENGTH = 8;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state: string;
}

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
  return { kind: 'ok', request: { client, redirectUri, scopes, state } };
}

/** The redirect URI with the given query parameters added. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
