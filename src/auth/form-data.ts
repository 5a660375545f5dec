// What a browser submits for a form (HTML "form submission": constructing the entry list, then the
// urlencoded pairs): in document order, every enabled control with a name (checkboxes and radios when
// checked, each selected option of a select), of the buttons the submitter alone (its own name and value;
// an image button as its x and y), line breaks as CRLF; to the submitter's formaction and formmethod when it
// has them, else the form's, a GET replacing the action's query.
import type { FormEntry } from '../http/form-body.ts';
import { type Control, type HtmlForm, isButton } from './html-form.ts';

export interface FormSubmission {
  method: 'GET' | 'POST';
  /** Where it goes: for a GET, with the form data as its query. */
  url: string;
  /** For a POST, its application/x-www-form-urlencoded body. */
  body?: readonly FormEntry[];
}

const crlf = (text: string): string => text.replace(/\r\n|\r|\n/g, '\r\n');

/** The form data set of `form` pressed by `submitter` (none: submitted without one), `filled` in place of those controls' values. */
export function formData(
  form: HtmlForm,
  submitter?: Control,
  filled: ReadonlyMap<Control, string> = new Map(),
): FormEntry[] {
  const entries = form.controls.flatMap((control): [string, string][] => {
    if (!control.submitted || (isButton(control) && control !== submitter)) return [];
    if (control.type === 'image') {
      const prefix = control.name ? `${control.name}.` : '';
      return [
        [`${prefix}x`, '0'],
        [`${prefix}y`, '0'],
      ];
    }
    if (!control.name) return [];
    const given = filled.get(control);
    const values = given === undefined ? control.values : [given];
    const direction: [string, string][] = control.dirname ? [[control.dirname, 'ltr']] : [];
    return [...values.map((value): [string, string] => [control.name ?? '', value]), ...direction];
  });
  return entries.map(([name, value]) => [crlf(name), crlf(value)]);
}

/** The request a browser sends for `form` pressed by `submitter`. */
export function formSubmission(
  form: HtmlForm,
  submitter?: Control,
  filled?: ReadonlyMap<Control, string>,
): FormSubmission {
  const entries = formData(form, submitter, filled);
  const action = submitter?.formAction ?? form.action;
  const method = (submitter?.formMethod ?? form.method) === 'POST' ? 'POST' : 'GET';
  if (method === 'POST') return { method, url: action, body: entries };
  const url = new URL(action);
  url.search = new URLSearchParams(entries.map(([name, value]) => [name, value])).toString();
  return { method, url: url.toString() };
}
