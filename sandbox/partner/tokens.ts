// Partner access tokens: opaque random strings with an expiry measured on the sandbox clock.
import { randomBytes } from 'node:crypto';

export interface TokenGrant {
  clientId: string;
  expiresAt: number;
}

export class PartnerTokens {
  readonly #grants = new Map<string, TokenGrant>();

  constructor(private readonly now: () => Date) {}

  issue(clientId: string, lifetimeSeconds: number): string {
    const token = `sbx_pt_${randomBytes(24).toString('base64url')}`;
    this.#grants.set(token, { clientId, expiresAt: this.now().getTime() + lifetimeSeconds * 1000 });
    return token;
  }

  /** The grant behind `token`, or undefined when the sandbox never issued it. */
  lookup(token: string): TokenGrant | undefined {
    return this.#grants.get(token);
  }

  isExpired(grant: TokenGrant): boolean {
    return this.now().getTime() >= grant.expiresAt;
  }
}
