// The page's script (runs in the browser; the page is whole without it): the filters, their state in the
// URL's fragment (`#status=fail&area=Errors&level=MUST&q=limit`, so a link shows the same view; a fragment
// without `=` is an anchor), the Copy buttons of the curl lines, the failures' <details> opened for printing.

interface FilterState {
  status: string[];
  area: string;
  level: string;
  q: string;
}

const form = document.getElementById('filters') as HTMLFormElement | null;
const rows = [...document.querySelectorAll<HTMLTableRowElement>('tr[data-status]')];
const areas = [...document.querySelectorAll<HTMLElement>('section.area')];

const isFilterHash = (hash: string): boolean => hash.includes('=');

function stateOfHash(hash: string): FilterState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return {
    status: (params.get('status') ?? '').split(',').filter(Boolean),
    area: params.get('area') ?? '',
    level: params.get('level') ?? '',
    q: params.get('q') ?? '',
  };
}

function hashOf(state: FilterState): string {
  const params = new URLSearchParams();
  if (state.status.length > 0) params.set('status', state.status.join(','));
  for (const name of ['area', 'level', 'q'] as const) if (state[name]) params.set(name, state[name]);
  const text = params.toString();
  return text ? `#${text}` : '';
}

function stateOfForm(filters: HTMLFormElement): FilterState {
  const data = new FormData(filters);
  const text = (name: string) => String(data.get(name) ?? '');
  return {
    status: data.getAll('status').map(String),
    area: text('area'),
    level: text('level'),
    q: text('q').trim(),
  };
}

function showInForm(filters: HTMLFormElement, state: FilterState): void {
  for (const box of filters.querySelectorAll<HTMLInputElement>('input[name="status"]'))
    box.checked = state.status.includes(box.value);
  for (const name of ['area', 'level', 'q'] as const) {
    const field = filters.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
    if (field) field.value = state[name];
  }
}

function apply(state: FilterState): void {
  const q = state.q.toLowerCase();
  let shown = 0;
  for (const row of rows) {
    const match =
      (state.status.length === 0 || state.status.includes(row.dataset.status ?? '')) &&
      (!state.area || row.dataset.area === state.area) &&
      (!state.level || row.dataset.level === state.level) &&
      (!q || (row.textContent ?? '').toLowerCase().includes(q));
    row.hidden = !match;
    if (match) shown += 1;
  }
  for (const area of areas) area.hidden = !area.querySelector('tr[data-status]:not([hidden])');
  const count = document.getElementById('filter-count');
  if (count) count.textContent = `${shown} of ${rows.length} requirements shown`;
}

/** Filters from the form: applied, and kept in the URL (replacing it, so Back leaves the page). */
function fromForm(filters: HTMLFormElement): void {
  const state = stateOfForm(filters);
  apply(state);
  const { pathname, search } = window.location;
  history.replaceState(null, '', `${pathname}${search}${hashOf(state)}`);
}

/** The fragment: a filter state to show, or an anchor, shown whatever the filters hid. */
function fromHash(filters: HTMLFormElement): void {
  const { hash } = window.location;
  if (isFilterHash(hash)) {
    const state = stateOfHash(hash);
    showInForm(filters, state);
    apply(state);
    return;
  }
  const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  if (target?.closest('[hidden]')) {
    filters.reset();
    apply(stateOfForm(filters));
    target.scrollIntoView();
  }
}

if (form) {
  form.hidden = false;
  form.addEventListener('input', () => fromForm(form));
  form.addEventListener('change', () => fromForm(form));
  // A reset clears the fields after its event: read them once it has.
  form.addEventListener('reset', () => setTimeout(() => fromForm(form)));
  form.addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener('hashchange', () => fromHash(form));
  fromHash(form);
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy ?? '');
  if (!source) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = source.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied ✓';
    } catch {
      // A browser that refuses the clipboard here: the command is selected for a manual copy.
      getSelection()?.selectAllChildren(source);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
}

// Printing shows what the failures' and the not verified <details> hide on screen; a long body's folded lines
// and the requirements' evidence lists stay folded (their summary says how much), or the table takes dozens
// of pages.
const closed = () => [
  ...document.querySelectorAll<HTMLDetailsElement>(
    '#failures details:not(.fold):not([open]), #not-verified details:not([open])',
  ),
];
let openedForPrint: HTMLDetailsElement[] = [];
window.addEventListener('beforeprint', () => {
  openedForPrint = closed();
  for (const details of openedForPrint) details.open = true;
});
window.addEventListener('afterprint', () => {
  for (const details of openedForPrint) details.open = false;
});

export {};
