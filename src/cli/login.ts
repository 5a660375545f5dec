// `npm run login [-- --headed] [--wait SECONDS]`: runs the authorization-code flow once per configured user
// (user A, and user B when CONFORMANCE_USER_B is set), signing in by the page's kind (a served form over
// HTTP, a page built by script in headless Chromium; CONFORMANCE_SIGN_IN forces one), with PKCE when
// CONFORMANCE_PKCE=1, and keeps each grant (its refresh token) in the token store (CONFORMANCE_TOKEN_STORE)
// for later runs, which then need no browser. With --headed, or when a page asks for what it cannot fill
// (MFA, a captcha; in the browser or on a served form), it prints the authorization URL and waits for a
// person to finish (the code is caught on the loopback redirect URI); Ctrl-C or SIGTERM ends that wait at
// once. Prints no token, unless --print-token asks for user A's, last, in the form a report's curl reads.
import { type CodeSource, codeFromRedirect } from '../auth/authorization-request.ts';
import { BrowserSignIn } from '../auth/browser-sign-in.ts';
import { storeExpiries } from '../auth/expired-tokens.ts';
import { sayNarrowedGrant } from '../auth/granted-scope.ts';
import { catchRedirect } from '../auth/loopback-redirect.ts';
import { PersonNeeded } from '../auth/sign-in-errors.ts';
import { codeSourceFor } from '../auth/sign-in-method.ts';
import { StoredGrants } from '../auth/stored-grants.ts';
import { TokenStore } from '../auth/token-store.ts';
import { UserOAuthClient } from '../auth/user-oauth.ts';
import { loadConfig } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { normaliseScopes } from '../config/scope-set.ts';
import { secretsOf } from '../config/secrets.ts';
import type { UserLogin } from '../config/suite-config.ts';
import { USER_SCOPES } from '../contract/operation-model.ts';
import { redactText, registerSecret } from '../http/redact.ts';
import { AUTHORIZATION_PLACEHOLDER } from '../http/shell-curl.ts';
import { standaloneClient } from '../http/standalone-client.ts';
import { nodeTransport } from '../http/transport.ts';
import { signInRunError } from '../protocol/run-errors.ts';
import { runErrorLine } from '../run-state/run-error.ts';
import { messageOf } from '../text/error-message.ts';

export interface LoginOptions {
  headed: boolean;
  /** How long a person may take to finish a sign-in (--wait). */
  waitSeconds: number;
  /** --print-token: user A's access token, printed last as `AUTHORIZATION='Bearer …'`. */
  printToken?: boolean;
}

