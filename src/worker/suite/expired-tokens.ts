// Expired tokens of the target's own making (AUTH-EXPIRED-TOKEN, PAUTH-EXPIRED-TOKEN), the cheapest way the
// target allows: one the configuration gives (CONFORMANCE_EXPIRED_*_TOKEN, the token store's); a token the run
// obtained whose stated expiry has passed; on the embedded sandbox, one issued expired; else the run's token
// that expires first, waited for where that is at most a minute away (the run's time: the test's timeout
// grows by it). Otherwise not verified, naming the lifetime that kept an expired token out of the run's reach.

import { suppliedExpiredToken } from '../../auth/expired-tokens.ts';
import type { UserToken } from '../../auth/user-oauth.ts';
import type { UserTokenPool } from '../../auth/user-token-pool.ts';
import { type Capability, variablesSupplying } from '../../config/capabilities.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { bodyOf, type Exchange } from '../../http/exchange.ts';
import { registerSecret } from '../../http/redact.ts';
import type { PartnerData } from '../partner-data/partner-data.ts';
import { extendTestTimeout } from '../session/run-waits.ts';
import { iso } from '../user-data/records.ts';
import { notVerified } from '../verdict/stops.ts';
import type { Verdict } from '../verdict/verdicts.ts';
import { ALL_READ_SCOPES } from './fixtures.ts';

/** A token the run obtained, the lifetime its server stated (s), and when that ends (epoch ms). */
interface HeldToken {
  token: string;
  lifetime: number;
  expiresAt: number;
}

/** The longest a check waits for a token the run holds to pass its stated expiry. */
export const EXPIRY_WAIT_MS = 60_000;
/** Held this long past its stated expiry: the server's clock, and a lifetime stated in whole seconds. */
const EXPIRY_MARGIN_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whose tokens, what is missing, and the capability a configuration supplies it by. */
interface Owner {
  kind: 'user' | 'partner';
  whose: string;
  what: string;
  capability: Capability;
}

/**
 * The first of `held` to expire once it has expired, waited for when that is within EXPIRY_WAIT_MS (noted);
 * else the check is not verified, naming the lifetime the target states.
 */
async function pastExpiry(held: readonly HeldToken[], owner: Owner, verdict: Verdict): Promise<string> {
  const variables = variablesSupplying(owner.capability);
  const none = `no ${owner.what}: none given or in the token store (${variables.join(', ')})`;
  const [first] = [...held].sort((a, b) => a.expiresAt - b.expiresAt);
  if (!first)
    return notVerified(
      `${none}, and ${owner.whose} state no expires_in: when one expires cannot be told`,
      variables,
    );
  const waitMs = first.expiresAt + EXPIRY_MARGIN_MS - Date.now();
  if (waitMs > EXPIRY_WAIT_MS)
    return notVerified(
      `${none}, and ${owner.whose} live ${first.lifetime} s (expires_in): the first this run holds expires at ${iso(first.expiresAt)}, ${Math.ceil(waitMs / 1000)} s from now, later than a check waits (${EXPIRY_WAIT_MS / 1000} s)`,
      variables,
    );
  if (waitMs > 0) {
    verdict.note(
      `waited ${Math.ceil(waitMs / 1000)} s for one of ${owner.whose} (expires_in ${first.lifetime}) to expire`,
    );
    extendTestTimeout(waitMs);
    await sleep(waitMs);
  }
  return first.token;
}

const expired = (held: readonly HeldToken[]): HeldToken | undefined =>
  held.find(({ expiresAt }) => expiresAt + EXPIRY_MARGIN_MS <= Date.now());

/**
 * The owner's expired token: the supplied one; one of `held` already expired; on the sandbox, the token
 * `issueExpired` asks for, if its answer says expires_in 0 or less (else it is held like the others); the
 * first of `held` to expire, waited for.
 */
