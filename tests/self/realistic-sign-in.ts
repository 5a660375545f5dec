// The realistic sandbox sign-in (option realisticLogin) driven over plain HTTP, standing in for a person's
// browser in the self tests: it reads the form description the page's script would render, and carries the
// session cookie and CSRF token from step to step.
import type { RunningSandbox } from '../../sandbox/app.ts';
import { AUTHORIZE_PATH, formSpecOf } from '../../sandbox/oauth/pages.ts';
import { SESSION_COOKIE } from '../../sandbox/oauth/sessions.ts';
import { ALL_SCOPES, credentials, redirectUriFor } from './sandbox-client.ts';

export interface SignInStep {
  status: number;
  location: string | null;
  html: string;
}

export interface RealisticSignIn {
  /** The served sign-in page (GET). */
  page: SignInStep;
  cookie: string;
  /** Posts the last form shown with `fields` added (and `override` replacing its hidden fields). */
  submit(fields: Record<string, string>, override?: Record<string, string>): Promise<SignInStep>;
}

async function step(response: Response): Promise<SignInStep> {
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** Opens a sign-in at `authorizationUrl` (default: the sandbox client, every scope, a fixed state). */
export async function openSignIn(
  sandbox: RunningSandbox,
  authorizationUrl?: string,
): Promise<RealisticSignIn> {
  const query = new URLSearchParams({
    client_id: credentials.client.clientId,
    redirect_uri: redirectUriFor(sandbox),
    response_type: 'code',
    scope: ALL_SCOPES.join(' '),
    state: 'state-12345678',
  });
  const url = authorizationUrl ?? `${sandbox.authUrl}${AUTHORIZE_PATH}?${query}`;
  const response = await fetch(url);
  const session = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const page = await step(response);
  const cookie = session.startsWith(`${SESSION_COOKIE}=`) ? session : '';
  let current = page;
  return {
    page,
    cookie,
    async submit(fields, override = {}) {
      const spec = formSpecOf(current.html);
      if (!spec) throw new Error(`the page carries no form description (status ${current.status})`);
      const response = await fetch(new URL(spec.action, sandbox.authUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie },
        body: new URLSearchParams({ ...spec.hidden, ...override, ...fields }),
      });
      const answer = await step(response);
      // The next submission posts the form of the last page that had one (an error page has none).
      if (formSpecOf(answer.html)) current = answer;
      return answer;
    },
  };
}

/** A whole sign-in of `user` with consent `decision`: the final step (a 302 to the redirect URI). */
export async function realisticSignIn(
  sandbox: RunningSandbox,
  options: { user?: 'A' | 'B'; decision?: 'allow' | 'deny'; authorizationUrl?: string } = {},
): Promise<SignInStep> {
  const user = credentials.users[options.user === 'B' ? 1 : 0];
  if (!user) throw new Error('the sandbox has no such user');
  const signIn = await openSignIn(sandbox, options.authorizationUrl);
  const login = await signIn.submit({ username: user.username, password: user.password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  return signIn.submit({ decision: options.decision ?? 'allow' });
}
