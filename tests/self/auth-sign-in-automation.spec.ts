// Where the sign-in automation cannot find its way, it says what it saw: a page with no usable form is a
// SignInAutomationError describing the page (and, in the browser, a screenshot; the browser's advises a
// person's sign-in, never the browser it already is), a loop shows as a request
// sent again the same, while a long flow of many pages passes. The affirmative control is read in the common
// languages and a refusal is never chosen.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { authorizationRequest } from '../../src/auth/authorization-request.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import { decisionOf } from '../../src/auth/consent-words.ts';
import { formSignIn } from '../../src/auth/form-sign-in.ts';
import { parsePage } from '../../src/auth/html-form.ts';
import { BrowserCrashed, BrowserSignInStuck, SignInAutomationError } from '../../src/auth/sign-in-errors.ts';
import { signInStep } from '../../src/auth/sign-in-step.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { signInRunError } from '../../src/protocol/run-errors.ts';
import { browserToo, needsChromium } from './chromium.ts';

test('allow and deny are read in en, fr, de, es, it, pt and nl; deny wins', () => {
  for (const allow of [
    'Allow access',
    'Authorize',
    'Accept',
    'Approve',
    'I agree',
    'Autoriser l’accès',
    'Accepter',
    'Erlauben',
    'Zulassen',
    'Zustimmen',
    'Permitir',
    'Autorizar',
    'Aceptar',
    'Consenti',
    'Autorizza',
    'Accetta',
    'Aceitar',
    'Toestaan',
    'Akkoord',
    'user_oauth_approval',
  ])
    expect(decisionOf([allow]), allow).toBe('allow');
  for (const deny of [
    'Deny',
    'Cancel',
    'Decline',
    "Don't allow",
    'Refuser',
    'Annuler',
    'Ne pas autoriser',
    'Ablehnen',
    'Abbrechen',
    'Nicht erlauben',
    'Rechazar',
    'Cancelar',
    'No permitir',
    'Rifiuta',
    'Annulla',
    'Recusar',
    'Weigeren',
    'Annuleren',
  ])
    expect(decisionOf([deny]), deny).toBe('deny');
  for (const neutral of ['Sign in', 'Se connecter', 'Anmelden', 'Continue', 'Next', 'Iniciar sesión'])
    expect(decisionOf([neutral]), neutral).toBeUndefined();
});

const pageOf = (body: string) =>
  parsePage(`<!doctype html><title>t</title>${body}`, 'http://target.test/auth');

test('the step rule presses the affirmative control, wherever it stands, and never a refusal', () => {
  const consent = signInStep(
    pageOf(
      '<form method="post"><button name="c" value="1">Refuser</button><button name="c" value="2" aria-label="Autoriser"><svg></svg></button></form>',
    ),
  );
  expect(consent).toMatchObject({ kind: 'press', control: { name: 'c', value: '2' } });
  const refusals = signInStep(
    pageOf('<form method="post"><button>Cancel</button><button>Deny</button></form>'),
  );
  expect(refusals.kind).toBe('stuck');
  const login = signInStep(
    pageOf(
      '<form method="post"><label>Identifiant <input name="id"></label><input type="password" name="pw"><button name="a" value="0">Refuser</button><button name="a" value="1">Autoriser</button></form>',
    ),
  );
  expect(login).toMatchObject({
    kind: 'login',
    username: { name: 'id' },
    password: { name: 'pw' },
    submit: { value: '1' },
    byEnter: false,
  });
});

