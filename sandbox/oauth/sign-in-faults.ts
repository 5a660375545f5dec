// The faults of the sandbox's own sign-in (sandbox/faults/user.ts, area auth), as a real authorization
// server breaks: its authorization endpoint answers 500 or 404 (from the first sign-in, or mid-run: from the
// second on, or option brokenFromSignIn's), redirects to itself without end on every other sign-in, its login post answers 503, its token
// endpoint 503. A sign-in is one authorization request, told apart by its state (a reload is the same
// sign-in); SignInCount numbers them for these faults and for the captcha of option captchaFromSignIn.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { USER_TOKEN_PATH } from '../variant-responses.ts';
import { AUTHORIZE_PATH, errorPage } from './pages.ts';
import { type Fields, html } from './replies.ts';

/** The sign-ins of an instance, in the order their authorization requests came, by state. */
export class SignInCount {
  readonly #states: string[] = [];

  /** The number of the sign-in of `state` (1 for the first), counting it when new. */
  of(state: string | undefined): number {
    const key = state ?? '';
    if (!this.#states.includes(key)) this.#states.push(key);
    return this.#states.indexOf(key) + 1;
  }
}

const pathOf = (url: string): string => url.split('?')[0] ?? url;

export function registerSignInFaults(app: FastifyInstance, ctx: SandboxContext, count: SignInCount): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    if (path === AUTHORIZE_PATH && request.method === 'GET') {
      const signIn = count.of((request.query as Fields).state);
      // Every other sign-in (the first, the third...) is sent back where it came from, again and again.
      if (ctx.fault('oauth-authorize-redirect-loop') && signIn % 2 === 1)
        return reply.redirect(request.url, 302);
      const later = signIn >= (ctx.options.brokenFromSignIn ?? 2);
      if (ctx.fault('oauth-authorize-500') || (ctx.fault('oauth-authorize-500-mid-run') && later))
        return html(reply, 500, errorPage('Internal Server Error: the sign-in is unavailable.'));
      if (ctx.fault('oauth-authorize-404') || (ctx.fault('oauth-authorize-404-mid-run') && later))
        return html(reply, 404, errorPage('Not Found'));
    }
    if (path === AUTHORIZE_PATH && request.method === 'POST' && ctx.fault('oauth-login-post-503'))
      return html(reply, 503, errorPage('Service Unavailable: try again later.'));
    if (path === USER_TOKEN_PATH && request.method === 'POST' && ctx.fault('oauth-token-503'))
      return reply.code(503).send({ error: 'temporarily_unavailable', error_description: 'try again later' });
    return undefined;
  });
}
