// Plain HTML pages of the user OAuth flow: the login-and-consent form, an error page and the callback page.
import type { AuthorizationRequest } from './authorize.ts';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const page = (title: string, body: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;

const hidden = (name: string, value: string): string =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function loginPage(request: AuthorizationRequest, error?: string): string {
  const scopes = request.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('');
  return page(
    'Sign in',
    [
      '<h1>Sign in to the Physiology Data sandbox</h1>',
      `<p><strong>${escapeHtml(request.client.clientId)}</strong> asks for access to:</p><ul id="scopes">${scopes}</ul>`,
      error ? `<p id="error" role="alert">${escapeHtml(error)}</p>` : '',
      '<form method="post" action="/oauth/oauth2/auth">',
      hidden('client_id', request.client.clientId),
      hidden('redirect_uri', request.redirectUri),
      hidden('response_type', 'code'),
      hidden('scope', request.scopes.join(' ')),
      hidden('state', request.state),
      '<label>Username <input type="text" name="username" autocomplete="username"></label>',
      '<label>Password <input type="password" name="password" autocomplete="current-password"></label>',
      '<button type="submit" name="action" value="approve">Allow access</button>',
      '<button type="submit" name="action" value="deny">Deny</button>',
      '</form>',
    ].join('\n'),
  );
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
