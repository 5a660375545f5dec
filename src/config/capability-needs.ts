// What the suite's checks of a requirement need from the target, in the capabilities of src/config/config.ts:
// the security of the requirement's operations (a user login, partner credentials), plus what its checks
// require() beyond that, by requirement ID or ID prefix (the longest match counts). `npm run doctor` reads it
// with the configuration's capabilities and capabilitySource to say what a configuration will verify, what
// not and why, and which variable would enable it; the remote run checks that prediction against its report.
// On a remote target 'webhooks' comes from the receiver's variables (CONFORMANCE_WEBHOOK_LISTEN and
// _PUBLIC_URL) and 'rate-limit' is always there (a configured limit, or the one the response headers
// announce): whether the service then sends a webhook, or announces a limit, only the run can tell.
import { operations } from '../contract/operations.ts';
import type { Requirement } from '../contract/requirements.ts';
import { capabilitySource } from './capabilities.ts';
import type { Capability } from './capability.ts';
import type { SuiteConfig } from './suite-config.ts';

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
export function reasonsUnverifiable(config: SuiteConfig, requirement: Requirement): string[] {
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
