// A body on a card: JSON pretty-printed as sent, the offending fields marked, and past a few kilobytes only
// the lines near them shown, the rest folded (opened for printing); any other body as its text.
import type { ComponentChildren } from 'preact';
import { type JsonLine, jsonLines, marked } from './json-lines.ts';
import type { BodyView } from './view-model.ts';

/** A body this long or shorter is shown whole. */
const WHOLE_CHARACTERS = 3 * 1024;
/** Lines kept around a marked line, and at the top of a body with none. */
const CONTEXT_LINES = 3;
const TOP_LINES = 12;

export const byteSize = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

/** Lines as a <pre>, the marked ones highlighted. */
function Lines({ lines, fields }: { lines: readonly JsonLine[]; fields: readonly string[] }) {
  return (
    <pre class="json">
      {lines.map((line, i) => {
        const text = `${line.text}\n`;
        return marked(line.pointer, fields) ? <mark key={i}>{text}</mark> : text;
      })}
    </pre>
  );
}

/** The marked lines a long body shows with their context; the others are marked in its folds. */
const MARKS_SHOWN = 3;

/** The lines shown of a long body: those near its first marked lines, or the top when none is marked. */
function shownLines(lines: readonly JsonLine[], fields: readonly string[]): boolean[] {
  const marks = lines.flatMap((line, i) => (marked(line.pointer, fields) ? [i] : [])).slice(0, MARKS_SHOWN);
  return lines.map((_, i) =>
    marks.length === 0 ? i < TOP_LINES : marks.some((m) => Math.abs(m - i) <= CONTEXT_LINES),
  );
}

/** A long body: runs of shown lines, and between them the folded ones. */
function Folded({ lines, fields }: { lines: readonly JsonLine[]; fields: readonly string[] }) {
  const shown = shownLines(lines, fields);
  const parts: ComponentChildren[] = [];
  for (let start = 0; start < lines.length; ) {
    let end = start;
    while (end < lines.length && shown[end] === shown[start]) end += 1;
    const run = lines.slice(start, end);
    parts.push(
      shown[start] ? (
        <Lines key={start} lines={run} fields={fields} />
      ) : (
        <details key={start} class="fold">
          <summary>
            … {run.length} more line{run.length === 1 ? '' : 's'}
          </summary>
          <Lines lines={run} fields={fields} />
        </details>
      ),
    );
    start = end;
  }
  return <div class="json-folded">{parts}</div>;
}

/** A body: its size (and where the report cut it), then its text, JSON pretty-printed and marked. */
export function Body({ body, fields = [] }: { body?: BodyView; fields?: readonly string[] }) {
  if (!body) return null;
  const lines = jsonLines(body.text);
  const long = body.text.length > WHOLE_CHARACTERS;
  return (
    <>
      <div class="muted">
        body, {byteSize(body.bytes)}
        {body.cut ? `: cut, the first ${byteSize(body.text.length)} kept` : ''}
        {lines && long
          ? `; the lines near the first ${MARKS_SHOWN} offending fields shown, the rest folded`
          : ''}
      </div>
      {!lines ? (
        <pre>{body.text}</pre>
      ) : long ? (
        <Folded lines={lines} fields={fields} />
      ) : (
        <Lines lines={lines} fields={fields} />
      )}
    </>
  );
}

/** The fields of the body among an answer's fields (`/body/score/strain` is `/score/strain` of the body). */
export const bodyFields = (fields: readonly string[] = []): string[] =>
  fields.flatMap((field) => (field.startsWith('/body/') ? [field.slice('/body'.length)] : []));
