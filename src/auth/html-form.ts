// Reads a login or consent page with a real HTML parser (parse5): its title, its forms (where each posts, its
// fields and its submit buttons), the buttons outside any form, its alerts, and whether scripts run there.
// Each control keeps what a person sees it called (label, accessible name, placeholder...), so that the
// credential fields and the affirmative button can be told apart, and its rank among the page's `input,
// button` elements in document order, so that a browser acts on the same element (src/auth/browser-sign-in.ts
// reads its rendered DOM with this module too). A page whose form is built by script has no form here.
import { type DefaultTreeAdapterMap, parse } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface Control {
  /** Rank among the page's `input, button` elements in document order (the browser's selector). */
  index: number;
  name?: string;
  value: string;
  /** The input type (text, email, password, hidden, checkbox...), or submit, button, reset for buttons. */
  type: string;
  /** Its accessible name, roughly: aria-labelledby text, aria-label, label, text, placeholder, title, alt. */
  label: string;
  autocomplete?: string;
  /** The `required` attribute: the form is not sent without it (a person must fill it). */
  required: boolean;
  /** Unchecked checkboxes and radios, disabled controls: not submitted. */
  submitted: boolean;
}

export interface HtmlForm {
  action: string;
  method: string;
  /** Every control of the form, fields and buttons, in document order. */
  controls: Control[];
}

export interface HtmlPage {
  url: string;
  title: string;
  forms: HtmlForm[];
  /** Buttons outside any form (controls a script handles). */
  buttons: Control[];
  /** The text of the page's alerts (role=alert): a refused password's message, say. */
  alerts: string[];
  /** Whether the page runs scripts (a page with no form may build one). */
  scripted: boolean;
}

const SUBMIT_TYPES = new Set(['submit', 'image']);

/** A control that submits its form when pressed. */
export const isSubmit = (control: Control): boolean => SUBMIT_TYPES.has(control.type);

/** The fields a form posts without a submitter, as name → value. */
export function formFields(form: HtmlForm): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const control of form.controls)
    if (control.name && control.submitted && !isSubmit(control) && control.type !== 'button')
      fields[control.name] = control.value;
  return fields;
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

const squeezed = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Label text by the id it is `for`, and by each control it contains. */
function labelTexts(root: Node): { byId: Map<string, string>; byControl: Map<Element, string> } {
  const byId = new Map<string, string>();
  const byControl = new Map<Element, string>();
  for (const label of descendants(root)) {
    if (label.tagName !== 'label') continue;
    const text = squeezed(textOf(label));
    const target = attribute(label, 'for');
    if (target) byId.set(target, text);
    for (const control of descendants(label)) byControl.set(control, text);
  }
  return { byId, byControl };
}

export function parsePage(html: string, url: string): HtmlPage {
  const document = parse(html);
  const elements = [...descendants(document)];
  const ids = new Map(
    elements.flatMap((element) => {
      const id = attribute(element, 'id');
      return id ? [[id, element] as const] : [];
    }),
  );
  const labels = labelTexts(document);
  const labelledBy = (element: Element): string =>
    (attribute(element, 'aria-labelledby') ?? '')
      .split(/\s+/)
      .map((id) => ids.get(id))
      .map((target) => (target ? squeezed(textOf(target)) : ''))
      .join(' ')
      .trim();
  const control = (element: Element, index: number): Control => {
    const isButton = element.tagName === 'button';
    const type = (attribute(element, 'type') ?? (isButton ? 'submit' : 'text')).toLowerCase();
    const id = attribute(element, 'id');
    const disabled = attribute(element, 'disabled') !== undefined;
    const unchecked =
      (type === 'checkbox' || type === 'radio') && attribute(element, 'checked') === undefined;
    return {
      index,
      name: attribute(element, 'name') || undefined,
      value: attribute(element, 'value') ?? '',
      type,
      label:
        labelledBy(element) ||
        attribute(element, 'aria-label') ||
        labels.byControl.get(element) ||
        (id && labels.byId.get(id)) ||
        (isButton ? squeezed(textOf(element)) : '') ||
        attribute(element, 'placeholder') ||
        attribute(element, 'title') ||
        attribute(element, 'alt') ||
        '',
      autocomplete: attribute(element, 'autocomplete'),
      required: attribute(element, 'required') !== undefined,
      submitted: !disabled && !unchecked,
    };
  };
  const controls = elements.filter((element) => element.tagName === 'input' || element.tagName === 'button');
  const byElement = new Map(controls.map((element, index) => [element, control(element, index)]));
  const inForm = new Set<Element>();
  const forms = elements
    .filter((element) => element.tagName === 'form')
    .map((form): HtmlForm => {
      const own = [...descendants(form)].filter((element) => byElement.has(element));
      for (const element of own) inForm.add(element);
      return {
        action: new URL(attribute(form, 'action') || url, url).toString(),
        method: (attribute(form, 'method') ?? 'GET').toUpperCase(),
        controls: own.flatMap((element) => byElement.get(element) ?? []),
      };
    });
  const title = elements.find((element) => element.tagName === 'title');
  return {
    url,
    title: title ? squeezed(textOf(title)) : '',
    forms,
    buttons: controls
      .filter((element) => !inForm.has(element))
      .flatMap((element) => byElement.get(element) ?? [])
      .filter((found) => found.type !== 'hidden'),
    alerts: elements
      .filter((element) => attribute(element, 'role') === 'alert')
      .map((element) => squeezed(textOf(element)))
      .filter(Boolean),
    scripted: elements.some((element) => element.tagName === 'script' && isExecutable(element)),
  };
}

/** A <script> the browser runs (not a data block such as application/json). */
function isExecutable(script: Element): boolean {
  const type = (attribute(script, 'type') ?? '').toLowerCase();
  return type === '' || type === 'module' || type.includes('javascript');
}
