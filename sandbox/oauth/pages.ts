// HTML pages of the user OAuth flow: the page skeleton and its parts (shared with the served sign-in pages
// of sandbox/oauth/login-pages.ts), the realistic sign-in (option realisticLogin: the login form, then the
// consent form, each built in the browser by an inline script from a JSON description, like a single-page
// sign-in app, and each posting the session's CSRF token; the served HTML carries no <form>, so only a client
// that runs scripts can sign in), an error page and the callback page.
import type { AuthorizationRequest } from './authorize.ts';

export const AUTHORIZE_PATH = '/oauth/oauth2/auth';

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const page = (title: string, body: string, lang = 'en'): string =>
  `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;

export const hidden = (name: string, value: string): string =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export const scopeList = (request: AuthorizationRequest, asks = 'asks for access to:'): string =>
  `<p><strong>${escapeHtml(request.client.clientId)}</strong> ${asks}</p><ul id="scopes">${request.scopes
    .map((scope) => `<li>${escapeHtml(scope)}</li>`)
    .join('')}</ul>`;

export const alert = (error: string | undefined): string =>
  error ? `<p id="error" role="alert">${escapeHtml(error)}</p>` : '';

/** What the inline script of a realistic page turns into a form. */
export interface FormSpec {
  action: string;
  hidden: Record<string, string>;
  fields: { label: string; name: string; type: string; autocomplete: string }[];
  buttons: { label: string; name: string; value: string }[];
}

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const BUILD_FORM = `(() => {
  const spec = JSON.parse(document.getElementById('form-spec').textContent);
  const make = (tag, props) => Object.assign(document.createElement(tag), props);
  const form = make('form', { method: 'post', action: spec.action });
  for (const [name, value] of Object.entries(spec.hidden)) form.append(make('input', { type: 'hidden', name, value }));
  for (const field of spec.fields) {
    const label = make('label', { textContent: field.label + ' ' });
    label.append(make('input', { type: field.type, name: field.name, autocomplete: field.autocomplete, required: true }));
    form.append(make('p'), label);
  }
  for (const button of spec.buttons) form.append(make('button', { type: 'submit', name: button.name, value: button.value, textContent: button.label }));
  document.getElementById('app').append(form);
})();`;

const scriptedForm = (spec: FormSpec): string =>
  [
    '<div id="app"></div>',
    '<noscript><p>This page needs JavaScript.</p></noscript>',
    `<script type="application/json" id="form-spec">${scriptJson(spec)}</script>`,
    `<script>${BUILD_FORM}</script>`,
  ].join('\n');

/** The realistic sign-in's first step: username and password, posted with the session's CSRF token. */
export function scriptedLoginPage(request: AuthorizationRequest, csrfToken: string, error?: string): string {
  return page(
    'Sign in',
    [
      '<h1>Sign in to the Physiology Data sandbox</h1>',
      alert(error),
      scriptedForm({
        action: AUTHORIZE_PATH,
        hidden: { step: 'login', csrf_token: csrfToken },
        fields: [
          { label: 'Email', name: 'username', type: 'text', autocomplete: 'username' },
          { label: 'Password', name: 'password', type: 'password', autocomplete: 'current-password' },
        ],
        buttons: [{ label: 'Sign in', name: 'action', value: 'login' }],
      }),
      scopeList(request),
    ].join('\n'),
  );
}

/** The realistic sign-in's second step: allow or deny the scopes asked for. */
export function consentPage(request: AuthorizationRequest, csrfToken: string): string {
  return page(
    'Allow access',
    [
      '<h1>Allow access?</h1>',
      scopeList(request),
      scriptedForm({
        action: AUTHORIZE_PATH,
        hidden: { step: 'consent', csrf_token: csrfToken },
        fields: [],
        buttons: [
          { label: 'Allow', name: 'decision', value: 'allow' },
          { label: 'Deny', name: 'decision', value: 'deny' },
        ],
      }),
    ].join('\n'),
  );
}

/** The form description a realistic page embeds (for the sandbox's own self tests and benchmark). */
export function formSpecOf(html: string): FormSpec | undefined {
  const match = /<script type="application\/json" id="form-spec">([\s\S]*?)<\/script>/.exec(html);
  return match?.[1] ? (JSON.parse(match[1]) as FormSpec) : undefined;
}

export function errorPage(message: string): string {
  return page(
    'Authorization error',
    `<h1>Authorization error</h1>\n<p id="error" role="alert">${escapeHtml(message)}</p>`,
  );
}

export function callbackPage(query: Record<string, string>): string {
  const rows = Object.entries(query)
    .map(
      ([name, value]) => `<dt>${escapeHtml(name)}</dt><dd id="${escapeHtml(name)}">${escapeHtml(value)}</dd>`,
    )
    .join('');
  return page('Authorization callback', `<h1>Authorization callback</h1>\n<dl>${rows}</dl>`);
}
