// What would stop the run from judging the target, found in the global setup, once the manifest is resolved,
// with a handful of requests, none a write, through the standalone client (counted nowhere, redacted): the
// browser the sign-in needs, an unreachable target or an untrusted TLS certificate, credentials it refuses
// (each partner's, the user OAuth client's, the user's at one sign-in unless the token store holds the
// grant). A target the run started answers to the suite's own credentials: there only the local checks run,
// the rest is for the tests (the mutation gate's faults). What the server fails is no run error but a
// check's failure, recorded as a run finding (src/protocol/run-findings.ts), and the tests run: a sign-in (AUTH-CODE-FLOW), a second 429 after the
// wait the first asked for (the partner token request's OP-PARTNER-TOKEN, the user token endpoint's
// AUTH-CODE-FLOW: neither lists 429). A user whose sign-in needs a person stops only the checks that need
// that user (the run's journal, src/auth/sign-in-journal.ts); the preflight goes on to the next.
import { randomBytes } from 'node:crypto';
import { BrowserSignIn } from '../../auth/browser-sign-in.ts';
import { signInForEveryReadScope } from '../../auth/granted-scope.ts';
import { PartnerClient } from '../../auth/partner-client.ts';
import { type ConfiguredUser, PersonNeeded, SignInServerFailure } from '../../auth/sign-in-errors.ts';
import { runJournal } from '../../auth/sign-in-journal.ts';
import { codeSourceFor } from '../../auth/sign-in-method.ts';
import { StoredGrants } from '../../auth/stored-grants.ts';
import { TokenStore } from '../../auth/token-store.ts';
import { UserOAuthClient } from '../../auth/user-oauth.ts';
import { CHROMIUM_REMEDY, chromiumPath, chromiumSetting } from '../../config/chromium.ts';
import type { VariableLayer } from '../../config/environment.ts';
import { secretsOf } from '../../config/secrets.ts';
import type { SuiteConfig, UserLogin } from '../../config/suite-config.ts';
import { operationById } from '../../contract/operations.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import { CERTIFICATE_ERROR, CERTIFICATE_REMEDY, describeCertificate } from '../../http/certificate.ts';
import { type Exchange, jsonOf, STATUS } from '../../http/exchange.ts';
import { type Pacer, targetPacer } from '../../http/pacer.ts';
import { announcedNumbers, type RateLimitJudge } from '../../http/rate-limited.ts';
import { redactText, registerSecret } from '../../http/redact.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { standaloneClient } from '../../http/standalone-client.ts';
import { nodeTransport } from '../../http/transport.ts';
import { TransportFailure } from '../../http/transport-failure.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { signInRunError, sourceOf, unreachable } from '../../protocol/run-errors.ts';
import { recordEndingOutsideTests } from '../../protocol/run-findings.ts';
import type { RunError } from '../../run-state/run-error.ts';

const PROFILE_PATH = operationById('getBasicProfile').path;
const PARTNER_TOKEN = operationById('requestPartnerToken');

/** A request the target answered 429 twice, the second time after the wait the first asked for. */
class RateLimitedTwice extends Error {
  constructor(
    readonly exchange: Exchange,
    /** What the first 429 announced, for the message. */
    readonly first: string,
  ) {
    super(`${exchange.request.method} ${exchange.request.url} answered 429 twice`);
    this.name = 'RateLimitedTwice';
  }
}

/** The preflight's judge of 429s: the first is waited out as it asks, and the request sent again; a second ends it. */
const onceMore: RateLimitJudge = async (_credential, answers, cannotWait) => {
  const [first] = answers;
  const last = answers.at(-1);
  if (!first || !last || (answers.length < 2 && !cannotWait)) return undefined;
  return new RateLimitedTwice(last.exchange, announcedNumbers(first.announced));
};

/**
 * A request the target answered 429 twice, where the contract lists no 429: recorded as the server's failure of
 * `requirement` (as a test's would be), and the preflight goes on; any other error is thrown again.
 */
const chargeRateLimit =
  (where: string, requirement: string) =>
  (error: unknown): undefined => {
    if (!(error instanceof RateLimitedTwice)) throw error;
    const { method, url } = error.exchange.request;
    const message = `${method} ${new URL(url).pathname} answered 429, a status the contract does not list for it, again after the run waited out the first as it asked (${error.first})`;
    recordEndingOutsideTests(
      `preflight: ${where}`,
      new ConformanceFailure(requirement, message, error.exchange, { fields: [STATUS] }),
    );
    return undefined;
  };

/** The error code of an OAuth error answer (RFC 6749 §5.2), if it has one. */
const oauthError = (text: string): string | undefined => {
  const body = jsonOf(text);
  const error = body.ok ? (body.value as { error?: unknown } | null)?.error : undefined;
  return typeof error === 'string' ? error : undefined;
};

