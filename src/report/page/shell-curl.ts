// A failure's request as a curl command a person can paste into a POSIX shell: every literal part single-
// quoted, and every redacted secret a variable to set (`"${AUTHORIZATION:?set AUTHORIZATION}"`), so that the
// command runs once the variables hold the person's own credentials and never carries the run's.
import { REDACTED } from '../../http/redact.ts';
import type { RequestView } from './view-model.ts';

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

export function shellCurl(request: Pick<RequestView, 'method' | 'url' | 'headers' | 'body'>): {
  command: string;
  placeholders: string[];
} {
  const used = new Set<string>();
  const method = /^[A-Z]+$/.test(request.method) ? request.method : word(request.method, used);
  const words = ['curl', '-i', '-X', method, word(request.url, used)];
  // A redacted header value is the whole value (`authorization: Bearer …` becomes one variable).
  for (const [name, value] of request.headers) words.push('-H', word(`${name}: ${value}`, used, name));
  if (request.body && !request.body.cut) words.push('--data-raw', word(request.body.text, used));
  return { command: words.join(' '), placeholders: [...used] };
}
