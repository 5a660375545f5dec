// The two-step sign-ins at {auth_url}/oauth/oauth2/auth, as real authorization servers have them: GET opens a
// sign-in session (a cookie names it) and serves the login page, carrying the session's CSRF token; POST
// step=login checks the password and answers the consent page; POST step=consent ends the session with the
// redirect to the redirect URI (a code, or access_denied). Both posts need the session cookie and its CSRF
// token. The pages vary: the realistic sign-in's are built by script (option realisticLogin), the consent
// variant's are served French forms (option loginPage consent, sandbox/oauth/login-pages.ts). The checkbox
// consent page grants the scopes its boxes submitted, no more than were asked for. The second-factor variant
// asks, after the password, for a code it sends by e-mail (POST step=code); the sandbox's mailbox shows what
// it sent: GET /sandbox/mail (sandbox-only, as /sandbox/info). The framed consent variants serve the consent
// form in a same-origin frame of the consent page (GET CONSENT_FRAME_PATH, by the session's cookie).
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { UserServices } from '../user/services.ts';
import type { AuthorizationRequest } from './authorize.ts';
import {
  acceptConsentPage,
  CONSENT_FRAME_PATH,
  checkboxConsentPage,
  codePage,
  framedConsentPage,
  frenchLoginPage,
  IDENTIFY_PATH,
  iconConsentAllowed,
  iconConsentPage,
  identifierPage,
  ONE_STEP_PAGES,
  type OneStepPage,
  passwordLoginPage,
  passwordPage,
} from './login-pages.ts';
import { AUTHORIZE_PATH, consentPage, errorPage, scriptedLoginPage } from './pages.ts';
import {
  type Fields,
  firstValues,
  html,
  type RepeatedFields,
  repeatedFields,
  stringFields,
  valuesOf,
} from './replies.ts';
import { cookieValue, SESSION_COOKIE, SignInSessions } from './sessions.ts';
import type { Grant } from './tokens.ts';

export interface SignInHelpers {
  /** Validates the authorization request, answering its errors; calls onValid otherwise. */
  showForm: (
    reply: FastifyReply,
    fields: Fields,
    onValid: (request: AuthorizationRequest) => FastifyReply,
  ) => FastifyReply;
  /** 302 to the redirect URI with the given parameters. */
  redirectBack: (
    reply: FastifyReply,
    redirectUri: string,
    params: Record<string, string | undefined>,
  ) => FastifyReply;
}

/** The pages of a two-step sign-in, and how its consent form grants. */
export interface TwoStepPages {
  /** An identifier-first sign-in's first page (step=identify), the username alone; login then asks the password. */
  identify?(request: AuthorizationRequest, csrfToken: string, error?: string): string;
  login(request: AuthorizationRequest, csrfToken: string, error?: string, username?: string): string;
  /** A second factor after the password (step=code): the page asking for the code sent by e-mail. */
  secondFactor?(request: AuthorizationRequest, csrfToken: string, error?: string): string;
  consent(request: AuthorizationRequest, csrfToken: string): string;
  /** A consent page whose form is in a frame: the frame's document (GET CONSENT_FRAME_PATH), `consent` its page. */
  consentFrame?(request: AuthorizationRequest, csrfToken: string): string;
  allowed(fields: Fields): boolean;
  /** The scopes an allowing consent grants (default: every scope asked for). */
  granted?(fields: RepeatedFields, request: AuthorizationRequest): string[];
  wrongPassword: string;
}

/** The realistic sign-in's pages, built by script. */
export const SCRIPTED_PAGES: TwoStepPages = {
  login: scriptedLoginPage,
  consent: consentPage,
  allowed: (fields) => fields.decision === 'allow',
  wrongPassword: 'Wrong username or password.',
};

/** The identifier-first variant's served pages. */
export const IDENTIFIER_FIRST_PAGES: TwoStepPages = {
  identify: identifierPage,
  login: passwordPage,
  consent: acceptConsentPage,
  allowed: (fields) => fields.consent === 'accept',
  wrongPassword: 'Your account or password is incorrect.',
};

/** The second-factor variant's served pages: the password, then a code sent by e-mail, then consent. */
export const SECOND_FACTOR_PAGES: TwoStepPages = {
  login: passwordLoginPage,
  secondFactor: codePage,
  consent: acceptConsentPage,
  allowed: (fields) => fields.consent === 'accept',
  wrongPassword: 'Wrong e-mail or password.',
};

/** The iframe-consent variants' pages: username and password, then consent in a same-origin frame. */
export const FRAMED_CONSENT_PAGES: TwoStepPages = {
  login: passwordLoginPage,
  consent: framedConsentPage,
  consentFrame: acceptConsentPage,
  allowed: (fields) => fields.consent === 'accept',
  wrongPassword: 'Wrong e-mail or password.',
};

/** The consent variant's served French pages. */
export const ICON_CONSENT_PAGES: TwoStepPages = {
  login: frenchLoginPage,
  consent: iconConsentPage,
  allowed: iconConsentAllowed,
  wrongPassword: 'Identifiant ou mot de passe incorrect.',
};

/** The scope the user of variant checkbox-consent-unticked unticks. */
export const UNTICKED_SCOPE = 'read:workout';

