// Reads a login or consent page with a real HTML parser (parse5): its title, its forms (where each posts, its
// fields and its submit buttons), the buttons outside any form, its alerts, its frames (where each loads
// from), and whether scripts run there.
// Each control keeps what a person sees it called (label, accessible name, placeholder...), so that the
// credential fields and the affirmative button can be told apart, what it would submit (src/auth/form-data.ts
// builds the form data set from that), and its rank among the page's `input, button, select, textarea`
// elements in document order, so that a browser acts on the same element (src/auth/browser-page.ts reads
// its rendered DOM with this module too). A page whose form is built by script has no form here.
import { type DefaultTreeAdapterMap, parse } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** The elements a control is (the browser's selector counts the same, in the same order). */
export const CONTROL_SELECTOR = 'input, button, select, textarea';
const CONTROL_TAGS = new Set(CONTROL_SELECTOR.split(', '));

export interface Control {
  /** Rank among the page's CONTROL_SELECTOR elements in document order (the browser's selector). */
  index: number;
  name?: string;
  /** An input's or button's value, a textarea's text, a select's first selected option's value. */
  value: string;
  /**
   * The input type (text, email, password, hidden, checkbox...), submit, button or reset for buttons,
   * select-one, select-multiple or textarea.
   */
  type: string;
  /** Its accessible name, roughly: aria-labelledby text, aria-label, label, text, placeholder, title, alt. */
  label: string;
  autocomplete?: string;
  /** The `required` attribute: the form is not sent without it (a person must fill it). */
  required: boolean;
  /** Unchecked checkboxes and radios, disabled controls (a disabled fieldset's too): not submitted. */
  submitted: boolean;
  /** The values it submits under its name: a checkbox's "on" when it has none, a select's selected options'. */
  values: string[];
  /** A submit button's own formaction and formmethod, which override its form's. */
  formAction?: string;
  formMethod?: string;
  /** An input's dirname: its direction is submitted under that name too. */
  dirname?: string;
}

export interface HtmlForm {
  action: string;
  method: string;
  /** Every control of the form (its descendants, and those naming it by their form attribute), in document order. */
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
  /** Where the page's frames (`<iframe src>`, `<frame src>`) load from, in document order: absolute http(s) URLs. */
  frames: string[];
}

const SUBMIT_TYPES = new Set(['submit', 'image']);

/** A control that submits its form when pressed. */
export const isSubmit = (control: Control): boolean => SUBMIT_TYPES.has(control.type);

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

const INPUT_TYPES = new Set(
  'hidden text search tel url email password date month week time datetime-local number range color checkbox radio file submit image reset button'.split(
    ' ',
  ),
);
const BUTTON_TYPES = new Set(['submit', 'reset', 'button']);

/** A control's type as the browser reads it: an unknown input type is text, an unknown button type submit. */
function typeOf(element: Element): string {
  const given = (attribute(element, 'type') ?? '').toLowerCase();
  if (element.tagName === 'button') return BUTTON_TYPES.has(given) ? given : 'submit';
  if (element.tagName === 'textarea') return 'textarea';
  if (element.tagName === 'select')
    return attribute(element, 'multiple') === undefined ? 'select-one' : 'select-multiple';
  return INPUT_TYPES.has(given) ? given : 'text';
}

/** A button: what the form data set takes only from the submitter (reset and plain buttons, never). */
export const isButton = (control: Control): boolean =>
  BUTTON_TYPES.has(control.type) || control.type === 'image';

const parentOf = (node: Node): Element | undefined => {
  const parent = 'parentNode' in node ? node.parentNode : null;
  return parent && isElement(parent) ? parent : undefined;
};

/** Disabled itself, or inside a disabled fieldset (but for that fieldset's first legend). */
function isDisabled(element: Element): boolean {
  if (attribute(element, 'disabled') !== undefined) return true;
  for (let child = element, parent = parentOf(element); parent; child = parent, parent = parentOf(parent)) {
    if (parent.tagName !== 'fieldset' || attribute(parent, 'disabled') === undefined) continue;
    const legend = parent.childNodes.find((node) => isElement(node) && node.tagName === 'legend');
    if (child !== legend) return true;
  }
  return false;
}

/**
 * The values a select submits: its selected options that are not disabled (nor in a disabled optgroup). One
 * that is not multiple keeps its last selected option, and with none selected (and a display size of 1)
 * shows its first enabled option.
 */
function selectValues(select: Element): string[] {
  const options = [...descendants(select)].filter((element) => element.tagName === 'option');
  const multiple = attribute(select, 'multiple') !== undefined;
  const size = Number(attribute(select, 'size') ?? (multiple ? 4 : 1));
  const disabled = (option: Element) => {
    const group = parentOf(option);
    return (
      isDisabled(option) || (group?.tagName === 'optgroup' && attribute(group, 'disabled') !== undefined)
    );
  };
  let selected = options.filter((option) => attribute(option, 'selected') !== undefined);
  if (!multiple) selected = selected.slice(-1);
  if (!multiple && selected.length === 0 && !(size > 1))
    selected = options.filter((option) => !disabled(option)).slice(0, 1);
  return selected
    .filter((option) => !disabled(option))
    .map((option) => attribute(option, 'value') ?? squeezed(textOf(option)));
}

/** What a control submits under its name (HTML "constructing the entry list"). */
function submittedValues(element: Element, type: string): string[] {
  if (type === 'select-one' || type === 'select-multiple') return selectValues(element);
  if (type === 'textarea') return [textOf(element)];
  const value = attribute(element, 'value');
  if (type === 'checkbox' || type === 'radio') return [value ?? 'on'];
  if (type === 'hidden' && attribute(element, 'name')?.toLowerCase() === '_charset_') return ['UTF-8'];
  return [value ?? ''];
}

/** What a control's reading needs of its page: its address, its elements by id, and its labels. */
interface PageIndex {
  url: string;
  ids: ReadonlyMap<string, Element>;
  labels: ReturnType<typeof labelTexts>;
}

/** A control's label, as a person reads it: aria first, then a <label>, a button's text, the hints. */
function labelOf(element: Element, { ids, labels }: PageIndex): string {
  const labelledBy = (attribute(element, 'aria-labelledby') ?? '')
    .split(/\s+/)
    .map((id) => ids.get(id))
    .map((target) => (target ? squeezed(textOf(target)) : ''))
    .join(' ')
    .trim();
  const id = attribute(element, 'id');
  return (
    labelledBy ||
    attribute(element, 'aria-label') ||
    labels.byControl.get(element) ||
    (id && labels.byId.get(id)) ||
    (element.tagName === 'button' ? squeezed(textOf(element)) : '') ||
    attribute(element, 'placeholder') ||
    attribute(element, 'title') ||
    attribute(element, 'alt') ||
    ''
  );
}

function controlOf(element: Element, index: number, page: PageIndex): Control {
  const type = typeOf(element);
  const unchecked = (type === 'checkbox' || type === 'radio') && attribute(element, 'checked') === undefined;
  const values = submittedValues(element, type);
  const submits = type === 'submit' || type === 'image';
  const formAction = submits ? attribute(element, 'formaction') : undefined;
  const formMethod = submits ? attribute(element, 'formmethod')?.toUpperCase() : undefined;
  const dirname = ['text', 'search', 'textarea'].includes(type) ? attribute(element, 'dirname') : undefined;
  return {
    index,
    name: attribute(element, 'name') || undefined,
    value: values[0] ?? '',
    type,
    label: labelOf(element, page),
    autocomplete: attribute(element, 'autocomplete'),
    required: attribute(element, 'required') !== undefined,
    submitted: !isDisabled(element) && !unchecked,
    values,
    ...(formAction ? { formAction: new URL(formAction, page.url).toString() } : {}),
    ...(formMethod ? { formMethod } : {}),
    ...(dirname ? { dirname } : {}),
  };
}

/** The form a control belongs to: the one its form attribute names, else the nearest form around it. */
function ownerOf(element: Element, ids: ReadonlyMap<string, Element>): Element | undefined {
  const named = attribute(element, 'form');
  if (named !== undefined) {
    const owner = ids.get(named);
    return owner?.tagName === 'form' ? owner : undefined;
  }
  for (let parent = parentOf(element); parent; parent = parentOf(parent))
    if (parent.tagName === 'form') return parent;
  return undefined;
}

/** The http(s) addresses of the page's frames. */
const frameAddresses = (elements: readonly Element[], url: string): string[] =>
  elements.flatMap((element) => {
    const src = element.tagName === 'iframe' || element.tagName === 'frame' ? attribute(element, 'src') : '';
    const address = src ? URL.parse(src, url) : null;
    return address && /^https?:$/.test(address.protocol) ? [address.toString()] : [];
  });

export function parsePage(html: string, url: string): HtmlPage {
  const document = parse(html);
  const elements = [...descendants(document)];
  const ids = new Map(
    elements.flatMap((element) => {
      const id = attribute(element, 'id');
      return id ? [[id, element] as const] : [];
    }),
  );
  const page: PageIndex = { url, ids, labels: labelTexts(document) };
  const controls = elements
    .filter((element) => CONTROL_TAGS.has(element.tagName))
    .map((element, index) => ({ owner: ownerOf(element, ids), control: controlOf(element, index, page) }));
  const forms = elements
    .filter((element) => element.tagName === 'form')
    .map(
      (form): HtmlForm => ({
        action: new URL(attribute(form, 'action') || url, url).toString(),
        method: (attribute(form, 'method') ?? 'GET').toUpperCase(),
        controls: controls.filter(({ owner }) => owner === form).map(({ control }) => control),
      }),
    );
  const title = elements.find((element) => element.tagName === 'title');
  return {
    url,
    title: title ? squeezed(textOf(title)) : '',
    forms,
    buttons: controls
      .filter(({ owner, control }) => owner === undefined && isButton(control))
      .map(({ control }) => control),
    alerts: elements
      .filter((element) => attribute(element, 'role') === 'alert')
      .map((element) => squeezed(textOf(element)))
      .filter(Boolean),
    scripted: elements.some((element) => element.tagName === 'script' && isExecutable(element)),
    frames: frameAddresses(elements, url),
  };
}

/** A <script> the browser runs (not a data block such as application/json). */
function isExecutable(script: Element): boolean {
  const type = (attribute(script, 'type') ?? '').toLowerCase();
  return type === '' || type === 'module' || type.includes('javascript');
}
