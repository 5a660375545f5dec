// Scopes of the user OAuth flow: the six read scopes of the seed, plus `offline` (refresh tokens; the seed
// does not show refresh-token behaviour, the sandbox issues them only with this scope).
export const READ_SCOPES = [
  'read:cycles',
  'read:recovery',
  'read:sleep',
  'read:workout',
  'read:body_measurement',
  'read:profile',
] as const;
export type ReadScope = (typeof READ_SCOPES)[number];

export const KNOWN_SCOPES: ReadonlySet<string> = new Set<string>([...READ_SCOPES, 'offline']);

/** Splits a space-separated scope parameter (RFC 6749 §3.3), dropping duplicates. */
export function parseScope(text: string | undefined): string[] {
  return [...new Set((text ?? '').split(' ').filter((scope) => scope !== ''))];
}
