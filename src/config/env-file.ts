// Files of variables (CONFORMANCE_ENV_FILE, sandbox/sandbox.env), read as dotenv reads them, one line at a
// time: a line dotenv would skip, or a quote left open (dotenv would close it at a later line's quote and
// swallow the lines between), is a ConfigError naming the file and line, so no setting is silently lost.
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from './config-error.ts';

/** One variable of a file, with the line that sets it (1-based). */
export interface EnvFileEntry {
  name: string;
  value: string;
  line: number;
}

const IGNORED = /^\s*(?:#.*)?$/;
/** A value that opens a quote; dotenv's grammar (`export` and `KEY: value` included). */
const OPENS_QUOTE = /^\s*(?:export\s+)?[\w.-]+\s*(?:=|:\s)\s*(["'`])/;

/** Whether `line`'s quoted value, if it has one, closes on the line. */
function quoteCloses(line: string): boolean {
  const opened = OPENS_QUOTE.exec(line);
  if (!opened?.[1]) return true;
  return new RegExp(`(?:^|[^\\\\])${opened[1]}`).test(line.slice(opened[0].length));
}

/** The entries of an env file, in order; a later line setting a name again wins, as in dotenv. */
export function readEnvFile(path: string): EnvFileEntry[] {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  return lines.flatMap((text, index) => {
    if (IGNORED.test(text)) return [];
    const line = index + 1;
    const [entry, ...more] = Object.entries(parse(text));
    if (!entry || more.length > 0)
      throw new ConfigError(`${path}:${line}`, 'is not KEY=value, a # comment or a blank line');
    if (!quoteCloses(text))
      throw new ConfigError(`${path}:${line}`, `opens a quote it does not close (${entry[0]})`);
    return [{ name: entry[0], value: entry[1], line }];
  });
}

/** The variables of entries. */
export const variablesOf = (entries: readonly EnvFileEntry[]): Record<string, string> =>
  Object.fromEntries(entries.map(({ name, value }) => [name, value]));

/** The variables of an env file. */
export const fileVariables = (path: string): Record<string, string> => variablesOf(readEnvFile(path));
