// How a sign-in fails, told apart for whoever maps failures to verdicts: the automation could not find its
// way through the pages (SignInAutomationError: a page it cannot read, a loop, a page built by script for the
// HTTP form filler), the target refused the configured password (CredentialsRefused: a configuration
// problem, not the automation's), or the browser the sign-in needs is missing (BrowserUnavailable).

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

/** The sign-in needs Chromium, and there is none, or it would not start. */
export class BrowserUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'BrowserUnavailable';
  }
}
