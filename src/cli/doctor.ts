// `npm run doctor`: a preflight of the configuration given (environment and CONFORMANCE_ENV_FILE). It checks
// that the target answers, that both token flows work (the user's: from the token store's grant, or a
// sign-in; the partner's: client credentials with the configured scope and grant type) and each credential
// (users A and B, partners A and B, given expired tokens), in at most 12 requests of its own, none of them a
// write (a sign-in's steps, posts included, are no write of data: they are counted apart). Then it prints,
// per requirement family, what this configuration will verify, what it will not and why, and the variable
// that would enable it (from the capabilities the suite itself uses), the rate of each kind of data with the
// source of each figure, the depth the run will use and why, and the wall time it estimates. One line per problem, each said to be
// the run's side (the run would end ERROR) or the server's (the run would charge it: FAIL); exit 1 when a
// check failed, 2 when the configuration cannot be read. Prints no secret.
import { availableParallelism, loadavg } from 'node:os';
import { storeExpiries } from '../auth/expired-tokens.ts';
import { PartnerClient } from '../auth/partner-client.ts';
import { SignInServerFailure } from '../auth/sign-in-errors.ts';
import { type UserName, UserTokenPool } from '../auth/user-token-pool.ts';
import { type Capability, reasonsUnverifiable, variablesSupplying } from '../config/capabilities.ts';
import { configOf, runOptions } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import {
  configuredLimit,
  depthPlan,
  describePlan,
  type PlannedRate,
  plannedRate,
  rotationOf,
} from '../config/depth-plan.ts';
import { resolveEnvironment } from '../config/environment.ts';
import { secretsOf } from '../config/secrets.ts';
import type { ClientCredentials, SuiteConfig } from '../config/suite-config.ts';
import { busyMachineLine, wallTimeEstimate } from '../config/wall-time.ts';
import { operationById } from '../contract/operations.ts';
import { verifiableMust } from '../contract/requirements.ts';
import type { ApiClient } from '../http/api-client.ts';
import { bodyOf, type Exchange } from '../http/exchange.ts';
import { observationOf, RateBudget } from '../http/rate-budget.ts';
import { announcedRateLimit } from '../http/rate-limit-headers.ts';
import type { ShownRate } from '../http/rate-window.ts';
import { redactText, registerSecret } from '../http/redact.ts';
import { standaloneClient } from '../http/standalone-client.ts';
import { nodeTransport, type Transport } from '../http/transport.ts';
import { messageOf } from '../text/error-message.ts';

const MAX_REQUESTS = 12;
const PROFILE_PATH = operationById('getBasicProfile').path;

interface Check {
  name: string;
  /** `untried`: the doctor did not try it (never ticked, never a problem). */
  outcome: 'ok' | 'failed' | 'untried';
  detail: string;
  /** A failed check's side: the run's (the run would end ERROR) or the server's (the run would fail it). */
  side?: 'run' | 'server';
}

/** What the server answered wrong: the run would charge it, not stop on it. */
class ServerFailure extends Error {}

const MARK: Record<Check['outcome'], string> = { ok: '✓', failed: '✗', untried: '–' };

/** A check the doctor does not run here: its reason says why, and what does run it. */
class Untried {
  constructor(readonly reason: string) {}
}

const briefly = (exchange: Exchange): string => {
  const body = bodyOf<{ error?: unknown; error_description?: unknown; message?: unknown } | null>(exchange);
  const said =
    body.ok && body.value ? [body.value.error, body.value.error_description ?? body.value.message] : [];
  const error = said.filter((part) => typeof part === 'string').join(': ');
  return `${exchange.status}${error ? ` ${error}` : ''}`;
};

/** A check's body: what it found, or why it was not tried; it throws what went wrong. */
type CheckRun = () => Promise<string | Untried>;

/** Runs one check and records its outcome: a ServerFailure is the server's side, any other error the run's. */
async function recordCheck(checks: Check[], name: string, run: CheckRun): Promise<void> {
  try {
    const done = await run();
    checks.push(
      done instanceof Untried
        ? { name, outcome: 'untried', detail: done.reason }
        : { name, outcome: 'ok', detail: done },
    );
  } catch (error) {
    checks.push({
      name,
      outcome: 'failed',
      detail: redactText(messageOf(error)),
      side: error instanceof ServerFailure ? 'server' : 'run',
    });
  }
}

