// The user OAuth 2.0 authorization code flow at {auth_url}:
//   GET  /oauth/oauth2/auth   login-and-consent form (client_id, redirect_uri, response_type=code, scope, state,
//                             optionally PKCE code_challenge and code_challenge_method S256|plain, required
//                             by variant pkce-required); its shape
//                             is option loginPage's (sandbox/oauth/login-pages.ts)
//   POST /oauth/oauth2/auth   form submission: 302 to redirect_uri?code=…&state=… (or ?error=access_denied)
//                             (option realisticLogin, or loginPage consent, identifier-first or checkboxes:
//                             a login step (identifier-first and checkboxes: the username, then the
//                             password), then a consent step; sandbox/oauth/sign-in.ts)
//   POST /oauth/oauth2/token  grant_type authorization_code (code_verifier after PKCE) | refresh_token (RFC 6749
//                             §4.1.3, §6; rotation: each refresh token works once, and the new one keeps the
//                             scope of the old, RFC 6749 §6); client credentials in the form body or by HTTP
//                             Basic (only Basic: variant basic-client-auth, and option realisticLogin)
//   GET  /callback            a trivial page showing what the redirect carried
//
// Sandbox-only, non-standard: the token request parameter `sandbox_expires_in` (integer seconds, -86400 to
// 86400) sets the lifetime of the issued access token; 0 or less mints an already-expired token for the
// suite's expired-token test. `sandbox_rate_limit` (N/SECONDS) gives the issued access token a rate limit
// of its own, counted per token, for the suite's 429 burst. Both work on either grant (the suite may hold
// only a refresh token). Real targets do not know either.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';
import type { UserServices } from '../user/services.ts';
import { USER_TOKEN_PATH } from '../variant-responses.ts';
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
  redirectWith,
  verifierMatches,
} from './authorize.ts';
import { authenticateClient, parseBasicAuthorization } from './clients.ts';
import { CAPTCHA_TEXT } from './login-pages.ts';
import { AUTHORIZE_PATH, callbackPage, errorPage } from './pages.ts';
import { type Fields, html, stringFields } from './replies.ts';
import { parseScope, READ_SCOPES } from './scopes.ts';
import { registerTwoStepSignIn, signInPagesOf } from './sign-in.ts';
import { registerSignInFaults, SignInCount } from './sign-in-faults.ts';
import type { Grant, IssuedTokens } from './tokens.ts';

const oauthError = (status: number, error: string, message: string, headers?: Record<string, string>) =>
  new HttpError(status, error, message, headers);

function tokenResponse(reply: FastifyReply, issued: IssuedTokens): FastifyReply {
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
    access_token: issued.accessToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(' '),
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
  });
}

function lifetime(fields: Fields, fallback: number): number {
  const text = fields.sandbox_expires_in;
  if (text === undefined) return fallback;
  const seconds = Number(text);
  if (!/^-?\d+$/.test(text) || Math.abs(seconds) > 86_400) {
    throw oauthError(
      400,
      'invalid_request',
      'sandbox_expires_in must be an integer between -86400 and 86400',
    );
  }
  return seconds;
}

