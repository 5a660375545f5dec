// Which capabilities a configuration gives its target, and why one is missing: what supplies it
// (./capability.ts) and the variables that do (the `supplies` of ./variables.ts).
import { CAPABILITIES, type Capability } from './capability.ts';
import type { SuiteConfig, TargetKind } from './suite-config.ts';
import { rows, type VariableName } from './variables.ts';

/** The variables that supply a capability, in the table's order. */
export const variablesSupplying = (capability: Capability): VariableName[] =>
  rows()
    .filter(([, row]) => row.supplies?.includes(capability))
    .map(([name]) => name);

/** Why a capability is missing, and what would supply it (the reason a check reports as not verified). */
export const capabilitySource = Object.fromEntries(
  (Object.keys(CAPABILITIES) as Capability[]).map((capability) => {
    const names = variablesSupplying(capability);
    return [capability, `${CAPABILITIES[capability]}${names.length > 0 ? ` (${names.join(', ')})` : ''}`];
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

export function capabilitiesOf(
  target: TargetKind,
  config: Omit<SuiteConfig, 'capabilities'>,
): Set<Capability> {
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
