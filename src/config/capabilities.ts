// What a target can do, and what the suite's checks need of it: the capabilities, what supplies each (and the
// variables that do), which ones a configuration gives its target, and which ones the checks of a requirement
// need. A check that needs one the target lacks is not verified, naming what would supply it; `npm run
// doctor` says the same before the run, and the remote run holds that prediction against its report.
import { operations } from '../contract/operations.ts';
import type { Requirement } from '../contract/requirements.ts';
import type { ValueOf, VariableName } from './variables.ts';

interface CapabilitySource {
  /** What supplies it, the variables aside. */
  source: string;
  /** The variables that supply it, in the table's order. */
  variables?: readonly VariableName[];
}

export const CAPABILITIES = {
  // data persists between requests (reads after writes, cursors, revocation)
  stateful: { source: 'a target that keeps state (not a mock)' },
  // tokens are really checked: invalid, expired and revoked tokens are refused
  'real-auth': { source: 'a target that checks tokens (not a mock)' },
  scopes: { source: 'a target that enforces scopes (not a mock)' },
  // user tokens can be minted through the authorization code flow
  'user-login': {
    source: 'user OAuth credentials',
    variables: [
      'CONFORMANCE_CLIENT_ID',
      'CONFORMANCE_CLIENT_SECRET',
      'CONFORMANCE_REDIRECT_URI',
      'CONFORMANCE_USER',
      'CONFORMANCE_PASSWORD',
    ],
  },
  'second-user': {
    source: 'a second test user',
    variables: ['CONFORMANCE_USER_B', 'CONFORMANCE_PASSWORD_B'],
  },
  // the sandbox's on demand, a given one, or the token store's (src/worker/suite/expired-tokens.ts: else the run's own)
  'expired-user-token': {
    source:
      'an expired user token: given, or in the token store once its stated expiry has passed (a run after `npm run login` once its tokens expired); without one, a run holds its own past a stated lifetime that ends within the run',
    variables: ['CONFORMANCE_TOKEN_STORE', 'CONFORMANCE_EXPIRED_USER_TOKEN'],
  },
  'expired-partner-token': {
    source:
      "an expired partner token: given, or partner A's in the token store once its stated expiry has passed (a later run); without one, a run holds its own past a stated lifetime that ends within the run",
    variables: ['CONFORMANCE_TOKEN_STORE', 'CONFORMANCE_EXPIRED_PARTNER_TOKEN'],
  },
  partner: {
    source: 'partner A credentials',
    variables: ['CONFORMANCE_PARTNER_A_CLIENT_ID', 'CONFORMANCE_PARTNER_A_CLIENT_SECRET'],
  },
  'second-partner': {
    source: 'partner B credentials',
    variables: ['CONFORMANCE_PARTNER_B_CLIENT_ID', 'CONFORMANCE_PARTNER_B_CLIENT_SECRET'],
  },
  // the sandbox admin API, or a receiver the team registered
  webhooks: {
    source: "the suite's webhook receiver registered with the target",
    variables: ['CONFORMANCE_WEBHOOK_LISTEN', 'CONFORMANCE_WEBHOOK_PUBLIC_URL'],
  },
  // receivers per check, simulated events, inspection
  'sandbox-admin': { source: 'the embedded sandbox administration API' },
  'rate-limit': {
    source: "the target's rate limit, configured (e.g. 2000/60) or announced in its response headers",
    variables: ['CONFORMANCE_RATE_LIMIT'],
  },
  'own-rate-limit': {
    source: 'a token with a rate limit of its own (the embedded sandbox issues one on demand)',
  },
  'request-count': { source: 'server-side request counts (the embedded sandbox administration API)' },
} as const satisfies Record<string, CapabilitySource>;

export type Capability = keyof typeof CAPABILITIES;

/** The variables that supply a capability. */
export const variablesSupplying = (capability: Capability): readonly VariableName[] =>
  (CAPABILITIES[capability] as CapabilitySource).variables ?? [];

/** Why a capability is missing, and what would supply it (the reason a check reports as not verified). */
export const capabilitySource = Object.fromEntries(
  (Object.keys(CAPABILITIES) as Capability[]).map((capability) => {
    const names = variablesSupplying(capability);
    return [
      capability,
      `${CAPABILITIES[capability].source}${names.length > 0 ? ` (${names.join(', ')})` : ''}`,
    ];
  }),
) as Record<Capability, string>;

/** What only the embedded sandbox gives: its administration API, and what it issues on demand. */
const SANDBOX_ONLY: readonly Capability[] = [
  'expired-user-token',
  'expired-partner-token',
  'webhooks',
  'sandbox-admin',
  'request-count',
  'own-rate-limit',
];

