// Removes credentials from anything the suite writes: attachments, curl lines, messages.
const SECRET_FIELDS = [
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
  'code',
  'token',
];
const REDACTED = '<redacted>';

/** Secret values known to this process: configured secrets and every token minted during the run. */
const knownSecrets = new Set<string>();

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) knownSecrets.add(value);
}

export function redactText(text: string): string {
  let result = text
    .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(new RegExp(`("(?:${SECRET_FIELDS.join('|')})"\\s*:\\s*)"[^"]*"`, 'gi'), `$1"${REDACTED}"`)
    .replace(new RegExp(`([?&](?:${SECRET_FIELDS.join('|')})=)[^&\\s"']*`, 'gi'), `$1${REDACTED}`)
    .replace(new RegExp(`(^|[\\s&])((?:${SECRET_FIELDS.join('|')})=)[^&\\s"']*`, 'gi'), `$1$2${REDACTED}`);
  for (const secret of knownSecrets) result = result.split(secret).join(REDACTED);
  return result;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      /^(authorization|cookie|set-cookie|proxy-authorization)$/i.test(name) ? REDACTED : redactText(value),
    ]),
  );
}
