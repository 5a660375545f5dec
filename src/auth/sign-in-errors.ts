// How a sign-in fails, told apart for whoever maps failures to verdicts. The run's side: the automation could
// not find its way through the pages (SignInAutomationError: a page it cannot read, a loop of its own
// submissions, a page built by script for the HTTP form filler; BrowserSignInStuck: the browser's), the
// runner has no browser for a page that needs one (BrowserUnavailable) or its browser crashed under the
// sign-in (BrowserCrashed), the target refused the configured password (CredentialsRefused), a page asks for
// what no configuration holds (PersonNeeded), a 4xx at a first sign-in that the configuration may explain
// (SignInRefused), an `error=` there naming the request's parameters (AuthorizationRequestRefused), a
// certificate the run does not trust (CertificateUntrusted). The server's side: SignInServerFailure, an
// answer of the authorization server that fails AUTH-CODE-FLOW.

import { describeExchange, type Exchange } from '../http/exchange.ts';

/** The sign-in automation could not find its way; the message says what it saw (redacted). */
export class SignInAutomationError extends Error {
  constructor(
    reason: string,
    /** What the page showed: its address, title, forms and buttons (src/auth/page-description.ts). */
    readonly page: string,
    /** A screenshot of the page (browser sign-in), under the reports directory. */
    readonly screenshot?: string,
  ) {
    super(
      `Sign-in automation could not find its way: ${reason}.\n  The page: ${page}${screenshot ? `\n  Screenshot: ${screenshot}` : ''}`,
    );
    this.name = 'SignInAutomationError';
  }
}

/** The browser could not find its way (in any frame of the page): a person signs in, not another browser. */
export class BrowserSignInStuck extends SignInAutomationError {
  constructor(reason: string, page: string, screenshot?: string) {
    super(reason, page, screenshot);
    this.name = 'BrowserSignInStuck';
  }
}

/** A page that builds its form by script: the HTTP form filler cannot sign in there, a browser can. */
export class PageBuiltByScript extends SignInAutomationError {
  constructor(page: string) {
    super(
      'the page builds its form by script: it takes a browser (CONFORMANCE_SIGN_IN=form forbids one)',
      page,
    );
    this.name = 'PageBuiltByScript';
  }
}

/** The sign-in needs a browser, and there is no Chromium, or it would not start: the runner's side. */
export class BrowserUnavailable extends Error {
  constructor(reason: string) {
    super(`signing in on a page built by script needs Chromium: ${reason}`);
    this.name = 'BrowserUnavailable';
  }
}

/** The browser crashed or closed under a sign-in (its page crashed, or it lost its connection): the runner's side. */
export class BrowserCrashed extends Error {
  constructor(what: string) {
    super(`the browser crashed under the sign-in: ${what}`);
    this.name = 'BrowserCrashed';
  }
}

/** Which configured user signed in: user A (CONFORMANCE_USER) or user B (CONFORMANCE_USER_B). */
export type ConfiguredUser = 'A' | 'B';

/** The target refused the configured password: the login page came back with its password field. */
export class CredentialsRefused extends Error {
  constructor(
    readonly user: ConfiguredUser,
    /** Where, and what the page said (its alerts), redacted. */
    detail: string,
  ) {
    const suffix = user === 'B' ? '_B' : '';
    super(
      `Sign-in refused: the target refused the password of CONFORMANCE_USER${suffix} (CONFORMANCE_PASSWORD${suffix}): the login page came back with the password field again ${detail}`,
    );
    this.name = 'CredentialsRefused';
  }
}

/** A page asks for what no configuration holds (a captcha, a second factor): a person must sign in. */
export class PersonNeeded extends Error {
  constructor(
    readonly user: ConfiguredUser,
    /** What the page asks for, and the page (redacted); the same text for every meeting of one cause. */
    readonly reason: string,
  ) {
    super(`A sign-in of user ${user} needs a person: ${reason}`);
    this.name = 'PersonNeeded';
  }
}

/**
 * A 4xx at a sign-in step that never worked in this run: a wrong CONFORMANCE_AUTH_URL, client id or redirect
 * URI looks the same as a server that lacks the endpoint, so the run cannot charge the server.
 */
export class SignInRefused extends Error {
  constructor(
    /** `GET https://…/oauth/oauth2/auth answered 404`, redacted. */
    answer: string,
  ) {
    super(
      `Sign-in refused at its first step: ${answer}. Either the configuration does not match the server (CONFORMANCE_AUTH_URL, CONFORMANCE_CLIENT_ID, CONFORMANCE_REDIRECT_URI), or the server lacks or refuses its authorization endpoint`,
    );
    this.name = 'SignInRefused';
  }
}

/**
 * An `error=` naming the authorization request's parameters (invalid_request, invalid_scope,
 * unauthorized_client) at a sign-in step that never worked in this run: the request the run's configuration
 * builds may not suit the server, or the server refuses a request it should accept.
 */
export class AuthorizationRequestRefused extends Error {
  constructor(
    /** `GET https://…/oauth/oauth2/auth answered 302: the redirect … carried invalid_request: …`, redacted. */
    answer: string,
  ) {
    super(
      `Sign-in refused at its first step: ${answer}. Either the authorization request the run's configuration builds does not suit the server (its client CONFORMANCE_CLIENT_ID, redirect URI CONFORMANCE_REDIRECT_URI, the scopes it asks, PKCE per CONFORMANCE_PKCE), or the server refuses a request it should accept`,
    );
    this.name = 'AuthorizationRequestRefused';
  }
}

/** A TLS certificate the run does not trust, met by the browser sign-in (Node's own: TransportFailure). */
export class CertificateUntrusted extends Error {
  constructor(
    /** The page whose certificate the browser refused. */
    readonly url: string,
    /** The browser's error (net::ERR_CERT_AUTHORITY_INVALID) and the certificate, as Node reads it. */
    detail: string,
  ) {
    super(`The sign-in page's TLS certificate is not trusted: ${detail}`);
    this.name = 'CertificateUntrusted';
  }
}

/**
 * The authorization server failed the sign-in (a 5xx, a redirect loop it drives, an `error=` redirect, a
 * 4xx from a step that worked earlier in the run): AUTH-CODE-FLOW fails, with the request and the status.
 */
export class SignInServerFailure extends Error {
  constructor(
    /** What the server did, one line: `GET http://…/oauth/oauth2/auth answered 500`. */
    readonly what: string,
    /** The answer it rests on (the first of a redirect chain), and its offending fields (JSON pointers). */
    readonly basis: { exchange: Exchange; fields: readonly string[] },
    /** What shows it: the answer (describeExchange: with its curl line), or a redirect chain. */
    readonly evidence = describeExchange(basis.exchange),
  ) {
    super(`The authorization server failed the sign-in: ${what}\n${evidence}`);
    this.name = 'SignInServerFailure';
  }
}

/** The server failed the run's last sign-ins: a check that needs a new one is blocked, not signed in again. */
export class SignInBlocked extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SignInBlocked';
  }
}
