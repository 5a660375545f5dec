// The secret values of a configuration: those of the variables ./variables.ts marks secret, registered for
// redaction and never written (the run manifest refers to each by its variable instead).
import type { SuiteConfig } from './suite-config.ts';
import { rows, type VariableName, type variables } from './variables.ts';

type SecretName = {
  [N in VariableName]: (typeof variables)[N] extends { secret: true } ? N : never;
}[VariableName];

/** Where each secret variable's value sits in the configuration: a row marked secret must say. */
const secretIn: Record<SecretName, (config: SuiteConfig) => (string | undefined)[]> = {
  CONFORMANCE_CLIENT_SECRET: (config) => [config.userLogin?.clientSecret],
  CONFORMANCE_PASSWORD: (config) => [config.userLogin?.password],
  CONFORMANCE_PASSWORD_B: (config) => [config.secondUser?.password],
  CONFORMANCE_USER_TOKENS: (config) => Object.values(config.userTokens ?? {}),
  CONFORMANCE_PARTNER_A_CLIENT_SECRET: (config) => [config.partnerA?.clientSecret],
  CONFORMANCE_PARTNER_B_CLIENT_SECRET: (config) => [config.partnerB?.clientSecret],
  CONFORMANCE_PARTNER_A_SIGNING_SECRET: (config) => [config.signingSecret],
  // The embedded sandbox's: the suite never reads it.
  CONFORMANCE_PARTNER_B_SIGNING_SECRET: () => [],
  CONFORMANCE_EXPIRED_USER_TOKEN: (config) => [config.auth.expiredUserToken],
  CONFORMANCE_EXPIRED_PARTNER_TOKEN: (config) => [config.auth.expiredPartnerToken],
};

/** Every secret value of a configuration. */
export const secretsOf = (config: SuiteConfig): string[] =>
  rows()
    .filter(([, row]) => row.secret)
    .flatMap(([name]) => secretIn[name as SecretName](config))
    .filter((secret): secret is string => !!secret);
