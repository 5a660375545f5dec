// A JSON body pretty-printed for a card: a line per member or item, each with its JSON pointer, so that the
// offending fields can be marked; read token by token, so a body the report cut short prints as far as it
// goes. Numbers and strings are shown exactly as sent.

export interface JsonLine {
  text: string;
  /** The pointer of the value the line opens or holds ('' the body itself). */
  pointer: string;
}

interface Frame {
  kind: 'object' | 'array';
  pointer: string;
  /** The next item's index (array), or the last key read (object). */
  index: number;
  key?: string;
}

const TOKEN = /\s*("(?:[^"\\]|\\.)*(?:"|$)|[{}[\]:,]|[^\s{}[\],:"]+)/y;
const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

const keyOf = (token: string): string => {
  try {
    return String(JSON.parse(token));
  } catch {
    return token.replace(/^"|"$/g, '');
  }
};

/** The lines of `text` read as JSON, or undefined where it does not start as an object or array. */
export function jsonLines(text: string): JsonLine[] | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  const lines: JsonLine[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  let prefix = '';
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const token = match[1] ?? '';
    const top = stack.at(-1);
    const indent = '  '.repeat(stack.length);
    const here = top
      ? `${top.pointer}/${escapeToken(top.kind === 'array' ? String(top.index) : (top.key ?? ''))}`
      : '';
    if (token === ',') {
      const last = lines.at(-1);
      if (last) last.text += ',';
      if (top?.kind === 'array') top.index += 1;
      expectKey = top?.kind === 'object';
    } else if (token === ':') {
      expectKey = false;
    } else if (token === '}' || token === ']') {
      const closed = stack.pop();
      const last = lines.at(-1);
      // An empty object or array stays on its line.
      if (last && last.pointer === closed?.pointer && /[{[]$/.test(last.text)) last.text += token;
      else lines.push({ text: `${'  '.repeat(stack.length)}${token}`, pointer: closed?.pointer ?? '' });
    } else if (expectKey && top?.kind === 'object') {
      top.key = keyOf(token);
      prefix = `${token}: `;
    } else {
      lines.push({ text: `${indent}${prefix}${token}`, pointer: here });
      prefix = '';
      if (token === '{' || token === '[') {
        stack.push({ kind: token === '{' ? 'object' : 'array', pointer: here, index: 0 });
        expectKey = token === '{';
      }
    }
  }
  return lines;
}

/** Whether `pointer` is one of `fields` or lies within one (a field that is the whole body marks nothing). */
export const marked = (pointer: string, fields: readonly string[]): boolean =>
  fields.some((field) => field !== '' && (pointer === field || pointer.startsWith(`${field}/`)));
