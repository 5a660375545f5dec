// The auth section of the configuration: how the suite gets and keeps tokens on a real target.
import { resolve, sep } from 'node:path';
import { reportsDir } from '../run-state/reports-dir.ts';
import { ConfigError } from './config-error.ts';
import type { AuthSettings, ReadStoreExpiries, TokenOwners } from './suite-config.ts';
import { type Env, read } from './variables.ts';

/** CONFORMANCE_TOKEN_STORE: never under the reports directory (reports are shared; the store holds tokens). */
function tokenStorePath(env: Env): string | undefined {
  const path = read(env, 'CONFORMANCE_TOKEN_STORE');
  const reports = resolve(reportsDir);
  if (path !== undefined && (path === reports || path.startsWith(`${reports}${sep}`)))
    throw new ConfigError(
      'CONFORMANCE_TOKEN_STORE',
      `must be outside ${reports} (reports are shared; the store holds live tokens)`,
    );
  return path;
}

export function authSettings(env: Env, owners: TokenOwners, readStore: ReadStoreExpiries): AuthSettings {
  const tokenStore = tokenStorePath(env);
  return {
    tokenStore,
    signIn: read(env, 'CONFORMANCE_SIGN_IN'),
    pkce: read(env, 'CONFORMANCE_PKCE'),
    clientAuth: read(env, 'CONFORMANCE_CLIENT_AUTH'),
    offlineScope: read(env, 'CONFORMANCE_OFFLINE_SCOPE'),
    expiredUserToken: read(env, 'CONFORMANCE_EXPIRED_USER_TOKEN'),
    expiredPartnerToken: read(env, 'CONFORMANCE_EXPIRED_PARTNER_TOKEN'),
    storeHasExpired: tokenStore ? readStore(tokenStore, owners) : { user: false, partner: false },
    partnerScope: read(env, 'CONFORMANCE_PARTNER_SCOPE'),
    partnerGrantType: read(env, 'CONFORMANCE_PARTNER_GRANT_TYPE'),
  };
}
