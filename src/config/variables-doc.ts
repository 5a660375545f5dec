// The variables' documentation, generated from ./variables.ts: docs/variables.md's tables (one per section,
// between `<!-- variables:begin SECTION -->` and `<!-- variables:end -->`) and the text of --help.
import { rows, SECTIONS, type Section } from './variables.ts';

type Row = ReturnType<typeof rows>[number][1];

/** The default as documented: stated, or the constant's (none for an empty list or map). */
export function shownDefault(row: Row): string {
  if (row.shown !== undefined) return row.shown;
  if (typeof row.default === 'boolean') return row.default ? '`1`' : '`0`';
  if (typeof row.default === 'string' || typeof row.default === 'number') return `\`${row.default}\``;
  return '';
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The Markdown table of a section's variables. */
export function variablesTable(section: Section): string {
  const lines = rows()
    .filter(([, row]) => row.section === section)
    .map(([name, row]) => `| \`${name}\` | ${cell(shownDefault(row))} | ${cell(row.doc)} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...lines].join('\n');
}

const MARKED = /(<!-- variables:begin ([\w-]+) -->\n)[\s\S]*?(<!-- variables:end -->)/g;

/** A document (docs/variables.md) with each marked table generated again. */
export const withVariableTables = (doc: string): string =>
  doc.replace(MARKED, (_all, begin: string, section: string, end: string) => {
    if (!Object.hasOwn(SECTIONS, section))
      throw new Error(`docs/variables.md: no section "${section}" of variables`);
    return `${begin}${variablesTable(section as Section)}\n${end}`;
  });

/** The variables as plain text, by section, for a command's --help. */
export const variablesHelp = (): string =>
  (Object.entries(SECTIONS) as [Section, string][])
    .map(([section, title]) => {
      const lines = rows()
        .filter(([, row]) => row.section === section)
        .map(([name, row]) => {
          const shown = shownDefault(row).replace(/`/g, '');
          return `  ${name}${shown ? ` (default ${shown})` : ''}\n      ${row.doc.replace(/`/g, '')}`;
        });
      return `${title}:\n${lines.join('\n')}`;
    })
    .join('\n\n');
