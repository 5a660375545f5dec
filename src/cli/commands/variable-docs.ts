// The CONFORMANCE_* variables a run reads, for `run --help`: for now the rows of the README's variable tables
// (the one place they are described); the table of variables in src/config will replace this reader.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../run/package.ts';

const WIDTH = 100;

/** Table cell text without its Markdown: code spans, emphasis, links and escaped pipes. */
const plain = (cell: string): string =>
  cell
    .replace(/\\\|/g, '|')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .trim();

/** One entry per README table row naming CONFORMANCE_* variables: the names, then the description, shortened. */
export function variablesHelp(): string {
  const rows = readFileSync(join(packageRoot, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `CONFORMANCE_'))
    .map((line) => line.split(/(?<!\\)\|/).map(plain));
  const entries = rows.map(([, names = '', description = '']) => {
    const short = description.length > WIDTH ? `${description.slice(0, WIDTH - 1)}…` : description;
    return `  ${names}\n      ${short}`;
  });
  return `Variables (the environment wins over --env-file; README for the full text):\n${entries.join('\n')}`;
}