/** The checkbox consent's pages: identifier, password, then the scopes as checkboxes, `unticked` left out. */
const checkboxPages = (unticked: readonly string[]): TwoStepPages => ({
  identify: identifierPage,
  login: passwordPage,
  consent: checkboxConsentPage(unticked),
  allowed: (fields) => fields.decision !== 'deny',
  granted: (fields, request) => request.scopes.filter((scope) => valuesOf(fields, 'scope').includes(scope)),
  wrongPassword: 'Your account or password is incorrect.',
});

/** The sign-in pages an instance serves: its options', or a checkbox variant's. */
export function signInPagesOf({ options, variant }: SandboxContext): TwoStepPages | OneStepPage {
  const { loginPage } = options;
  if (options.realisticLogin) return SCRIPTED_PAGES;
  if (variant('checkbox-consent-unticked')) return checkboxPages([UNTICKED_SCOPE]);
  if (variant('checkbox-consent') || loginPage === 'checkboxes') return checkboxPages([]);
  if (variant('iframe-consent') || variant('iframe-consent-browser')) return FRAMED_CONSENT_PAGES;
  if (loginPage === 'consent') return ICON_CONSENT_PAGES;
  if (loginPage === 'identifier-first') return IDENTIFIER_FIRST_PAGES;
  if (loginPage === 'second-factor') return SECOND_FACTOR_PAGES;
  return ONE_STEP_PAGES[loginPage];
}

export function registerTwoStepSignIn(
  app: FastifyInstance,
  { accounts, tokens, ctx }: UserServices,
  { showForm, redirectBack }: SignInHelpers,
  pages: TwoStepPages,
): void {
  const sessions = new SignInSessions(ctx.options.now);
  // Path=/: the identifier-first page posts outside /oauth.
  const sessionCookie = (id: string) => `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`;
  /** The codes sent by e-mail, oldest first. */
  const mail: { to: string; code: string; sent_at: string }[] = [];
  if (pages.secondFactor) app.get('/sandbox/mail', async () => ({ messages: mail }));
  const { consentFrame } = pages;
  // The frame of a framed consent page: the consent form of the session its cookie names, once signed in.
  if (consentFrame)
    app.get(CONSENT_FRAME_PATH, (request, reply) => {
      const session = sessions.find(cookieValue(request.headers.cookie, SESSION_COOKIE));
      if (session?.userId === undefined) return html(reply, 400, errorPage('Sign in first.'));
      return html(reply, 200, consentFrame(session.request, session.csrfToken));
    });

  app.get(AUTHORIZE_PATH, { schema: { querystring: stringFields } }, (request, reply) =>
    showForm(reply, request.query as Fields, (valid) => {
      const { id, session } = sessions.open(valid);
      reply.header('set-cookie', sessionCookie(id));
      return html(reply, 200, (pages.identify ?? pages.login)(valid, session.csrfToken));
    }),
  );

  const submitted = (request: FastifyRequest, reply: FastifyReply) => {
    const body = (request.body ?? {}) as RepeatedFields;
    const fields = firstValues(body);
    const lookup = sessions.check(cookieValue(request.headers.cookie, SESSION_COOKIE), fields.csrf_token);
    if (lookup.status === 'csrf')
      return html(reply, 403, errorPage('The form does not carry this sign-in session’s CSRF token.'));
    if (lookup.status !== 'ok')
      return html(reply, 400, errorPage('The sign-in session is missing or expired: start again.'));
    const { session, id } = lookup;
    const valid = session.request;
    if (fields.step === 'identify' && pages.identify) {
      session.username = (fields.loginfmt ?? '').trim();
      return html(reply, 200, pages.login(valid, session.csrfToken, undefined, session.username));
    }
    if (fields.step === 'login') {
      const username = (fields.username ?? session.username ?? '').trim().toLowerCase();
      const password = fields.password ?? fields.passwd;
      const account = accounts.find((a) => a.username.toLowerCase() === username && a.password === password);
      if (!account)
        return html(reply, 401, pages.login(valid, session.csrfToken, pages.wrongPassword, session.username));
      if (pages.secondFactor) {
        session.code = String(randomInt(1_000_000)).padStart(6, '0');
        session.pendingUserId = account.userId;
        mail.push({ to: account.username, code: session.code, sent_at: ctx.options.now().toISOString() });
        return html(reply, 200, pages.secondFactor(valid, session.csrfToken));
      }
      session.userId = account.userId;
      return html(reply, 200, pages.consent(valid, session.csrfToken));
    }
    if (fields.step === 'code' && pages.secondFactor && session.pendingUserId !== undefined) {
      if (fields.code?.trim() !== session.code)
        return html(
          reply,
          401,
          pages.secondFactor(valid, session.csrfToken, 'That code is not the one we sent.'),
        );
      session.userId = session.pendingUserId;
      return html(reply, 200, pages.consent(valid, session.csrfToken));
    }
    if (fields.step !== 'consent' || session.userId === undefined)
      return html(reply, 400, errorPage('Sign in first.'));
    sessions.close(id);
    if (!pages.allowed(fields))
      return redirectBack(reply, valid.redirectUri, { error: 'access_denied', state: valid.state });
    const scopes = pages.granted?.(body, valid) ?? valid.scopes;
    const grant: Grant = { userId: session.userId, clientId: valid.client.clientId, scopes };
    const code = tokens.issueCode(grant, valid.redirectUri, valid.pkce);
    return redirectBack(reply, valid.redirectUri, { code, state: valid.state });
  };
  app.post(AUTHORIZE_PATH, { schema: { body: repeatedFields } }, submitted);
  if (pages.identify) app.post(IDENTIFY_PATH, { schema: { body: repeatedFields } }, submitted);
}