const targetReachable =
  (api: ApiClient): CheckRun =>
  async () => {
    const exchange = await api.send({ path: PROFILE_PATH });
    if (exchange.status >= 500)
      throw new ServerFailure(`GET ${PROFILE_PATH} without a token answered ${briefly(exchange)}`);
    return `GET ${PROFILE_PATH} without a token answered ${exchange.status}`;
  };

const userTokenWorks =
  (config: SuiteConfig, api: ApiClient, pool: UserTokenPool, user: UserName): CheckRun =>
  async () => {
    const source = config.auth.tokenStore
      ? 'refresh grant of the token store'
      : `sign-in (${config.auth.signIn})`;
    if (!config.auth.tokenStore && config.auth.signIn === 'browser')
      return new Untried(
        'not tried here (a browser sign-in): `npm run login` fills a token store (CONFORMANCE_TOKEN_STORE)',
      );
    const token = await pool.fresh(['read:profile'], user).catch((error: unknown) => {
      if (error instanceof SignInServerFailure)
        throw new ServerFailure(`${source}: the server failed it (AUTH-CODE-FLOW): ${error.what}`);
      throw new Error(`${source} failed: ${messageOf(error)}`);
    });
    const read = await api.send({ path: PROFILE_PATH, token: token.accessToken });
    if (read.status !== 200)
      throw new Error(`the token from the ${source} got ${briefly(read)} on GET ${PROFILE_PATH}`);
    return `${source}: a read:profile token works on GET ${PROFILE_PATH}`;
  };

const expiredUserTokenRefused =
  (config: SuiteConfig, api: ApiClient): CheckRun =>
  async () => {
    const read = await api.send({ path: PROFILE_PATH, token: config.auth.expiredUserToken });
    if (read.status === 200)
      throw new Error('it still works: it has not expired (CONFORMANCE_EXPIRED_USER_TOKEN)');
    return `refused with ${read.status}`;
  };

const partnerTokenGranted =
  (config: SuiteConfig, api: ApiClient, credentials: ClientCredentials, capability: Capability): CheckRun =>
  async () => {
    const { partnerScope: scope, partnerGrantType: grantType } = config.auth;
    const exchange = await new PartnerClient(api, credentials, new Map(), {
      scope,
      grantType,
    }).requestToken();
    if (exchange.status === 200)
      return `client credentials with scope "${scope}", grant_type "${grantType}": 200`;
    const hint =
      exchange.status === 401
        ? `check ${variablesSupplying(capability).join(' and ')}`
        : 'check CONFORMANCE_PARTNER_SCOPE and CONFORMANCE_PARTNER_GRANT_TYPE';
    throw new Error(`the token request answered ${briefly(exchange)}: ${hint}`);
  };

/** The checks, in order; each catches its own failure, so every problem gets its line. */
async function runChecks(config: SuiteConfig, api: ApiClient): Promise<Check[]> {
  const checks: Check[] = [];
  await recordCheck(checks, 'target reachable', targetReachable(api));
  if (checks.some((done) => done.outcome === 'failed')) return checks;

  const pool = new UserTokenPool(api, config, false);
  const users: UserName[] = config.userLogin ? ['A', ...(config.secondUser ? (['B'] as const) : [])] : [];
  for (const user of users)
    await recordCheck(checks, `user ${user} token`, userTokenWorks(config, api, pool, user));
  if (config.auth.expiredUserToken && config.userLogin)
    await recordCheck(checks, 'expired user token', expiredUserTokenRefused(config, api));
  await pool.close();

  for (const [name, credentials, capability] of [
    ['A', config.partnerA, 'partner'],
    ['B', config.partnerB, 'second-partner'],
  ] as const) {
    if (credentials)
      await recordCheck(
        checks,
        `partner ${name} token`,
        partnerTokenGranted(config, api, credentials, capability),
      );
  }
  return checks;
}

