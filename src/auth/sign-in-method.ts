// Which sign-in a user gets (CONFORMANCE_SIGN_IN): `form`, the HTTP form filler only; `browser`, Chromium
// only; by default the page decides: a served HTML form is filled over HTTP, with no browser, and a page that
// builds its form by script goes to the browser (from then on, for this source: the target's pages are all
// of a kind).
import type { AuthSettings } from '../config/suite-config.ts';
import type { ApiClient } from '../http/api-client.ts';
import type { CodeSource } from './authorization-request.ts';
import type { BrowserSignIn } from './browser-sign-in.ts';
import { formSignIn } from './form-sign-in.ts';
import { PageBuiltByScript } from './sign-in-errors.ts';

export function codeSourceFor(
  method: AuthSettings['signIn'],
  api: ApiClient,
  browser: BrowserSignIn,
): CodeSource {
  if (method === 'browser') return browser.codeSource;
  const filler = formSignIn(api);
  if (method === 'form') return filler;
  let scripted = false;
  return async (request, account, journal) => {
    if (scripted) return browser.codeSource(request, account, journal);
    try {
      return await filler(request, account, journal);
    } catch (error) {
      if (!(error instanceof PageBuiltByScript)) throw error;
      scripted = true;
      return browser.codeSource(request, account, journal);
    }
  };
}
