// The sandbox's checkbox consent sign-in (--login-page checkboxes; variants checkbox-consent and
// checkbox-consent-unticked), over plain HTTP as a browser would post it: the e-mail, the password, then a
// consent page whose scopes are checkboxes named scope (ticked but for what the user unticked) under a
// nameless "Allow" input. The grant holds exactly the scopes the consent form submitted, never one that was
// not asked for; the Deny form refuses.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { credentials, redirectUriFor, start, tokenRequest } from './sandbox-client.ts';

const ASKED = ['read:cycles', 'read:sleep', 'read:workout', 'offline'];

/** Signs user A in up to the consent page; `consent` posts that page's form with the fields given. */
async function toConsent(sandbox: RunningSandbox) {
  const query = new URLSearchParams({
    client_id: credentials.client.clientId,
    redirect_uri: redirectUriFor(sandbox),
    response_type: 'code',
    scope: ASKED.join(' '),
    state: 'state-12345678',
  });
  const opened = await fetch(`${sandbox.authUrl}/oauth/oauth2/auth?${query}`);
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await opened.text())?.[1] ?? '';
  const [user] = credentials.users;
  const post = (fields: [string, string][]) =>
    fetch(`${sandbox.authUrl}/oauth/oauth2/auth`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
      body: new URLSearchParams([['csrf_token', csrf], ...fields]),
    });
  await post([
    ['step', 'identify'],
    ['loginfmt', user?.username ?? ''],
  ]);
  const page = await (
    await post([
      ['step', 'login'],
      ['passwd', user?.password ?? ''],
    ])
  ).text();
  return { page, consent: (fields: [string, string][]) => post([['step', 'consent'], ...fields]) };
}

/** The scope of the token the redirect's code is exchanged for. */
async function grantedScope(sandbox: RunningSandbox, redirect: Response): Promise<string> {
  const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const fields = { grant_type: 'authorization_code', code, redirect_uri: redirectUriFor(sandbox) };
  return ((await (await tokenRequest(sandbox, fields)).json()) as { scope: string }).scope;
}

const boxes = (page: string) =>
  [...page.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"( checked)?>/g)].map(
    ([, scope, checked]) => `${scope}${checked ? '' : ' (unticked)'}`,
  );

for (const [name, options, shown] of [
  ['--login-page checkboxes', { loginPage: 'checkboxes' }, ASKED],
  ['variant checkbox-consent', { variants: ['checkbox-consent'] }, ASKED],
  [
    'variant checkbox-consent-unticked',
    { variants: ['checkbox-consent-unticked'] },
    ASKED.map((scope) => (scope === 'read:workout' ? `${scope} (unticked)` : scope)),
  ],
] as [string, SandboxInput, string[]][])
  test(`${name}: one box per scope asked for, under a nameless Allow input`, async () => {
    const sandbox = await start(options);
    try {
      const { page } = await toConsent(sandbox);
      expect(boxes(page)).toEqual(shown);
      expect(page).toContain('<input type="submit" value="Allow">');
    } finally {
      await sandbox.close();
    }
  });

test('the grant holds exactly the scopes submitted, never one not asked for; Deny refuses', async () => {
  const sandbox = await start({ loginPage: 'checkboxes' });
  try {
    const some = await (await toConsent(sandbox)).consent([
      ['scope', 'read:sleep'],
      ['scope', 'read:profile'],
      ['scope', 'read:cycles'],
    ]);
    expect(some.status).toBe(302);
    expect(await grantedScope(sandbox, some)).toBe('read:cycles read:sleep');
    const one = await (await toConsent(sandbox)).consent([['scope', 'offline']]);
    expect(await grantedScope(sandbox, one)).toBe('offline');
    const denied = await (await toConsent(sandbox)).consent([['decision', 'deny']]);
    expect(new URL(denied.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  } finally {
    await sandbox.close();
  }
});