/** What the target showed of its limits to the doctor's requests, per kind of credential. */
type ShownRates = Partial<Record<'user' | 'partner', ShownRate>>;

/** A rate's lines: the limit and its window, each with where it came from. */
function rateLines(what: string, rate: PlannedRate | undefined): string[] {
  if (!rate) return [`Rate limit of ${what}: none configured (CONFORMANCE_RATE_LIMIT) or announced`];
  return [
    `Rate limit of ${what}: ${rate.limit} per ${rate.windowSeconds} s`,
    `  limit ${rate.limit}: ${rate.limitSource}${rate.limitSource === 'configured' ? ' (CONFORMANCE_RATE_LIMIT)' : ''}`,
    `  window ${rate.windowSeconds} s: ${rate.windowSource} (${rate.how})`,
  ];
}

/**
 * The run's rates and depth plan (src/config/depth-plan.ts) from what was configured and what the target
 * showed, its requests per credential, and the run's wall time it estimates (src/config/wall-time.ts).
 */
function planLines(config: SuiteConfig, runTimeoutSeconds: number, shown: ShownRates): string[] {
  const rates = {
    user: plannedRate(configuredLimit(config), shown.user),
    partner: plannedRate(undefined, shown.partner),
  };
  const depth = depthPlan({
    profile: config.profile,
    runTimeoutSeconds,
    rate: rates.user,
    rotation: rotationOf(new Date().toISOString(), config.explore, config.propertySeed),
    pinned: config.depth,
  });
  const estimate = wallTimeEstimate(depth, rates, { burstLast: config.target !== 'sandbox' });
  return [
    ...rateLines('user data (the OAuth client)', rates.user),
    ...rateLines('partner data (each client)', rates.partner),
    ...describePlan(depth),
    `Plan for profile ${config.profile} (measured on the sandbox's data): about ${depth.requests.user} user-data and ${depth.requests.partner} partner requests`,
    `Estimate: a wall time of about ${estimate.seconds} s: ${estimate.parts.join('; ')}`,
    ...(busyMachineLine(loadavg()[0] ?? 0, availableParallelism()) ?? []),
    estimate.seconds <= runTimeoutSeconds
      ? `  ✓ the run budget (CONFORMANCE_RUN_TIMEOUT_S=${runTimeoutSeconds}) covers it`
      : `  ✗ the run budget (CONFORMANCE_RUN_TIMEOUT_S=${runTimeoutSeconds}) is too small: CONFORMANCE_RUN_TIMEOUT_S=${Math.ceil((estimate.seconds * 1.25) / 60) * 60} would fit`,
  ];
}

/** Per requirement family (ID prefix): MUST requirements this configuration verifies, and why not the others. */
function familyTable(config: SuiteConfig): string[] {
  const families = new Map<string, { total: number; verified: number; missing: Map<string, string[]> }>();
  for (const requirement of verifiableMust()) {
    const family = requirement.id.split('-')[0] ?? requirement.id;
    const row = families.get(family) ?? { total: 0, verified: 0, missing: new Map() };
    families.set(family, row);
    row.total++;
    const reasons = reasonsUnverifiable(config, requirement);
    if (reasons.length === 0) row.verified++;
    for (const reason of reasons)
      row.missing.set(reason, [...(row.missing.get(reason) ?? []), requirement.id]);
  }
  const lines = [
    '| Family | MUST | Will verify | Will not verify: which, why, and what enables it |',
    '| --- | ---: | ---: | --- |',
  ];
  for (const [family, row] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    const why = [...row.missing].map(([reason, ids]) => `${ids.join(', ')}: ${reason}`).join('; ');
    lines.push(`| ${family} | ${row.total} | ${row.verified} | ${why || '—'} |`);
  }
  return lines;
}

/** The configuration and the run's time budget, or null (said on the console) when they cannot be read. */
function readConfiguration(): { config: SuiteConfig; runTimeoutSeconds: number } | null {
  try {
    const environment = resolveEnvironment();
    const config = configOf(environment, storeExpiries);
    const { runTimeoutSeconds } = runOptions(environment);
    return { config, runTimeoutSeconds };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.log(`✗ ${error.message}`);
    return null;
  }
}