async function expiredOf(
  owner: Owner,
  { config, verdict }: { config: SuiteConfig; verdict: Verdict },
  heldTokens: () => Promise<HeldToken[]>,
  issueExpired: () => Promise<HeldToken>,
): Promise<string> {
  const supplied = suppliedExpiredToken(config, owner.kind);
  if (supplied) return supplied;
  const held = await heldTokens();
  const done = expired(held);
  if (done) return done.token;
  // Only the sandbox issues an expired token on request; elsewhere the capability is the store's.
  if (config.target === 'sandbox' && config.capabilities.has(owner.capability)) {
    const issued = await issueExpired();
    if (issued.lifetime <= 0) return issued.token;
    // A target that ignores the request issues a live token: held to its stated lifetime like the others.
    held.push(issued);
  }
  return pastExpiry(held, owner, verdict);
}

/** A user token the run was issued, held to its stated lifetime (none stated: not held). */
const heldUserToken = ({ accessToken, expiresIn, obtainedAt }: UserToken): HeldToken[] =>
  expiresIn === undefined || obtainedAt === undefined
    ? []
    : [{ token: accessToken, lifetime: expiresIn, expiresAt: obtainedAt + expiresIn * 1000 }];

const USER: Owner = {
  kind: 'user',
  whose: "user A's tokens",
  what: 'expired user token',
  capability: 'expired-user-token',
};

/**
 * An expired token of user A for every read scope (so only its expiry can be the reason of a refusal): of
 * those the pool handed out, or on the sandbox one it mints expired (src/auth/user-token-pool.ts).
 */
export function expiredUserToken(
  config: SuiteConfig,
  tokenPool: UserTokenPool,
  verdict: Verdict,
): Promise<string> {
  const held = async () => tokenPool.keptTokens(ALL_READ_SCOPES).flatMap(heldUserToken);
  const issueExpired = async () => {
    const token = await tokenPool.expiredToken();
    // A sign-in that states no lifetime is taken at its word: asked expired.
    const lifetime = tokenPool.grantOf(token)?.token.expiresIn ?? 0;
    return { token, lifetime, expiresAt: Date.now() + lifetime * 1000 };
  };
  return expiredOf(USER, { config, verdict }, held, issueExpired);
}

/** The token a partner token answer gave, held to its stated lifetime (none: no token, or no lifetime). */
function heldPartnerToken(exchange: Exchange): HeldToken[] {
  const body = bodyOf<{ access_token?: unknown; expires_in?: unknown }>(exchange);
  if (exchange.status !== 200 || !body.ok || !exchange.timing) return [];
  const { access_token: token, expires_in: lifetime } = body.value ?? {};
  if (typeof token !== 'string' || typeof lifetime !== 'number') return [];
  registerSecret(token);
  const answeredAt = Date.parse(exchange.timing.startedAt) + exchange.timing.durationMs;
  return [{ token, lifetime, expiresAt: answeredAt + lifetime * 1000 }];
}

const PARTNER: Owner = {
  kind: 'partner',
  whose: "partner A's tokens",
  what: 'expired partner token',
  capability: 'expired-partner-token',
};

/**
 * An expired token of partner A: of the run's first token answer (OP-PARTNER-TOKEN's, observed once), or on
 * the sandbox one asked expired (sandbox-only body field sandbox_expires_in 0, its answer judged by
 * OP-PARTNER-TOKEN).
 */
export function expiredPartnerToken(
  config: SuiteConfig,
  partnerData: PartnerData,
  verdict: Verdict,
): Promise<string> {
  const held = async () => heldPartnerToken(await partnerData.observedTokenRequest());
  const issueExpired = async () => {
    const exchange = await partnerData.observedTokenRequest({ sandbox_expires_in: 0 });
    const answer = verdict.of('OP-PARTNER-TOKEN');
    answer.expectStatus(exchange, 200);
    const [asked] = heldPartnerToken(exchange);
    return asked ?? answer.fail('no access_token and expires_in in the response', exchange);
  };
  return expiredOf(PARTNER, { config, verdict }, held, issueExpired);
}