/** `sandbox_rate_limit=N/SECONDS`: the token's own limit (absent: the instance's, per client). */
function ownRateLimit(fields: Fields): Grant['rateLimit'] {
  const text = fields.sandbox_rate_limit;
  if (text === undefined) return undefined;
  const match = /^(\d{1,5})\/(\d{1,4})$/.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
    throw oauthError(400, 'invalid_request', 'sandbox_rate_limit must be N/SECONDS, e.g. 30/3');
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

/**
 * Variant wider-grant: a code's grant holds every read scope, whatever was asked (RFC 6749 §3.3), and its
 * token response says so; `offline` stays as asked.
 */
const widenedGrant = (ctx: UserServices['ctx'], grant: Grant): Grant =>
  ctx.variant('wider-grant') ? { ...grant, scopes: [...new Set([...READ_SCOPES, ...grant.scopes])] } : grant;

export async function registerOAuthRoutes(app: FastifyInstance, services: UserServices): Promise<void> {
  const { clients, tokens, accounts, ctx } = services;
  const signIns = new SignInCount();
  registerSignInFaults(app, ctx, signIns);
  const defaultLifetime = ctx.options.tokenLifetimeSeconds;
  // Variant short-lived-tokens: every grant comes with a refresh token (rotating, as every one here).
  const refreshEveryGrant = ctx.variant('short-lived-tokens');
  /** 302 to the redirect URI with `params`; the fault oauth-state-not-returned drops the state. */
  const redirectBack = (
    reply: FastifyReply,
    redirectUri: string,
    params: Record<string, string | undefined>,
  ) => {
    const { state, ...rest } = params;
    const back = ctx.fault('oauth-state-not-returned') ? rest : { ...rest, state };
    return reply.redirect(redirectWith(redirectUri, back), 302);
  };

  const showForm = (
    reply: FastifyReply,
    fields: Fields,
    onValid: (request: AuthorizationRequest) => FastifyReply,
  ) => {
    const check = checkAuthorizationRequest(fields, clients, ctx.variant('pkce-required'));
    if (check.kind === 'page') return html(reply, 400, errorPage(check.message));
    if (check.kind === 'redirect') {
      const { error, description, state } = check;
      return redirectBack(reply, check.redirectUri, { error, error_description: description, state });
    }
    return onValid(check.request);
  };

  // A two-step sign-in (CSRF, a consent step; realistic: script-rendered forms), or a one-form page.
  const form = signInPagesOf(ctx);
  if (!('render' in form)) registerTwoStepSignIn(app, services, { showForm, redirectBack }, form);
  else {
    // Option captchaFromSignIn: from that sign-in on, the page asks for a captcha too; option captchaFor:
    // for those users, once their username is posted.
    const { captchaFromSignIn, captchaFor = [] } = ctx.options;
    const captcha = (valid: AuthorizationRequest, username?: string) =>
      (captchaFromSignIn !== undefined && signIns.of(valid.state) >= captchaFromSignIn) ||
      (username !== undefined && captchaFor.some((wary) => wary.toLowerCase() === username));
    app.get(AUTHORIZE_PATH, { schema: { querystring: stringFields } }, (request, reply) =>
      showForm(reply, request.query as Fields, (valid) =>
        html(reply, 200, form.render(valid, undefined, captcha(valid))),
      ),
    );

    app.post(AUTHORIZE_PATH, { schema: { body: stringFields } }, (request, reply) => {
      const fields = (request.body ?? {}) as Fields;
      return showForm(reply, fields, (valid) => {
        if (form.denied(fields)) {
          return redirectBack(reply, valid.redirectUri, { error: 'access_denied', state: valid.state });
        }
        const given = form.credentials(fields);
        const username = given.username.trim().toLowerCase();
        if (captcha(valid, username) && fields.captcha?.trim().toUpperCase() !== CAPTCHA_TEXT)
          return html(reply, 401, form.render(valid, 'Type the characters shown in the picture.', true));
        const account = accounts.find(
          (a) => a.username.toLowerCase() === username && a.password === given.password,
        );
        if (!account) return html(reply, 401, form.render(valid, 'Wrong username or password.'));
        const grant: Grant = {
          userId: account.userId,
          clientId: valid.client.clientId,
          scopes: valid.scopes,
        };
        const code = tokens.issueCode(grant, valid.redirectUri, valid.pkce);
        return redirectBack(reply, valid.redirectUri, { code, state: valid.state });
      });
    });
  }

  app.post(USER_TOKEN_PATH, { schema: { body: stringFields } }, (request: FastifyRequest, reply) => {
    const fields = (request.body ?? {}) as Fields;
    const basic = parseBasicAuthorization(request.headers.authorization);
    // Variant basic-client-auth: HTTP Basic is the only client authentication; a body secret is refused.
    const basicOnly = ctx.variant('basic-client-auth') || ctx.options.realisticLogin;
    const refused =
      basic === null || (basicOnly && (basic === undefined || fields.client_secret !== undefined));
    const client = refused
      ? undefined
      : authenticateClient(clients, {
          basic,
          body: { clientId: fields.client_id, clientSecret: fields.client_secret },
        });
    if (!client) {
      const challenge: Record<string, string> =
        basic === undefined && !basicOnly ? {} : { 'www-authenticate': 'Basic realm="sandbox"' };
      throw oauthError(401, 'invalid_client', 'Client authentication failed', challenge);
    }
    const grantType = fields.grant_type;
    if (grantType === 'authorization_code') {
      if (!fields.code || !fields.redirect_uri)
        throw oauthError(400, 'invalid_request', 'code and redirect_uri are required');
      const redemption = tokens.redeemCode(fields.code);
      if (redemption.status !== 'ok')
        throw oauthError(400, 'invalid_grant', `The code is ${redemption.status}`);
      if (redemption.grant.clientId !== client.clientId || redemption.redirectUri !== fields.redirect_uri) {
        throw oauthError(400, 'invalid_grant', 'The code was issued to another client or redirect_uri');
      }
      if (redemption.pkce && !verifierMatches(redemption.pkce, fields.code_verifier))
        throw oauthError(400, 'invalid_grant', 'The code_verifier does not match the code_challenge');
      const rateLimit = ownRateLimit(fields);
      const granted = widenedGrant(ctx, redemption.grant);
      const grant = rateLimit ? { ...granted, rateLimit } : granted;
      const issued = tokens.issueTokens(
        grant,
        lifetime(fields, defaultLifetime),
        grant.scopes,
        refreshEveryGrant,
      );
      return tokenResponse(reply, issued);
    }
    if (grantType === 'refresh_token') {
      if (!fields.refresh_token) throw oauthError(400, 'invalid_request', 'refresh_token is required');
      const expiresIn = lifetime(fields, defaultLifetime);
      const grant = tokens.refreshGrant(fields.refresh_token, client.clientId);
      if (!grant) throw oauthError(400, 'invalid_grant', 'The refresh token is invalid, used or revoked');
      const narrowed = fields.scope === undefined ? grant.scopes : parseScope(fields.scope);
      if (narrowed.length === 0 || narrowed.some((scope) => !grant.scopes.includes(scope))) {
        throw oauthError(400, 'invalid_scope', 'The scope must be a subset of the scope originally granted');
      }
      const rateLimit = ownRateLimit(fields);
      tokens.spendRefreshToken(fields.refresh_token);
      const issued = { ...grant, scopes: narrowed, ...(rateLimit ? { rateLimit } : {}) };
      return tokenResponse(reply, tokens.issueTokens(issued, expiresIn, grant.scopes, refreshEveryGrant));
    }
    if (grantType === undefined) throw oauthError(400, 'invalid_request', 'grant_type is required');
    throw oauthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported here`);
  });

  app.get('/callback', { schema: { querystring: stringFields } }, (request, reply) =>
    html(reply, 200, callbackPage(request.query as Record<string, string>)),
  );
}