/** The doctor's client: it records the limits the target announced and counts its requests and sign-in steps. */
function doctorClient(transport: Transport, config: SuiteConfig) {
  const counts = { sent: 0, signInSteps: 0 };
  // What the target showed of its limits, per kind of credential (the partner API's own path tells it apart).
  const budgets = {
    user: new RateBudget(Number.POSITIVE_INFINITY),
    partner: new RateBudget(Number.POSITIVE_INFINITY),
  };
  const api = standaloneClient(transport, {
    baseUrl: config.baseUrl,
    timeoutMs: config.requestTimeoutMs,
    onExchange: (exchange) => {
      const kind = new URL(exchange.request.url).pathname.includes('/v2/partner/') ? 'partner' : 'user';
      budgets[kind].observe(observationOf(exchange.status, announcedRateLimit(exchange.headers)));
    },
    // At most MAX_REQUESTS, and no write: reads, and POSTs to the partner token endpoint. A sign-in's steps
    // (its forms, wherever they post, and the token endpoint) are no write of data: counted apart, bounded
    // by the sign-in itself (src/auth/form-sign-in.ts).
    guard: (method, url, _token, signIn) => {
      if (signIn) {
        counts.signInSteps++;
        return;
      }
      if (method !== 'GET' && !/\/partner\/token$/.test(url.pathname))
        throw new Error(`the doctor sends no write (${method} ${url.pathname})`);
      if (++counts.sent > MAX_REQUESTS) throw new Error(`the doctor's ${MAX_REQUESTS} requests are spent`);
    },
  });
  const shown = (): ShownRates => ({ user: budgets.user.shown(), partner: budgets.partner.shown() });
  return { api, shown, counts };
}

/** The closing lines: the problems on each side, or that the run is ready. */
function verdictLines(failed: readonly Check[]): string[] {
  const runSide = failed.filter((done) => done.side === 'run').length;
  const servers = failed.length - runSide;
  return [
    '',
    ...(runSide > 0
      ? [
          `✗ ${runSide} problem(s) on the run's side: the run would end ERROR on them (exit 2 or 4), charging the server nothing`,
        ]
      : []),
    ...(servers > 0
      ? [`✗ ${servers} failure(s) of the server: the run would charge them to the server (FAIL, exit 1)`]
      : []),
    ...(failed.length === 0 ? ['✓ ready to run'] : []),
  ];
}

async function main(): Promise<number> {
  const configuration = readConfiguration();
  if (!configuration) return 2;
  const { config, runTimeoutSeconds } = configuration;
  for (const secret of secretsOf(config)) registerSecret(secret);
  const transport = nodeTransport();
  const { api, shown, counts } = doctorClient(transport, config);
  try {
    console.log(
      `Doctor: ${config.target} target ${config.baseUrl} (auth ${config.authUrl}), ${config.environment}, profile ${config.profile}`,
    );
    const checks = await runChecks(config, api);
    for (const { name, outcome, detail } of checks) console.log(`  ${MARK[outcome]} ${name}: ${detail}`);
    console.log(
      `  ${Math.min(counts.sent, MAX_REQUESTS)} requests, none a write${counts.signInSteps > 0 ? `, and ${counts.signInSteps} of sign-in` : ''}\n`,
    );
    for (const line of planLines(config, runTimeoutSeconds, shown())) console.log(line);
    console.log('');
    for (const line of familyTable(config)) console.log(line);
    const failed = checks.filter((done) => done.outcome === 'failed');
    console.log(verdictLines(failed).join('\n'));
    return failed.length > 0 ? 1 : 0;
  } finally {
    transport.dispose();
  }
}

/** The preflight (`physiology-conformance doctor`): its exit status; an unexpected error is a 2 too. */
export function doctor(): Promise<number> {
  return main().catch((error: unknown) => {
    console.error(`doctor: ${redactText(messageOf(error))}`);
    return 2;
  });
}