/** What of a resolved configuration (src/config/suite-config.ts) decides its target's capabilities. */
interface Configured {
  userLogin?: object;
  secondUser?: object;
  partnerA?: object;
  partnerB?: object;
  webhooks: { publicUrl?: string };
  auth: {
    expiredUserToken?: string;
    expiredPartnerToken?: string;
    storeHasExpired: { user: boolean; partner: boolean };
  };
}

export function capabilitiesOf(target: ValueOf<'CONFORMANCE_TARGET'>, config: Configured): Set<Capability> {
  if (target === 'prism') return new Set();
  const capabilities = new Set<Capability>(['stateful', 'real-auth', 'scopes']);
  if (config.userLogin) capabilities.add('user-login');
  if (config.secondUser && config.userLogin) capabilities.add('second-user');
  if (config.partnerA) capabilities.add('partner');
  if (config.partnerB) capabilities.add('second-partner');
  // A configured limit, or the one the target announces in its response headers (read by the check).
  capabilities.add('rate-limit');
  if (config.webhooks.publicUrl) capabilities.add('webhooks');
  const { expiredUserToken, expiredPartnerToken, storeHasExpired } = config.auth;
  if ((expiredUserToken || storeHasExpired.user) && config.userLogin) capabilities.add('expired-user-token');
  if ((expiredPartnerToken || storeHasExpired.partner) && config.partnerA)
    capabilities.add('expired-partner-token');
  if (target === 'sandbox') for (const capability of SANDBOX_ONLY) capabilities.add(capability);
  return capabilities;
}

// What the checks of a requirement need beyond the security of its operations (a user login, partner
// credentials): what they require(), by requirement ID or ID prefix (the longest match counts). On a remote
// target 'webhooks' comes from the receiver's variables and 'rate-limit' is always there: whether the
// service then sends a webhook, or announces a limit, only the run can tell.
const extraNeeds: Readonly<Record<string, readonly Capability[]>> = {
  'AUTH-EXPIRED-TOKEN': ['real-auth', 'expired-user-token'],
  'AUTH-INVALID-TOKEN': ['real-auth'],
  'AUTH-MISSING-TOKEN': ['real-auth'],
  'PAUTH-EXPIRED-TOKEN': ['real-auth', 'expired-partner-token'],
  PAUTH: ['real-auth'],
  SCOPE: ['scopes'],
  REVOKE: ['stateful', 'real-auth'],
  'REVOKE-WEBHOOKS-STOP': ['stateful', 'webhooks'],
  WH: ['webhooks'],
  RL: ['rate-limit'],
  'DATA-OWN-USER-ONLY': ['second-user'],
  'PTN-OWNER': ['second-partner'],
  CONS: ['stateful'],
  FLT: ['stateful'],
  ORD: ['stateful'],
  PAG: ['stateful'],
  INV: ['stateful'],
  STATE: ['stateful'],
};

const securityNeed: Record<string, Capability | undefined> = { user: 'user-login', partner: 'partner' };

/** The capabilities the checks of `requirement` need. */
export function capabilitiesNeeded(requirement: Pick<Requirement, 'id' | 'operations'>): Capability[] {
  const needs = new Set<Capability>();
  for (const op of operations.filter((candidate) => requirement.operations.includes(candidate.operationId))) {
    const need = securityNeed[op.security.kind];
    if (need) needs.add(need);
  }
  const key = Object.keys(extraNeeds)
    .filter((prefix) => requirement.id === prefix || requirement.id.startsWith(`${prefix}-`))
    .sort((a, b) => b.length - a.length)[0];
  for (const need of key ? (extraNeeds[key] ?? []) : []) needs.add(need);
  return [...needs];
}

/** Why `config` cannot verify `requirement`: one reason per missing capability (empty: it can). */
export function reasonsUnverifiable(
  config: { capabilities: ReadonlySet<Capability>; environment: string; productionBaseUrl?: string },
  requirement: Requirement,
): string[] {
  const reasons = capabilitiesNeeded(requirement)
    .filter((capability) => !config.capabilities.has(capability))
    .map((capability) => `${capability}: needs ${capabilitySource[capability]}`);
  // The one check that needs a production environment (the embedded sandbox has a production twin).
  if (
    requirement.id === 'TD-PRODUCTION-404' &&
    config.environment !== 'production' &&
    config.productionBaseUrl === undefined
  )
    reasons.push(
      "a production target (CONFORMANCE_ENVIRONMENT=production), or the production deployment's URL (CONFORMANCE_PRODUCTION_BASE_URL)",
    );
  return reasons;
}
