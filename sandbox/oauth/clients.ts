// OAuth clients of the user data API and their authentication at the token endpoint.
import { timingSafeEqual } from 'node:crypto';
import type { SandboxCredentials } from '../credentials.ts';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUris: readonly string[];
}

export function buildClients(credentials: SandboxCredentials): ReadonlyMap<string, OAuthClient> {
  const { clientId, clientSecret, redirectUri } = credentials.client;
  return new Map([[clientId, { clientId, clientSecret, redirectUris: [redirectUri] }]]);
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Exact match against a registered redirect URI, except that for loopback URIs (127.0.0.1, localhost, [::1])
 * the port may differ (RFC 8252 §7.3), so a sandbox on any port accepts its own /callback.
 */
export function redirectUriAllowed(client: OAuthClient, candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  return client.redirectUris.some((registered) => {
    if (registered === candidate) return true;
    const expected = new URL(registered);
    return (
      loopbackHosts.has(expected.hostname) &&
      loopbackHosts.has(url.hostname) &&
      url.protocol === expected.protocol &&
      url.pathname === expected.pathname &&
      url.search === expected.search &&
      url.hash === ''
    );
  });
}

const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export interface ClientAuthentication {
  /** From the Authorization: Basic header, when one was sent. */
  basic?: { clientId: string; clientSecret: string };
  /** From the form body. */
  body: { clientId?: string; clientSecret?: string };
}

/** Reads HTTP Basic client credentials (RFC 6749 §2.3.1: form-urlencoded id and secret). */
export function parseBasicAuthorization(
  header: string | undefined,
): { clientId: string; clientSecret: string } | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/** The authenticated client, or undefined for unknown clients, wrong secrets and mixed methods. */
export function authenticateClient(
  clients: ReadonlyMap<string, OAuthClient>,
  auth: ClientAuthentication,
): OAuthClient | undefined {
  const viaBody = auth.body.clientSecret !== undefined;
  if (auth.basic && viaBody) return undefined; // RFC 6749 §2.3: one authentication method per request
  const clientId = auth.basic?.clientId ?? auth.body.clientId;
  const secret = auth.basic?.clientSecret ?? auth.body.clientSecret;
  if (clientId === undefined || secret === undefined) return undefined;
  if (auth.basic && auth.body.clientId !== undefined && auth.body.clientId !== clientId) return undefined;
  const client = clients.get(clientId);
  return client && sameSecret(client.clientSecret, secret) ? client : undefined;
}
