// The bearer tokens the suite makes up on purpose (never issued by the target, or malformed), so that every
// answer to a request carrying one is judged as the answer to an invalid token, wherever it is read: a
// sending the check went on without too (src/worker/session/sending-oracles.ts). Kept per process, like the
// secrets, and registered as secrets: a made-up token is sent as a real one would be.
import { randomBytes } from 'node:crypto';
import type { SentRequest } from './exchange.ts';
import { registerSecret } from './redact.ts';

const madeUp = new Set<string>();

/** A token the target never issued: `value`, or the shape of a real one (opaque base64url, random content). */
export function madeUpToken(value = randomBytes(32).toString('base64url')): string {
  madeUp.add(value);
  registerSecret(value);
  return value;
}

/** Whether the request's bearer token is one the suite made up. */
export function carriesMadeUpToken(request: Pick<SentRequest, 'headers'>): boolean {
  const authorization = Object.entries(request.headers).find(
    ([name]) => name.toLowerCase() === 'authorization',
  );
  const token = /^Bearer\s+(.+)$/i.exec(authorization?.[1].trim() ?? '')?.[1];
  return token !== undefined && madeUp.has(token);
}