/** Credentials the target refused: the variables that hold them, and where each was set. */
const refused = (
  what: string,
  answer: string,
  variables: readonly string[],
  layers: readonly VariableLayer[],
) => ({
  kind: 'credentials' as const,
  cause: `the target refuses ${what}: ${answer}`,
  remedy: `check ${variables.map((variable) => `${variable} (${sourceOf(variable, layers)})`).join(' and ')}`,
});

/** Chromium, where the chosen sign-in needs one. */
function browserProblem(config: SuiteConfig): RunError | undefined {
  const needsBrowser = config.userLogin && config.auth.signIn === 'browser' && !config.auth.tokenStore;
  if (!needsBrowser || chromiumPath()) return undefined;
  return {
    kind: 'browser',
    cause: `the sign-in (CONFORMANCE_SIGN_IN=browser) needs Chromium, and there is none at ${chromiumSetting()}`,
    remedy: CHROMIUM_REMEDY,
  };
}

/**
 * One request, a transport failure as the target's (`variable` names its URL) being unreachable. A request
 * left unanswered (none in time, or its connection lost, or in a kept-alive connection's race) is sent once
 * more: one lost answer is a flaky target (the run's unanswered budget judges that), not one that cannot be
 * reached at all.
 */
async function reaching<T>(variable: string, send: () => Promise<T>, tries = 2): Promise<T | RunError> {
  try {
    return await send();
  } catch (error) {
    const race = error instanceof RequestRefused && error.side === 'transport';
    if (race && tries > 1) return reaching(variable, send, tries - 1);
    if (!(error instanceof TransportFailure)) throw error;
    if (tries > 1 && error.unanswered) return reaching(variable, send, tries - 1);
    if (error.code !== undefined && CERTIFICATE_ERROR.test(error.code))
      return {
        kind: 'certificate',
        cause: redactText(await describeCertificate(error.request.url, error.reason)),
        remedy: `${CERTIFICATE_REMEDY} (${variable} names the server)`,
      };
    return unreachable(`${error.request.url}: ${error.reason}`, variable);
  }
}

const isRunError = (value: unknown): value is RunError =>
  typeof value === 'object' && value !== null && 'kind' in value && 'remedy' in value;

/** The target reached at its base URL; a 429 there (a user data operation lists it) is an answer. */
async function unreachableProblem(api: ApiClient): Promise<RunError | undefined> {
  const answer = await reaching('CONFORMANCE_BASE_URL', () => api.send({ path: PROFILE_PATH })).catch(
    (error: unknown) => {
      if (error instanceof RateLimitedTwice) return error.exchange;
      throw error;
    },
  );
  return isRunError(answer) ? answer : undefined;
}

/** Each partner's client credentials, granted a token. */
async function partnerProblem(
  config: SuiteConfig,
  layers: readonly VariableLayer[],
  api: ApiClient,
): Promise<RunError | undefined> {
  const { partnerScope: scope, partnerGrantType: grantType } = config.auth;
  for (const [name, credentials] of [
    ['A', config.partnerA],
    ['B', config.partnerB],
  ] as const) {
    if (!credentials) continue;
    const partner = new PartnerClient(api, credentials, new Map(), { scope, grantType });
    const token = await reaching('CONFORMANCE_BASE_URL', () => partner.requestToken()).catch(
      chargeRateLimit(`partner ${name} token`, successRequirement(PARTNER_TOKEN)),
    );
    if (token === undefined) continue;
    if (isRunError(token)) return token;
    if (token.status === 401)
      return refused(
        `partner ${name}'s client credentials`,
        `POST /v2/partner/token answered 401${oauthError(token.text) ? ` ${oauthError(token.text)}` : ''}`,
        [`CONFORMANCE_PARTNER_${name}_CLIENT_ID`, `CONFORMANCE_PARTNER_${name}_CLIENT_SECRET`],
        layers,
      );
  }
  return undefined;
}

/** The user OAuth client known to the token endpoint, asked to exchange a code the target never issued. */
async function userClientProblem(
  config: SuiteConfig,
  layers: readonly VariableLayer[],
  api: ApiClient,
  login: UserLogin,
): Promise<RunError | undefined> {
  const client = new UserOAuthClient(api, config.authUrl, login, { clientAuth: config.auth.clientAuth });
  // A code the target never issued: a client it knows gets invalid_grant, one it does not invalid_client.
  const grant = {
    grant_type: 'authorization_code',
    code: randomBytes(16).toString('hex'),
    redirect_uri: login.redirectUri,
  };
  const token = await reaching('CONFORMANCE_AUTH_URL', () => client.tokenRequest(grant)).catch(
    chargeRateLimit('the user token endpoint', 'AUTH-CODE-FLOW'),
  );
  if (token === undefined) return undefined;
  if (isRunError(token)) return token;
  if (token.status === 401 || oauthError(token.text) === 'invalid_client')
    return refused(
      'the user OAuth client',
      `a token request answered ${token.status} ${oauthError(token.text) ?? ''}`.trim(),
      ['CONFORMANCE_CLIENT_ID', 'CONFORMANCE_CLIENT_SECRET'],
      layers,
    );
  return undefined;
}

