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
/** Fields of a token response whose values are live credentials. */
const ISSUED_TOKEN_FIELDS = ['access_token', 'refresh_token', 'id_token'];
export const REDACTED = '<redacted>';
const fields = (names: readonly string[]) => `(?:${names.join('|')})`;

/** A JSON string value of a secret field, also when the text ends before its closing quote. */
const JSON_VALUE = new RegExp(`("${fields(SECRET_FIELDS)}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|\\\\?$)`, 'gi');
/** The same inside JSON text that was itself escaped into a string (`\\"access_token\\":\\"…`). */
const ESCAPED_JSON_VALUE = new RegExp(`(\\\\+"${fields(SECRET_FIELDS)}\\\\+"\\s*:\\s*\\\\+")[^"\\\\]*`, 'gi');
/** An issued token in a response body, JSON (possibly truncated) or form-encoded: the value is group 1. */
const ISSUED_TOKEN = new RegExp(
  `"${fields(ISSUED_TOKEN_FIELDS)}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)|(?:^|[?&\\s])${fields(ISSUED_TOKEN_FIELDS)}=([^&\\s"']*)`,
  'gi',
);

/** Secret values known to this process: configured secrets and every token minted during the run. */
const knownSecrets = new Set<string>();
/** The known secrets, longest first (a registered prefix of a token must not leave the token's tail). */
let longestFirst: string[] = [];

export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4 || knownSecrets.has(value)) return;
  knownSecrets.add(value);
  longestFirst = [...knownSecrets].sort((a, b) => b.length - a.length);
}

/**
 * Registers every token a response body carries, before anyone parses it: a truncated or malformed token
 * response is redacted as well as a valid one (the part of the token that arrived is the secret).
 */
export function registerIssuedTokens(text: string): void {
  if (!/_token/i.test(text)) return;
  for (const match of text.matchAll(ISSUED_TOKEN)) registerSecret(match[1] ?? match[2]);
}

export function redactText(text: string): string {
  let result = text
    // A scheme word, not the end of a path such as /v2/user/profile/basic.
    .replace(/(?<![\w/.-])(Bearer|Basic)\s+[^\s"'<>,;]+/gi, `$1 ${REDACTED}`)
    // Header lines (call logs, raw dumps) with another scheme or none.
    .replace(/^(\s*(?:-\s*)?(?:proxy-)?authorization:[ \t]*)(?!(?:Bearer|Basic)\s)\S.*$/gim, `$1${REDACTED}`)
    .replace(JSON_VALUE, `$1"${REDACTED}"`)
    .replace(ESCAPED_JSON_VALUE, `$1${REDACTED}`)
    .replace(new RegExp(`([?&]${fields(SECRET_FIELDS)}=)[^&\\s"']*`, 'gi'), `$1${REDACTED}`)
    .replace(new RegExp(`(^|[\\s&])(${fields(SECRET_FIELDS)}=)[^&\\s"']*`, 'gi'), `$1$2${REDACTED}`);
  for (const secret of longestFirst) result = result.split(secret).join(REDACTED);
  return result;
}

/** Headers whose values are always replaced. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'];

/** What every report has redacted (the result states it): the marker, and the fields and headers replaced. */
export const REDACTION = {
  marker: REDACTED,
  fields: SECRET_FIELDS,
  headers: SECRET_HEADERS,
} as const;

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.includes(name.toLowerCase()) ? REDACTED : redactText(value),
    ]),
  );
}
