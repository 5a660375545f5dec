// The one maker of curl lines: a request as a command a person pastes into a POSIX shell, every literal part
// single-quoted, every redacted secret a variable to set (`"${AUTHORIZATION:?set AUTHORIZATION}"`), and a
// comment at its end saying what to put in each and where a token comes from. Failure messages, the result's
// `curl` and every report (page, Markdown, JUnit, CTRF, the job summary) show this command.
import { REDACTED } from './redact.ts';

export interface CurlRequest {
  method: string;
  /** Redacted, as every part below. */
  url: string;
  headers: readonly (readonly [string, string])[];
  /** Left out where the report keeps only part of it. */
  body?: string;
}

/** What a person sets before sending a request again, and where the value comes from. */
export const AUTHORIZATION_PLACEHOLDER = "AUTHORIZATION='Bearer <token>'";
const USER_TOKEN = 'a user token: npx physiology-conformance login --print-token';
const PARTNER_TOKEN = "a partner token: POST /v2/partner/token's access_token";

/** `text` as one single-quoted shell word. */
export const singleQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The variable a redacted value becomes: named after its header, query parameter or JSON field. */
function variableFor(before: string, header?: string): string {
  const named =
    /"([A-Za-z_][\w-]*)"\s*:\s*"$/.exec(before)?.[1] ?? /([A-Za-z_][\w-]*)=$/.exec(before)?.[1] ?? header;
  return (named ?? 'SECRET').toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** One shell word: the literal parts quoted, each redacted part a required variable. */
function word(text: string, used: Set<string>, header?: string): string {
  const parts = text.split(REDACTED);
  let shell = '';
  let before = '';
  parts.forEach((part, index) => {
    if (index > 0) {
      const variable = variableFor(before, header);
      used.add(variable);
      shell += `"\${${variable}:?set ${variable}}"`;
    }
    if (part !== '') shell += singleQuoted(part);
    before += part;
  });
  return shell === '' ? "''" : shell;
}

/** What to set before sending it: each variable, AUTHORIZATION as the placeholder, and where its token comes from. */
export function settingsLine(placeholders: readonly string[], url: string): string {
  if (placeholders.length === 0) return '';
  const named = placeholders.map((name) => (name === 'AUTHORIZATION' ? AUTHORIZATION_PLACEHOLDER : name));
  const token = placeholders.includes('AUTHORIZATION')
    ? ` (${/\/v2\/partner\//.test(url) ? PARTNER_TOKEN : USER_TOKEN})`
    : '';
  return `set ${named.join(', ')} first${token}`;
}

export function shellCurl(request: CurlRequest): { command: string; placeholders: string[] } {
  const used = new Set<string>();
  const method = /^[A-Z]+$/.test(request.method) ? request.method : word(request.method, used);
  const words = ['curl', '-i', '-X', method, word(request.url, used)];
  // A redacted header value is the whole value (`authorization: Bearer …` becomes one variable).
  for (const [name, value] of request.headers) words.push('-H', word(`${name}: ${value}`, used, name));
  if (request.body !== undefined) words.push('--data-raw', word(request.body, used));
  const placeholders = [...used];
  const settings = settingsLine(placeholders, request.url);
  return { command: `${words.join(' ')}${settings ? `  # ${settings}` : ''}`, placeholders };
}
