// Expired tokens of user A and partner A: the configuration's (CONFORMANCE_EXPIRED_*_TOKEN), else the token
// store's whose stated expiry has passed. The configuration asks the store once, when it is resolved.
import { ConfigError } from '../config/config-error.ts';
import { normaliseScopes } from '../config/scope-set.ts';
import type { StoreExpiries, SuiteConfig, TokenOwners } from '../config/suite-config.ts';
import { USER_SCOPES } from '../contract/operation-model.ts';
import { messageOf } from '../text/error-message.ts';
import { runTokens } from './token-lifetimes.ts';
import { partnerKey, TokenStore, userKey } from './token-store.ts';

/** The token store's expired access token of user A (every read scope, if it has one) or partner A. */
function storedExpiredToken(
  path: string,
  owners: TokenOwners,
  whose: 'user' | 'partner',
): string | undefined {
  const store = new TokenStore(path);
  const { userLogin: login, partnerA } = owners;
  if (whose === 'user')
    return login
      ? store.expiredAccessToken(
          userKey(owners.authUrl, login.clientId, login.username),
          normaliseScopes(USER_SCOPES),
        )?.accessToken
      : undefined;
  return partnerA
    ? store.expiredAccessToken(partnerKey(owners.baseUrl, partnerA.clientId))?.accessToken
    : undefined;
}

/**
 * An expired token of user A or partner A the configuration supplies: its variable's, else the token store's,
 * sent as it is (one this run kept live and has renewed since must not be renewed again).
 */
export function suppliedExpiredToken(config: SuiteConfig, whose: 'user' | 'partner'): string | undefined {
  const { tokenStore, expiredUserToken, expiredPartnerToken } = config.auth;
  const given = whose === 'user' ? expiredUserToken : expiredPartnerToken;
  const token = given ?? (tokenStore ? storedExpiredToken(tokenStore, config, whose) : undefined);
  if (token) runTokens.asIs(token);
  return token;
}

/** Whether the token store holds an expired token of each owner (the configuration's ReadStoreExpiries). */
export function storeExpiries(path: string, owners: TokenOwners): StoreExpiries {
  try {
    return {
      user: storedExpiredToken(path, owners, 'user') !== undefined,
      partner: storedExpiredToken(path, owners, 'partner') !== undefined,
    };
  } catch (error) {
    throw new ConfigError('CONFORMANCE_TOKEN_STORE', `cannot be read: ${messageOf(error)}`);
  }
}