/** A target serving `pages` by path; every page may read the state of the authorization request. */
async function target(
  pages: Record<string, (state: string) => { status?: number; location?: string; html?: string }>,
) {
  let state = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    state = url.searchParams.get('state') ?? state;
    request.resume();
    request.on('end', () => {
      const page = pages[url.pathname]?.(state) ?? { status: 404, html: 'not found' };
      response.writeHead(page.status ?? (page.location ? 302 : 200), {
        'content-type': 'text/html',
        ...(page.location ? { location: page.location } : {}),
      });
      response.end(page.html ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

const html = (title: string, body: string) => `<!doctype html><title>${title}</title>${body}`;
const account = (origin: string) => ({
  username: 'someone',
  password: 'secret-pw',
  redirectUri: `${origin}/cb`,
});

async function fill(origin: string, path: string) {
  const transport = nodeTransport();
  try {
    const api = standaloneClient(transport, { baseUrl: origin });
    const login = { clientId: 'c', redirectUri: `${origin}/cb` };
    const request = authorizationRequest(origin, login, 'read:cycles', false);
    return await formSignIn(api)(
      { ...request, url: request.url.replace('/oauth/oauth2/auth', path) },
      account(origin),
    );
  } finally {
    transport.dispose();
  }
}

test('a page with no usable form: SignInAutomationError with the page described, by either sign-in; only the form filler advises the browser', async () => {
  const server = await target({
    '/maintenance': () => ({
      html: html('Maintenance', '<p>Back soon.</p><form action="/home"><button>Annuler</button></form>'),
    }),
  });
  try {
    const error = await fill(server.origin, '/maintenance').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInAutomationError);
    const message = (error as Error).message;
    for (const seen of ['/maintenance', '"Maintenance"', '"Annuler"', 'refuses or cancels'])
      expect(message).toContain(seen);
    expect(signInRunError(error)?.remedy).toContain('CONFORMANCE_SIGN_IN=browser');
    if (!browserToo()) return;
    const browser = new BrowserSignIn();
    try {
      const request = authorizationRequest(
        server.origin,
        { clientId: 'c', redirectUri: `${server.origin}/cb` },
        'x',
        false,
      );
      const failed = await browser
        .codeSource(
          { ...request, url: request.url.replace('/oauth/oauth2/auth', '/maintenance') },
          account(server.origin),
        )
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BrowserSignInStuck);
      expect((failed as Error).message).toContain('"Maintenance"');
      // The run already uses the browser: its remedy is a person's sign-in, never the browser again.
      expect(signInRunError(failed)).toMatchObject({
        kind: 'sign-in',
        remedy: expect.stringMatching(/login --headed/),
      });
      expect(signInRunError(failed)?.remedy).not.toContain('CONFORMANCE_SIGN_IN');
      const screenshot = (failed as SignInAutomationError).screenshot;
      expect(screenshot && existsSync(screenshot)).toBe(true);
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
});

test('a loop is a request sent again the same; a flow of many pages passes', async () => {
  const next = (path: string) =>
    html('Continuer', `<form method="post" action="${path}"><button type="submit">Continuer</button></form>`);
  const server = await target({
    '/loop': () => ({ html: next('/loop/next') }),
    '/loop/next': () => ({ location: '/loop' }),
    // Login, then six pages of their own (a notice, a second step, consent...), each a request or two.
    '/long': () => ({
      html: html(
        'Login',
        '<form method="post" action="/p1"><input name="u"><input type="password" name="p"></form>',
      ),
    }),
    '/p1': () => ({ location: '/p2' }),
    '/p2': () => ({ html: next('/p3') }),
    '/p3': () => ({ location: '/p4' }),
    '/p4': () => ({ html: next('/p5') }),
    '/p5': () => ({ html: next('/p6') }),
    '/p6': (state) => ({ location: `/cb?code=the-code&state=${state}` }),
  });
  try {
    const loop = await fill(server.origin, '/loop').catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(SignInAutomationError);
    expect((loop as Error).message).toMatch(/again, the same: the sign-in goes round in a loop/);
    expect(await fill(server.origin, '/long')).toEqual({ code: 'the-code' });
  } finally {
    await server.close();
  }
});

test("a page whose consent form is in a frame: the form filler follows a frame of the page's origin, never another's", async () => {
  const consent = html('Consent', '<form method="post" action="/consent"><button>Allow</button></form>');
  const server = await target({
    // A third party's widget first, then the page's own frame, which holds the form.
    '/framed': () => ({
      html: html(
        'Permissions',
        '<p>Allow?</p><iframe src="https://widgets.example.test/w"></iframe><iframe src="/frame"></iframe>',
      ),
    }),
    '/frame': () => ({ html: consent }),
    '/consent': (state) => ({ location: `/cb?code=the-code&state=${state}` }),
    '/elsewhere': () => ({
      html: html('Permissions', '<iframe src="https://widgets.example.test/w"></iframe>'),
    }),
  });
  try {
    expect(await fill(server.origin, '/framed')).toEqual({ code: 'the-code' });
    const stuck = await fill(server.origin, '/elsewhere').catch((e: unknown) => e);
    expect(stuck).toBeInstanceOf(SignInAutomationError);
    expect((stuck as Error).message).toMatch(
      /no form and no button, and its frames are of another origin[\s\S]*frames from https:\/\/widgets\.example\.test\/w/,
    );
  } finally {
    await server.close();
  }
});

test("a browser that crashes or closes under the sign-in is the runner's side, typed (no message is read)", async () => {
  needsChromium();
  const signIn = new BrowserSignIn({ stepTimeoutMs: 5_000 });
  const account = { username: 'ada', password: 'secret', redirectUri: 'http://127.0.0.1:9/callback' };
  const signInAt = (url: string) =>
    signIn.codeSource({ url, state: 'state' }, account).catch((error) => error);
  // A login page whose request closes the browser before it is answered.
  const server = createServer(() => void signIn.close());
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const closed = await signInAt(`http://127.0.0.1:${(server.address() as { port: number }).port}/login`);
    expect(closed).toBeInstanceOf(BrowserCrashed);
    expect(signInRunError(closed)).toMatchObject({ kind: 'browser', cause: expect.stringMatching(/closed/) });
    // Chromium's debugging page that crashes its renderer; the sign-in launches a browser again for it.
    const crashed = await signInAt('chrome://crash');
    expect(crashed).toBeInstanceOf(BrowserCrashed);
    expect(signInRunError(crashed)).toMatchObject({
      kind: 'browser',
      cause: expect.stringMatching(/page crashed/),
    });
  } finally {
    server.closeAllConnections();
    server.close();
    await signIn.close();
  }
});
