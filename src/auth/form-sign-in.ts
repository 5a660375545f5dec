// Signs a user in over plain HTTP, for authorization pages that serve their forms as HTML (the embedded
// sandbox's): it follows redirects, fills the first form of each page (src/auth/html-form.ts) like a person
// would, and stops at the redirect to the redirect URI. A page whose form a script builds defeats it: that
// takes a browser (src/auth/browser-sign-in.ts).
import type { ApiClient } from '../http/api-client.ts';
import { describeExchange, type Exchange, exchangeLine } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';
import { type CodeSource, codeFromRedirect, type SignInAccount } from './authorization-request.ts';
import type { HtmlForm } from './html-form.ts';
import { parseForm } from './html-form.ts';

const MAX_FORM_STEPS = 4;
const USERNAME = /user|e-?mail|login|account/i;

function location(exchange: Exchange): URL | undefined {
  const value = exchange.headers.location;
  return value ? new URL(value, exchange.request.url) : undefined;
}

/** The form's fields with the password and the username (the text or email field called so) filled in. */
function fill(form: HtmlForm, account: SignInAccount): Record<string, string> {
  const filled = { ...form.fields };
  for (const [name, type] of Object.entries(form.types)) {
    if (type === 'password') filled[name] = account.password;
    else if ((type === 'text' || type === 'email') && USERNAME.test(`${form.labels[name]} ${name}`))
      filled[name] = account.username;
  }
  return filled;
}

function submit(api: ApiClient, form: HtmlForm, fields: Record<string, string>): Promise<Exchange> {
  const headers = { accept: 'text/html' };
  return form.method === 'POST'
    ? api.send({ method: 'POST', path: form.action, form: fields, headers })
    : api.send({ path: form.action, query: fields, headers });
}

/** The HTTP form filler as a sign-in, its requests sent (and recorded) through `api`. */
export const formSignIn =
  (api: ApiClient): CodeSource =>
  async (request, account) => {
    let exchange = await api.send({ path: request.url, headers: { accept: 'text/html' } });
    const chain = [exchange];
    for (let step = 0; step < MAX_FORM_STEPS; step++) {
      const redirect = location(exchange);
      const outcome = redirect && codeFromRedirect(redirect.toString(), account.redirectUri, request.state);
      if (outcome && 'code' in outcome) return outcome.code;
      if (outcome) throw new Error(`Authorization failed: ${outcome.error}`);
      if (redirect) {
        exchange = await api.send({ path: redirect.toString(), headers: { accept: 'text/html' } });
      } else {
        const form = exchange.status === 200 ? parseForm(exchange.text, exchange.request.url) : undefined;
        if (!form)
          throw new Error(
            `Authorization page did not offer a form or a redirect (a page built by script needs a browser: CONFORMANCE_SIGN_IN=browser): ${describeExchange(exchange)}`,
          );
        exchange = await submit(api, form, fill(form, account));
      }
      chain.push(exchange);
    }
    const steps = chain.map((link, index) => `  ${index + 1}. ${exchangeLine(link)}`).join('\n');
    throw new Error(
      `Authorization did not reach the redirect URI ${redactText(account.redirectUri)} within ${MAX_FORM_STEPS} steps (a redirect loop?); the requests:\n${steps}\n  last: ${describeExchange(exchange)}`,
    );
  };
