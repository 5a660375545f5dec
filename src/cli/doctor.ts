// `npm run doctor`: a preflight of the configuration given (environment and CONFORMANCE_ENV_FILE). It checks
// that the target answers, that both token flows work (the user's: from the token store's grant, or a
// sign-in; the partner's: client credentials with the configured scope and grant type) and each credential
// (users A and B, partners A and B, given expired tokens), in at most 12 requests of its own, none of them a
// write (a sign-in's steps, posts included, are no write of data: they are counted apart). Then it prints,
// per requirement family, what this configuration will verify, what it will not and why, and the variable
// that would enable it (from the capabilities the suite itself uses), and the depth the run will use and why
// (src/config/depth-plan.ts: the profile, the run's budget and the limit the target announced). One line per problem, each said to be
// the run's side (the run would end ERROR) or the server's (the run would charge it: FAIL); exit 1 when a
// check failed, 2 when the configuration cannot be read. Prints no secret.
import { storeExpiries } from '../auth/expired-tokens.ts';
import { PartnerClient } from '../auth/partner-client.ts';
import { SignInServerFailure } from '../auth/sign-in-errors.ts';
import { type UserName, UserTokenPool } from '../auth/user-token-pool.ts';
import { type Capability, reasonsUnverifiable, variablesSupplying } from '../config/capabilities.ts';
import { configOf, runOptions } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import {
  type AnnouncedLimit,
  depthPlan,
  describePlan,
  limitAnnounced,
  rotationOf,
  secondsAtLimit,
} from '../config/depth-plan.ts';
import { resolveEnvironment } from '../config/environment.ts';
import { secretsOf } from '../config/secrets.ts';
import type { ClientCredentials, SuiteConfig } from '../config/suite-config.ts';
import { operationById } from '../contract/operations.ts';
import { verifiableMust } from '../contract/requirements.ts';
import type { ApiClient } from '../http/api-client.ts';
import { bodyOf, type Exchange } from '../http/exchange.ts';
import { redactText, registerSecret } from '../http/redact.ts';
import type { RequestTally } from '../http/request-counter.ts';
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

/** Time a run needs besides its waits for the rate limit, and what the run keeps for its reports. */
const RUN_OWN_SECONDS = 60;
const REPORTING_MARGIN_S = 20;

/**
 * The run's depth plan (src/config/depth-plan.ts) from what the target announced, and its requests per
 * credential, time, and the budget that fits.
 */
function planLines(
  config: SuiteConfig,
  runTimeoutSeconds: number,
  limits: Partial<Record<keyof RequestTally, AnnouncedLimit>>,
): string[] {
  const depth = depthPlan({
    profile: config.profile,
    runTimeoutSeconds,
    announced: limits.user,
    rotation: rotationOf(new Date().toISOString(), config.explore, config.propertySeed),
    pinned: config.depth,
  });
  const plan = depth.requests;
  const lines = [
    ...describePlan(depth),
    `Plan for profile ${config.profile} (measured on the sandbox's data): about ${plan.user} user-data and ${plan.partner} partner requests`,
  ];
  let waits = 0;
  for (const kind of ['user', 'partner'] as const) {
    const limit = limits[kind];
    const what = kind === 'user' ? 'user data (the OAuth client)' : 'partner (each client)';
    if (!limit) {
      lines.push(`  ${what}: no limit with a window announced`);
      continue;
    }
    const seconds = secondsAtLimit(plan[kind], limit);
    waits = Math.max(waits, seconds);
    lines.push(
      `  ${what}: ${limit.limit} per ${limit.windowSeconds} s announced: about ${Math.ceil(seconds / 60)} min of waits for the limit`,
    );
  }
  const needed = waits + RUN_OWN_SECONDS + REPORTING_MARGIN_S;
  lines.push(
    needed <= runTimeoutSeconds
      ? `  ✓ the run budget (CONFORMANCE_RUN_TIMEOUT_S=${runTimeoutSeconds}) covers about ${needed} s`
      : `  ✗ the run budget (CONFORMANCE_RUN_TIMEOUT_S=${runTimeoutSeconds}) is too small: CONFORMANCE_RUN_TIMEOUT_S=${Math.ceil(needed / 60) * 60} would fit`,
  );
  return lines;
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
  // The limits the target announced, per kind of credential (the partner API's own path tells it apart).
  const limits: Partial<Record<keyof RequestTally, AnnouncedLimit>> = {};
  const api = standaloneClient(transport, {
    baseUrl: config.baseUrl,
    timeoutMs: config.requestTimeoutMs,
    onExchange: (exchange) => {
      const announced = limitAnnounced(exchange.headers);
      const kind = new URL(exchange.request.url).pathname.includes('/v2/partner/') ? 'partner' : 'user';
      if (announced) limits[kind] = announced;
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
  return { api, limits, counts };
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
  const { api, limits, counts } = doctorClient(transport, config);
  try {
    console.log(
      `Doctor: ${config.target} target ${config.baseUrl} (auth ${config.authUrl}), ${config.environment}, profile ${config.profile}`,
    );
    const checks = await runChecks(config, api);
    for (const { name, outcome, detail } of checks) console.log(`  ${MARK[outcome]} ${name}: ${detail}`);
    console.log(
      `  ${Math.min(counts.sent, MAX_REQUESTS)} requests, none a write${counts.signInSteps > 0 ? `, and ${counts.signInSteps} of sign-in` : ''}\n`,
    );
    for (const line of planLines(config, runTimeoutSeconds, limits)) console.log(line);
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
