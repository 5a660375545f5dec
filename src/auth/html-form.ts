// Reads the first HTML form of a login or consent page with a real HTML parser (parse5): where it posts,
// which fields it carries, and what each field is called (its label, aria-label, placeholder, autocomplete
// or name), so the HTTP form filler can tell the username field from the others. A page whose form is built
// by script has no form here: only a browser can fill it (src/auth/browser-sign-in.ts).
import { type DefaultTreeAdapterMap, parse } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface HtmlForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  /** Field names by input type (text, email, password, hidden, submit...). */
  types: Record<string, string>;
  /** What a person sees a field called: label text, else aria-label, placeholder, autocomplete, name. */
  labels: Record<string, string>;
}

const isElement = (node: Node): node is Element => 'tagName' in node;

const attribute = (element: Element, name: string): string | undefined =>
  element.attrs.find((attr) => attr.name === name)?.value;

function* descendants(node: Node): Generator<Element> {
  for (const child of 'childNodes' in node ? node.childNodes : []) {
    if (!isElement(child)) continue;
    yield child;
    yield* descendants(child);
  }
}

const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? node.value
    : ('childNodes' in node ? node.childNodes : []).map(textOf).join('');

/** Label text by the id it is `for`, and by each control it contains. */
function labelTexts(form: Element): { byId: Map<string, string>; byControl: Map<Element, string> } {
  const byId = new Map<string, string>();
  const byControl = new Map<Element, string>();
  for (const label of descendants(form)) {
    if (label.tagName !== 'label') continue;
    const text = textOf(label).replace(/\s+/g, ' ').trim();
    const target = attribute(label, 'for');
    if (target) byId.set(target, text);
    for (const control of descendants(label)) byControl.set(control, text);
  }
  return { byId, byControl };
}

export function parseForm(html: string, pageUrl: string): HtmlForm | undefined {
  const form = [...descendants(parse(html))].find((element) => element.tagName === 'form');
  if (!form) return undefined;
  const labels = labelTexts(form);
  const result: HtmlForm = {
    action: new URL(attribute(form, 'action') || pageUrl, pageUrl).toString(),
    method: (attribute(form, 'method') ?? 'GET').toUpperCase(),
    fields: {},
    types: {},
    labels: {},
  };
  for (const control of descendants(form)) {
    if (control.tagName !== 'input' && control.tagName !== 'button') continue;
    const name = attribute(control, 'name');
    if (!name || attribute(control, 'disabled') !== undefined) continue;
    const type = (
      attribute(control, 'type') ?? (control.tagName === 'button' ? 'submit' : 'text')
    ).toLowerCase();
    if ((type === 'checkbox' || type === 'radio') && attribute(control, 'checked') === undefined) continue;
    if (type === 'submit' && name in result.fields) continue; // the first submit button is the one pressed
    result.fields[name] = attribute(control, 'value') ?? '';
    result.types[name] = type;
    const id = attribute(control, 'id');
    result.labels[name] =
      labels.byControl.get(control) ||
      (id && labels.byId.get(id)) ||
      attribute(control, 'aria-label') ||
      attribute(control, 'placeholder') ||
      attribute(control, 'autocomplete') ||
      name;
  }
  return result;
}
