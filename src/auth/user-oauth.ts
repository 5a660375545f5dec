// User tokens through the real OAuth 2.0 authorization code flow: the authorization page's login and
// consent forms are filled in like a person would, the code is taken from the redirect and exchanged.
import { randomBytes } from 'node:crypto';
import type { UserLogin } from '../config/config.ts';
import type { ApiClient } from '../http/api-client.ts';
import { describeExchange, type Exchange, exchangeLine } from '../http/exchange.ts';
import { redactText, registerSecret } from '../http/redact.ts';
import { parseForm } from './html-form.ts';

export interface UserToken {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  scopes: string;
}

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type ClientAuthMethod = 'client_secret_post' | 'client_secret_basic';

export interface AuthorizationOptions {
  /** Sandbox-only: ask for a token that expires after this many seconds (0 = already expired). */
  sandboxExpiresIn?: number;
  /** Sandbox-only: ask for a token with a rate limit of its own (`N/SECONDS`). */
  sandboxRateLimit?: string;
}

const MAX_FORM_STEPS = 4;

function location(exchange: Exchange): URL | undefined {
  const value = exchange.headers.location;
  return value ? new URL(value, exchange.request.url) : undefined;
}

export class UserOAuthClient {
  constructor(
    private readonly api: ApiClient,
    private readonly authUrl: string,
    private readonly login: UserLogin,
    /** The method tried first; after a 401 the other one is tried and, if it works, kept. */
    private clientAuth: ClientAuthMethod = 'client_secret_post',
  ) {}

  /** Runs the whole flow for `scopes` and returns the issued token. */
  async authorize(scopes: string, options: AuthorizationOptions = {}): Promise<UserToken> {
    const code = await this.obtainCode(scopes);
    return this.exchangeCode(code, scopes, options);
  }

  /** The login-and-consent part: returns the authorization code delivered to the redirect URI. */
  async obtainCode(scopes: string): Promise<string> {
    const state = randomBytes(12).toString('hex');
    let exchange = await this.api.send({
      path: `${this.authUrl}/oauth/oauth2/auth`,
      query: {
        client_id: this.login.clientId,
        redirect_uri: this.login.redirectUri,
        response_type: 'code',
        scope: scopes,
        state,
      },
      headers: { accept: 'text/html' },
    });
    const chain = [exchange];
    for (let step = 0; step < MAX_FORM_STEPS; step++) {
      const redirect = location(exchange);
      if (redirect?.searchParams.has('code') && redirect.toString().startsWith(this.login.redirectUri)) {
        if (redirect.searchParams.get('state') !== state)
          throw new Error('Authorization redirect carried a different state');
        const code = redirect.searchParams.get('code') ?? '';
        registerSecret(code);
        return code;
      }
      if (redirect) {
        exchange = await this.api.send({ path: redirect.toString(), headers: { accept: 'text/html' } });
        chain.push(exchange);
        continue;
      }
      const form = exchange.status === 200 ? parseForm(exchange.text, exchange.request.url) : undefined;
      if (!form)
        throw new Error(
          `Authorization page did not offer a form or a redirect: ${describeExchange(exchange)}`,
        );
      exchange = await this.submit(form.action, form.method, this.fill(form.fields, form.types));
      chain.push(exchange);
    }
    const steps = chain.map((link, index) => `  ${index + 1}. ${exchangeLine(link)}`).join('\n');
    throw new Error(
      `Authorization did not reach the redirect URI ${redactText(this.login.redirectUri)} within ${MAX_FORM_STEPS} steps (a redirect loop?); the requests:\n${steps}\n  last: ${describeExchange(exchange)}`,
    );
  }

  /**
   * POSTs a grant to {auth_url}/oauth/oauth2/token with the client's credentials, in the form body or as
   * HTTP Basic. A 401 under one method is retried once under the other, which is then kept.
   */
  async tokenRequest(grant: Record<string, string>): Promise<Exchange> {
    const send = (method: ClientAuthMethod) =>
      this.api.send({
        method: 'POST',
        path: `${this.authUrl}/oauth/oauth2/token`,
        ...(method === 'client_secret_post'
          ? { form: { ...grant, client_id: this.login.clientId, client_secret: this.login.clientSecret } }
          : {
              form: grant,
              headers: {
                authorization: `Basic ${Buffer.from(`${encodeURIComponent(this.login.clientId)}:${encodeURIComponent(this.login.clientSecret)}`).toString('base64')}`,
              },
            }),
      });
    const first = await send(this.clientAuth);
    if (first.status !== 401) return first;
    const other = this.clientAuth === 'client_secret_post' ? 'client_secret_basic' : 'client_secret_post';
    const second = await send(other);
    if (second.status === 200) this.clientAuth = other;
    return second.status === 200 ? second : first;
  }

  async exchangeCode(code: string, scopes: string, options: AuthorizationOptions = {}): Promise<UserToken> {
    const grant: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.login.redirectUri,
    };
    if (options.sandboxExpiresIn !== undefined) grant.sandbox_expires_in = String(options.sandboxExpiresIn);
    if (options.sandboxRateLimit !== undefined) grant.sandbox_rate_limit = options.sandboxRateLimit;
    const exchange = await this.tokenRequest(grant);
    if (exchange.status !== 200) throw new Error(`Token request failed: ${describeExchange(exchange)}`);
    const body = exchange.json<{ access_token?: string; refresh_token?: string; expires_in?: number }>();
    if (!body.access_token)
      throw new Error(`Token response has no access_token: ${describeExchange(exchange)}`);
    registerSecret(body.access_token);
    registerSecret(body.refresh_token);
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresIn: body.expires_in,
      scopes,
    };
  }

  private fill(fields: Record<string, string>, types: Record<string, string>): Record<string, string> {
    const filled = { ...fields };
    for (const [name, type] of Object.entries(types)) {
      if (type === 'password') filled[name] = this.login.password;
      else if ((type === 'text' || type === 'email') && /user|login|email|name/i.test(name))
        filled[name] = this.login.username;
    }
    return filled;
  }

  private submit(action: string, method: string, fields: Record<string, string>): Promise<Exchange> {
    return method === 'POST'
      ? this.api.send({ method: 'POST', path: action, form: fields, headers: { accept: 'text/html' } })
      : this.api.send({ path: action, query: fields, headers: { accept: 'text/html' } });
  }
}
