// The partners known to the sandbox (client credentials and webhook signing secrets).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Partner } from './types.ts';

export class PartnerRegistry {
  readonly #byClientId: ReadonlyMap<string, Partner>;

  constructor(readonly partners: readonly Partner[]) {
    if (partners.length === 0) throw new Error('the partner sandbox needs at least one partner');
    this.#byClientId = new Map(partners.map((partner) => [partner.clientId, partner]));
  }

  find(clientId: string): Partner | undefined {
    return this.#byClientId.get(clientId);
  }

  /** The partner a fault acts as when it lets in a caller the sandbox does not know. */
  get first(): Partner {
    return this.partners[0] as Partner;
  }

  /** Whether `secret` is the client secret of `partner` (constant-time comparison). */
  static secretMatches(partner: Partner, secret: string): boolean {
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(partner.clientSecret), digest(secret));
  }
}
