// What a target can do, and what gives it that; a test that needs a capability the target lacks is skipped
// with the reason (./capabilities.ts adds the variables that supply it, from ./variables.ts).

/** What supplies each capability, the variables aside. */
export const CAPABILITIES = {
  // data persists between requests (reads after writes, cursors, revocation)
  stateful: 'a target that keeps state (not a mock)',
  // tokens are really checked: invalid, expired and revoked tokens are refused
  'real-auth': 'a target that checks tokens (not a mock)',
  scopes: 'a target that enforces scopes (not a mock)',
  // user tokens can be minted through the authorization code flow
  'user-login': 'user OAuth credentials',
  'second-user': 'a second test user',
  // the sandbox's on demand, a given one, or the token store's
  'expired-user-token':
    'an expired user token: given, or in the token store once its stated expiry has passed (a run after `npm run login` once its tokens expired)',
  'expired-partner-token':
    "an expired partner token: given, or partner A's in the token store once its stated expiry has passed (a later run)",
  partner: 'partner A credentials',
  'second-partner': 'partner B credentials',
  // the sandbox admin API, or a receiver the team registered
  webhooks: "the suite's webhook receiver registered with the target",
  // receivers per check, simulated events, inspection
  'sandbox-admin': 'the embedded sandbox administration API',
  'rate-limit': "the target's rate limit, configured (e.g. 2000/60) or announced in its response headers",
  'own-rate-limit': 'a token with a rate limit of its own (the embedded sandbox issues one on demand)',
  'request-count': 'server-side request counts (the embedded sandbox administration API)',
} as const;

export type Capability = keyof typeof CAPABILITIES;