/** A person finishes the sign-in: the URL is printed, the redirect caught; bounded by --wait. */
async function byPerson(
  url: string,
  reason: string,
  redirectUri: string,
  waitSeconds: number,
): Promise<string> {
  const catcher = await catchRedirect(redirectUri);
  console.log(
    `\nA person must finish this sign-in (${reason}). Open, in any browser:\n\n  ${url}\n\n${catcher.how}; waiting up to ${waitSeconds} s.`,
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no sign-in within ${waitSeconds} s (--wait)`)),
      waitSeconds * 1000,
    );
  });
  try {
    return await Promise.race([catcher.reached, timeout]);
  } finally {
    clearTimeout(timer);
    catcher.close();
  }
}

/** --headed without a display, or a served page that asks for a person: the person signs in in a browser of their own. */
const personOnly =
  (waitSeconds: number, reason = 'a person signs in (--headed)'): CodeSource =>
  async (request, account) => {
    const reached = await byPerson(request.url, reason, account.redirectUri, waitSeconds);
    const outcome = codeFromRedirect(reached, account.redirectUri, request.state);
    if (!outcome || 'error' in outcome)
      throw new Error(`Authorization failed: ${outcome?.error ?? 'not the redirect URI'}`);
    return outcome;
  };

/** The configuration, its secrets registered; a configuration error when it has no user login or token store. */
function loginConfig() {
  const config = loadConfig(undefined, storeExpiries);
  for (const secret of secretsOf(config)) registerSecret(secret);
  const login = config.userLogin;
  if (!login)
    throw new ConfigError(
      'CONFORMANCE_CLIENT_ID',
      'and the other user OAuth variables are required for a login',
    );
  const { tokenStore } = config.auth;
  if (!tokenStore) throw new ConfigError('CONFORMANCE_TOKEN_STORE', 'must name the token store file to fill');
  return { config, login, tokenStore };
}

/** A person may be waited for: a signal ends the process at once (Playwright's exit handler kills Chromium). */
function exitOnSignal(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => {
      console.error(`login: stopped (${signal})`);
      process.exit(code);
    });
}

/**
 * How the login signs in: headed, in the browser, or (without a display) by a person in a browser of their own;
 * else automated, a page the automation cannot fill (a second factor, a captcha) being left to a person.
 */
function loginSignIn(
  automated: CodeSource,
  browser: BrowserSignIn,
  { headed, waitSeconds }: LoginOptions,
  display: boolean,
): CodeSource {
  if (headed) return display ? browser.codeSource : personOnly(waitSeconds);
  return (request, account, journal) =>
    automated(request, account, journal).catch((error: unknown) => {
      if (!(error instanceof PersonNeeded)) throw error;
      return personOnly(waitSeconds, error.reason)(request, account);
    });
}

async function main(options: LoginOptions): Promise<void> {
  const { headed, waitSeconds } = options;
  const { config, login, tokenStore } = loginConfig();
  // Headed without a display: no browser at all, the person signs in with their own.
  const display = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  const browser = new BrowserSignIn({
    headed,
    onManual: (url, reason) => byPerson(url, reason, login.redirectUri, waitSeconds),
  });
  exitOnSignal();
  const users: UserLogin[] = [login, ...(config.secondUser ? [{ ...login, ...config.secondUser }] : [])];
  const grants = new StoredGrants(new TokenStore(tokenStore), config.authUrl);
  const transport = nodeTransport();
  const api = standaloneClient(transport, { baseUrl: config.baseUrl, timeoutMs: config.requestTimeoutMs });
  const scopes = normaliseScopes([...USER_SCOPES, config.auth.offlineScope]);
  const signIn = loginSignIn(codeSourceFor(config.auth.signIn, api, browser), browser, options, display);
  let tokenOfA: string | undefined;
  try {
    for (const [index, user] of users.entries()) {
      const started = performance.now();
      const client = new UserOAuthClient(api, config.authUrl, user, {
        clientAuth: config.auth.clientAuth,
        pkce: config.auth.pkce,
        user: index === 0 ? 'A' : 'B',
        codeSource: signIn,
      });
      const token = await client.authorize(scopes);
      sayNarrowedGrant(token, index === 0 ? 'A' : 'B');
      await grants.save(user, token);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Signed ${user.username} in at ${config.authUrl} in ${seconds} s; grant kept in ${tokenStore}`,
      );
      if (index === 0) tokenOfA = token.accessToken;
    }
    // Asked for, the one secret this command prints (the placeholder of every report's curl, shell-curl.ts).
    if (options.printToken && tokenOfA) console.log(AUTHORIZATION_PLACEHOLDER.replace('<token>', tokenOfA));
  } finally {
    await browser.close();
    transport.dispose();
  }
}

/** The sign-in (`physiology-conformance login`): its exit status, 2 for a configuration error. */
export function login(options: LoginOptions): Promise<number> {
  return main(options).then(
    () => 0,
    (error: unknown) => {
      // The runner's or the user's trouble says what to do about it, as a run error does.
      const runError = signInRunError(error);
      const message = messageOf(error);
      console.error(`login: ${runError ? runErrorLine(runError) : redactText(message)}`);
      return error instanceof ConfigError ? 2 : 1;
    },
  );
}