/** The checks against the target, in order; the first problem ends them. */
async function targetProblem(
  config: SuiteConfig,
  layers: readonly VariableLayer[],
  api: ApiClient,
): Promise<RunError | undefined> {
  const problem = (await unreachableProblem(api)) ?? (await partnerProblem(config, layers, api));
  if (problem) return problem;
  const login = config.userLogin;
  if (!login) return undefined;
  return (await userClientProblem(config, layers, api, login)) ?? signInProblem(config, api, login);
}

/**
 * What a preflight sign-in's error means: a page for a person (the journal keeps it, src/auth/user-oauth.ts:
 * the checks that need the user stop, no other), the server's failure (recorded against AUTH-CODE-FLOW with
 * the answer it rests on), or the run's side (its run error).
 */
function signInTrouble(error: unknown, name: ConfiguredUser): RunError | undefined {
  if (error instanceof PersonNeeded) {
    console.log(`Sign-in: ${error.message}; the checks that need user ${name} will not be verified`);
    return undefined;
  }
  if (!(error instanceof SignInServerFailure)) return signInRunError(error);
  // The check's failure of AUTH-CODE-FLOW, as a test's sign-in makes it (src/worker/suite/sign-ins.ts serverFailure).
  const failure = new ConformanceFailure('AUTH-CODE-FLOW', error.what, error.evidence, error.basis);
  recordEndingOutsideTests(`preflight: sign-in of user ${name}`, failure);
  return undefined;
}

/**
 * One sign-in per user the run will sign in (none with pre-issued tokens; with a token store, those it holds
 * no grant of), by the method the run will use: its run-side errors tell the user's side (src/auth/); a
 * server's failure is recorded against AUTH-CODE-FLOW, and a sign-in that needs a person in the run's
 * journal (the checks that need that user stop at once), and the next user tried.
 */
async function signInProblem(
  config: SuiteConfig,
  api: ApiClient,
  login: UserLogin,
): Promise<RunError | undefined> {
  if (config.userTokens) return undefined;
  const { tokenStore } = config.auth;
  const grants = tokenStore ? new StoredGrants(new TokenStore(tokenStore), config.authUrl) : undefined;
  const held = grants ? grants.store.read().grants : {};
  const journal = runJournal(config.authUrl);
  const browser = new BrowserSignIn();
  try {
    for (const [name, account] of [
      ['A', login],
      ...(config.secondUser ? [['B', { ...login, ...config.secondUser }] as const] : []),
    ] as const) {
      if (grants && held[grants.key(account)]) continue;
      const user = new UserOAuthClient(api, config.authUrl, account, {
        clientAuth: config.auth.clientAuth,
        pkce: config.auth.pkce,
        user: name,
        codeSource: codeSourceFor(config.auth.signIn, api, browser),
        journal,
      });
      const problem = await signInForEveryReadScope(user, name).then(
        () => undefined,
        (error: unknown) => signInTrouble(error, name),
      );
      // Any other error of the sign-in is for AUTH-CODE-FLOW to judge.
      if (problem) return problem;
    }
    return undefined;
  } finally {
    await browser.close();
  }
}

/** The first problem that would stop the run from judging the target, or undefined. */
export async function preflight(
  config: SuiteConfig,
  layers: readonly VariableLayer[],
  startedByRun: boolean,
  /** The run's request log (src/http/request-counter.ts). */
  requestLog: string,
  /** The run's rate budgets (the coordinator's: a shard's part of the target's), its workers' too. */
  pacer: Pacer,
): Promise<RunError | undefined> {
  const local = browserProblem(config);
  if (local || startedByRun) return local;
  for (const secret of secretsOf(config)) registerSecret(secret);
  const transport = nodeTransport();
  try {
    return await targetProblem(
      config,
      layers,
      // Counted in the run's request log: a smoke run's budget covers them too.
      standaloneClient(
        transport,
        { baseUrl: config.baseUrl, timeoutMs: config.requestTimeoutMs, rateLimited: onceMore },
        requestLog,
        targetPacer(pacer, config.baseUrl),
      ),
    );
  } finally {
    transport.dispose();
  }
}
