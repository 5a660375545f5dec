// Every CONFORMANCE_* variable, one row each: its parser, default, one line of documentation, whether it
// holds a secret. The configuration reads variables through read() only;
// the secrets to redact, the reports' reasons, doctor's hints, the tables of docs/variables.md and --help come from here.
import { TIMEOUT_RULE } from '../http/request-timeout.ts';
import { DEFAULT_SIGNATURE_SCHEME, SIGNATURE_ENCODINGS } from '../http/webhook-signature.ts';
import { DEFAULT_PROFILE, PROFILE_NAMES, profileList, profileRow } from './profiles.ts';
import type { Parser } from './variable-parsers.ts';
import * as parse from './variable-parsers.ts';

/** Variables by name, as the environment or a file gives them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where docs/variables.md documents a variable: one table per section. */
export const SECTIONS = {
  server: 'Running against a server',
  'your-server': 'Running against your server: sign-in and tokens',
  webhooks: 'Running against your server: webhooks',
  recording: 'Recorded traffic',
  run: 'Set by the suite for the processes it starts',
} as const;
export type Section = keyof typeof SECTIONS;

interface Row<T> {
  section: Section;
  doc: string;
  parse: Parser<T>;
  /** The value when unset or empty: a constant, or derived from the other variables. */
  default?: T | ((env: Env) => T);
  /** The default as the documentation states it, where it is derived. */
  shown?: string;
  secret?: true;
  /** An older name the variable is still read under (the name itself wins where both are set). */
  alias?: string;
}

/** The partner token request's grant_type and scope in the seed's example. */
export const SEED_PARTNER_TOKEN_REQUEST = { grantType: 'client_credentials', scope: 'service-partner/token' };

export const variables = {
  CONFORMANCE_BASE_URL: {
    section: 'server',
    doc: 'the service root, with the `/developer` prefix; when set, no sandbox is started',
    parse: parse.url,
    shown: 'none: the run starts the embedded sandbox',
  },
  CONFORMANCE_AUTH_URL: {
    section: 'server',
    doc: 'the authorization server',
    parse: parse.url,
    default: (env: Env): string => new URL(read(env, 'CONFORMANCE_BASE_URL') ?? '').origin,
    shown: "the base URL's origin",
  },
  CONFORMANCE_TARGET: {
    section: 'server',
    doc: '`prism` runs against a Prism mock of `specs/openapi.yaml` (started by the run); `sandbox`, `remote`',
    parse: parse.oneOf(['sandbox', 'prism', 'remote'] as const),
    default: (env: Env): 'sandbox' | 'prism' | 'remote' => (env.CONFORMANCE_BASE_URL ? 'remote' : 'sandbox'),
    shown: '`remote` with a base URL, else `sandbox`',
  },
  CONFORMANCE_CLIENT_ID: {
    section: 'server',
    doc: 'the OAuth client of the user flow',
    parse: parse.text,
  },
  CONFORMANCE_CLIENT_SECRET: {
    section: 'server',
    doc: "the OAuth client's secret",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_REDIRECT_URI: {
    section: 'server',
    doc: "the OAuth client's redirect URI",
    parse: parse.text,
  },
  CONFORMANCE_USER: {
    section: 'server',
    doc: "the test user who logs in on the target's login form (authorization code flow)",
    parse: parse.text,
  },
  CONFORMANCE_PASSWORD: {
    section: 'server',
    doc: "the test user's password",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_USER_B: {
    section: 'server',
    doc: 'optional second user (other-user and foreign-cursor checks)',
    parse: parse.text,
  },
  CONFORMANCE_PASSWORD_B: {
    section: 'server',
    doc: "the second user's password",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_USER_TOKENS: {
    section: 'server',
    doc: 'instead of a login: pre-issued tokens, JSON `{"read:cycles read:sleep": "<token>", ...}`',
    parse: parse.userTokens,
    secret: true,
  },
  CONFORMANCE_PARTNER_A_CLIENT_ID: {
    section: 'server',
    doc: 'partner A (client credentials)',
    parse: parse.text,
  },
  CONFORMANCE_PARTNER_A_CLIENT_SECRET: {
    section: 'server',
    doc: "partner A's client secret",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_PARTNER_B_CLIENT_ID: {
    section: 'server',
    doc: 'partner B (ownership checks)',
    parse: parse.text,
  },
  CONFORMANCE_PARTNER_B_CLIENT_SECRET: {
    section: 'server',
    doc: "partner B's client secret",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_PARTNER_A_SIGNING_SECRET: {
    section: 'server',
    doc: 'partner A\'s webhook signing secret (also read as `CONFORMANCE_PARTNER_SIGNING_SECRET`, its older name); the signature scheme: `CONFORMANCE_SIGNATURE_*` (docs/sign-in.md, "Webhooks")',
    parse: parse.text,
    secret: true,
    alias: 'CONFORMANCE_PARTNER_SIGNING_SECRET',
  },
  CONFORMANCE_PARTNER_B_SIGNING_SECRET: {
    section: 'server',
    doc: "partner B's webhook signing secret: the embedded sandbox's (`sandbox/sandbox.env`); the suite does not use it",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_PARTNER_REQUISITION_IDS: {
    section: 'server',
    doc: 'requisition ids partner A owns (comma-separated): used on production targets, and wherever add-test-data names no requisition (its documented 204); a test that changes one claims it for its duration',
    parse: parse.uuidList,
  },
  CONFORMANCE_PRODUCTION_BASE_URL: {
    section: 'server',
    doc: "for a non-production target: the same service's production deployment, where partner A's credentials also hold; `TD-PRODUCTION-404` sends its one add-test-data request there (the embedded sandbox sets it to a production twin)",
    parse: parse.url,
  },
  CONFORMANCE_ENVIRONMENT: {
    section: 'server',
    doc: '`non-production` or `production`',
    parse: parse.oneOf(['production', 'non-production'] as const),
    default: 'non-production',
  },
  CONFORMANCE_PROFILE: {
    section: 'server',
    doc: profileList((name) => `\`${name}\``),
    parse: parse.oneOf(PROFILE_NAMES),
    default: DEFAULT_PROFILE,
  },
  CONFORMANCE_STRICT: {
    section: 'server',
    doc: "`1`: warnings (the suite's readings of loosely stated points) fail",
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_LATENCY_BUDGET: {
    section: 'server',
    doc: "p95 budgets in ms per operationId, `*` for the rest (e.g. `listCycles=800,*=1500`): an operation whose recorded p95 is over its budget is a warning of `LAT-BUDGET` (the seed states no latency; the budget is the team's), a failure only with `CONFORMANCE_STRICT=1`. Judged on the recorded numbers, never by a timed assertion",
    parse: parse.latencyBudgets,
    default: {},
  },
  CONFORMANCE_REQUEST_TIMEOUT_MS: {
    section: 'server',
    doc: "the bound for every request (user, partner, OAuth): an answer that comes before it is an answer, judged on its content however late (past 1 s it is listed in the report's latency section); a request without one by then is unanswered, charged once to its operation (docs/rate-limits.md). A read still unanswered at its resend mark is sent again beside the first, so a lost answer costs the run the resend mark, not the bound",
    parse: parse.positiveInteger,
    shown: `${TIMEOUT_RULE.boundMs} (what a production client allows: gateways cut at 29 to 100 s, Playwright's default is 30 s); the resend mark: the p99 of the operation's latest answers (with fewer than ${TIMEOUT_RULE.minAnswers}, the slowest answer to any), ${TIMEOUT_RULE.slowMs} to ${TIMEOUT_RULE.resendCeilingMs} ms`,
  },
  CONFORMANCE_UNANSWERED_BUDGET: {
    section: 'server',
    doc: 'requests the run may see go unanswered in a check (all their sendings), over all its workers; once spent the target has stopped answering: the run sends nothing more, every check not yet run is *not verified* ("blocked: the target stopped answering"), and the summary says so first',
    parse: parse.positiveInteger,
    default: 5,
  },
  CONFORMANCE_SEED: {
    section: 'server',
    doc: 'the fast-check seed of every generated request (fixed by default, so the same server gets the same verdict on every run); an integer to replay one, or `random`: an exploring run (`CONFORMANCE_EXPLORE`) with a new seed; the report and every property failure name the seed',
    parse: parse.seed,
    default: parse.FIXED_PROPERTY_SEED,
  },
  CONFORMANCE_DEPTH: {
    section: 'server',
    doc: 'how deep the run reads (docs/profiles-and-targets.md, "Depth"): `auto` from the rate limit (configured, announced or learned from the target\'s answers), the run\'s budget and the profile, made again when the target shows another; `deep` or `budgeted` pins it (smoke keeps its own)',
    parse: parse.oneOf(['auto', 'deep', 'budgeted'] as const),
    default: 'auto',
  },
  CONFORMANCE_EXPLORE: {
    section: 'server',
    doc: '`1`: an exploring run (nightly; `run --explore`): a new seed each run unless `CONFORMANCE_SEED` names one, printed at the start; failing generated cases are shrunk, and each is added to the failure store',
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_FAILURE_STORE: {
    section: 'server',
    doc: 'the file of every seed and counterexample that ever failed (JSON lines; commit it, or keep it in a CI cache): every run replays it first, an exploring run adds to it (docs/profiles-and-targets.md, "Exploring")',
    parse: parse.text,
    default: 'conformance-failures.jsonl',
  },
  CONFORMANCE_RUN_TIMEOUT_S: {
    section: 'server',
    doc: 'whole-run budget in seconds; when spent the run stops, still writes every report, and is INCOMPLETE',
    parse: parse.positiveInteger,
    default: 900,
  },
  CONFORMANCE_ALLOW_INCOMPLETE: {
    section: 'server',
    doc: '`1`: an INCOMPLETE run exits 0, except a narrowed certification (a selection: `CONFORMANCE_GREP`, `--grep`...)',
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_REQUEST_BUDGET: {
    section: 'server',
    doc: "the smoke profile's request budget: requests to the service's API, user data and partner (a sign-in's steps are counted apart; docs/profiles-and-targets.md, \"The smoke budget\"); once spent, the checks left are not verified, naming it",
    parse: parse.positiveInteger,
    default: 60,
  },
  CONFORMANCE_RATE_LIMIT: {
    section: 'server',
    doc: "the target's documented limit of the OAuth client, e.g. `100/60`: the 429 burst's limit and the rate the depth plan is made for, unless the target shows a stricter one (unset: read from its response headers, a window they do not name learned from its answers; docs/rate-limits.md)",
    parse: parse.rateLimit,
  },
  CONFORMANCE_RATE_LIMIT_HEADERS: {
    section: 'server',
    doc: 'the headers the target documents on a 429 (comma-separated)',
    parse: parse.trimmedList,
    default: (env: Env): string[] => (env.CONFORMANCE_RATE_LIMIT ? ['Retry-After'] : []),
    shown: '`Retry-After` with a documented limit, else none',
  },
  CONFORMANCE_RATE_LIMIT_BUDGET: {
    section: 'server',
    doc: 'the most requests the 429 burst may send',
    parse: parse.positiveInteger,
    default: 1000,
  },
  CONFORMANCE_ACCEPT_403: {
    section: 'server',
    doc: "`1`: a 403 (RFC 6750's insufficient_scope) to a token lacking a scope is no warning (the suite's reading is the Errors table's 401; any other status fails SCOPE-READ-*)",
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_SIGNING_KEY_FILE: {
    section: 'server',
    doc: 'the certifying party\'s Ed25519 private key (a PEM file): a certification result is signed with it, and `verify-report --public-key` checks the signature (docs/reports.md, "Certificates"); unset: the result carries an integrity digest, not a signature',
    parse: parse.ed25519KeyFile,
  },
  CONFORMANCE_EXPECTATIONS: {
    section: 'server',
    doc: 'known deviations file (docs/profiles-and-targets.md, "Known deviations")',
    parse: parse.text,
  },
  CONFORMANCE_PRISM_PROXY: {
    section: 'server',
    doc: '`1`: every exchange with a real target also goes through Prism as a validating proxy',
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_ENV_FILE: {
    section: 'server',
    doc: 'a file of these variables, e.g. `sandbox/sandbox.env` (the environment wins over it)',
    parse: parse.path,
  },
  CONFORMANCE_WORKERS: {
    section: 'server',
    doc: 'Playwright workers; on the embedded sandbox one more runs the isolated tests beside the rest; on a server of CONFORMANCE_BASE_URL, whose answers the workers mostly wait for, 4 by default, each test dispatched on its own, so that a test waiting for an answer that never comes holds back none behind it',
    parse: parse.positiveInteger,
    default: (env: Env): number => {
      const row = profileRow(read(env, 'CONFORMANCE_PROFILE'));
      return env.CONFORMANCE_BASE_URL ? row.waitingWorkers : row.workers;
    },
    shown: '2, smoke 1 (4 with CONFORMANCE_BASE_URL)',
  },
  CONFORMANCE_GREP: {
    section: 'server',
    doc: 'a regular expression selecting tests by title and tags, in both Playwright projects (e.g. `@PAG-LIMIT-MAX(?=\\s|$)`); prefer it to `--grep`, which the isolated project (429 burst, revocation) does not honour. A narrowed run is INCOMPLETE at best, never PASS (except in the smoke profile)',
    parse: parse.text,
  },
  CONFORMANCE_TOKEN_STORE: {
    section: 'your-server',
    doc: "the token store: a JSON file, mode 0600, never under `reports/` (refused there). `npm run login` puts each user's grant (refresh token) in it; runs take each scope set's token with the `refresh_token` grant and write the rotated refresh token back atomically (temporary file + rename, under a lock file), so two runs at once never lose the grant. A grant that died (the revocation checks revoke user B's) is replaced by one sign-in during the run. It keeps each access token issued, with its expiry",
    parse: parse.path,
  },
  CONFORMANCE_SIGN_IN: {
    section: 'your-server',
    doc: 'how a user signs in when no grant is stored: `auto` (the page decides: a served HTML form by the HTTP form filler, a page built by script in headless Chromium), `browser` or `form` to force one',
    parse: parse.oneOf(['auto', 'browser', 'form'] as const),
    default: 'auto' as const,
  },
  CONFORMANCE_CLIENT_AUTH: {
    section: 'your-server',
    doc: '`client_secret_post` or `client_secret_basic` (RFC 6749 §2.3.1): the method tried first; after a 401 the other is tried and kept',
    parse: parse.oneOf(['client_secret_post', 'client_secret_basic'] as const),
    default: 'client_secret_post',
  },
  CONFORMANCE_PKCE: {
    section: 'your-server',
    doc: 'authorization requests carry a PKCE S256 challenge, the code exchange its verifier (RFC 7636; a server that does not support PKCE ignores both, §4.5); `0` sends neither',
    parse: parse.flag,
    default: true,
  },
  CONFORMANCE_OFFLINE_SCOPE: {
    section: 'your-server',
    doc: 'the scope that makes the server issue a refresh token',
    parse: parse.text,
    default: 'offline',
  },
  CONFORMANCE_CHROMIUM: {
    section: 'your-server',
    doc: "the Chromium binary (Debian's `chromium` package by default)",
    parse: parse.text,
    default: '/usr/bin/chromium',
  },
  CONFORMANCE_EXPIRED_USER_TOKEN: {
    section: 'your-server',
    doc: "an expired token of user A, for `AUTH-EXPIRED-TOKEN` (unset: the token store's most recently expired one)",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_EXPIRED_PARTNER_TOKEN: {
    section: 'your-server',
    doc: "an expired token of partner A, for `PAUTH-EXPIRED-TOKEN` (unset: the token store's most recently expired one)",
    parse: parse.text,
    secret: true,
  },
  CONFORMANCE_PARTNER_SCOPE: {
    section: 'your-server',
    doc: "the partner token request's `scope` (default: the seed's); a request without it (the seed marks it optional) is checked too",
    parse: parse.text,
    default: SEED_PARTNER_TOKEN_REQUEST.scope,
  },
  CONFORMANCE_PARTNER_GRANT_TYPE: {
    section: 'your-server',
    doc: "the partner token request's `grant_type` (default: the seed's); a request without it is checked too",
    parse: parse.text,
    default: SEED_PARTNER_TOKEN_REQUEST.grantType,
  },
  CONFORMANCE_WEBHOOK_LISTEN: {
    section: 'webhooks',
    doc: "`HOST:PORT` the suite's receiver listens on, e.g. `0.0.0.0:8787` (set with the next)",
    parse: parse.listenAddress,
  },
  CONFORMANCE_WEBHOOK_PUBLIC_URL: {
    section: 'webhooks',
    doc: 'the URL the team registered with the service; it must reach the receiver',
    parse: parse.url,
  },
  CONFORMANCE_WEBHOOK_WAIT_S: {
    section: 'webhooks',
    doc: 'how long a check waits for a webhook, and for none after a revocation, in seconds',
    parse: parse.positiveInteger,
    // The embedded sandbox delivers at once: 2 s is the shortest wait that still looks past the 1 s a
    // delivery started before a revocation may take (revoke.spec.ts), and the ci-gate run's longest test.
    default: (env: Env): number => (read(env, 'CONFORMANCE_TARGET') === 'sandbox' ? 2 : 10),
    shown: '10; 2 on the embedded sandbox',
  },
  CONFORMANCE_SIGNATURE_HEADER: {
    section: 'webhooks',
    doc: 'the header carrying the signature',
    parse: parse.text,
    default: DEFAULT_SIGNATURE_SCHEME.header,
  },
  CONFORMANCE_SIGNATURE_ALGORITHM: {
    section: 'webhooks',
    doc: "the HMAC hash (any of `node:crypto`'s)",
    parse: parse.hashAlgorithm,
    default: DEFAULT_SIGNATURE_SCHEME.algorithm,
  },
  CONFORMANCE_SIGNATURE_ENCODING: {
    section: 'webhooks',
    doc: '`hex` or `base64` (base64url accepted)',
    parse: parse.oneOf(SIGNATURE_ENCODINGS),
    default: DEFAULT_SIGNATURE_SCHEME.encoding,
  },
  CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: {
    section: 'webhooks',
    doc: 'a header whose value is signed before the body (`<value><raw body>`); unset: the raw body alone',
    parse: parse.text,
  },
  CONFORMANCE_RECORD_HAR: {
    section: 'recording',
    doc: 'file the live run writes a redacted HAR 1.2 of its exchanges to',
    parse: parse.path,
  },
  CONFORMANCE_BASELINE: {
    section: 'recording',
    doc: 'a previous `conformance.json`: adds the "since last run" comparison',
    parse: parse.path,
  },
  CONFORMANCE_FAIL_ON: {
    section: 'recording',
    doc: '`any` or `new`: only new failures (against the baseline) fail the exit status; a run whose only failures are old ends as it would without them (ERROR, INCOMPLETE or PASS), and a run without failures keeps its own status (a narrowed run stays INCOMPLETE)',
    parse: parse.oneOf(['any', 'new'] as const),
    default: 'any',
  },
  CONFORMANCE_MATRIX: {
    section: 'run',
    doc: "a JSON file listing the run's targets, instances of the embedded sandbox (the variant and mutation gates)",
    parse: parse.text,
  },
  CONFORMANCE_SANDBOX_FAULTS: {
    section: 'run',
    doc: 'the faults injected into the embedded sandbox (comma-separated; self tests, mutation runs)',
    parse: parse.list,
    default: [],
  },
  CONFORMANCE_SANDBOX_VARIANTS: {
    section: 'run',
    doc: 'the conforming variants the embedded sandbox runs as (comma-separated)',
    parse: parse.list,
    default: [],
  },
  CONFORMANCE_REPORTS_DIR: {
    section: 'run',
    doc: 'where the run writes (the mutation runner gives each mutant its own)',
    parse: parse.path,
    shown: '`reports/`',
  },
  CONFORMANCE_ALLURE_REPORT: {
    section: 'server',
    doc: '`1`: the run also renders the Allure HTML report, `reports/allure/index.html` (the Allure results and history are always written)',
    parse: parse.flag,
    default: false,
  },
  CONFORMANCE_ALLURE_HISTORY: {
    section: 'run',
    doc: 'the Allure history file, e.g. one a CI job caches',
    parse: parse.path,
    shown: '`allure-history.jsonl` in the reports directory',
  },
  CONFORMANCE_STOP_FILE: {
    section: 'run',
    doc: 'a file whose appearance tells the workers to stop sending (`npm run conformance` on Ctrl-C)',
    parse: parse.path,
  },
  CONFORMANCE_RUN_MANIFEST: {
    section: 'run',
    doc: 'the run manifest of the run a process belongs to (set by global setup for its workers)',
    parse: parse.path,
  },
  CONFORMANCE_SELF_TEST_ERROR: {
    section: 'run',
    doc: "test-only, set by the suite's self tests: `type-error:<ID>` makes the checks declaring requirement ID throw a TypeError of the suite's own code, `hang:<ID>` makes them wait until their test timeout (the run must end ERROR `suite`); read from the process environment alone, and only against the embedded sandbox",
    parse: parse.text,
  },
} as const satisfies Record<`CONFORMANCE_${string}`, Row<unknown>>;

export type VariableName = keyof typeof variables;
type RowOf<N extends VariableName> = (typeof variables)[N];
type ParsedOf<N extends VariableName> = RowOf<N>['parse'] extends Parser<infer T> ? T : never;

/** A variable's value: parsed when set, else its default (undefined where it has none). */
export type ValueOf<N extends VariableName> =
  RowOf<N> extends { default: unknown } ? ParsedOf<N> : ParsedOf<N> | undefined;

/** Every row, for what is generated from the table. */
export const rows = (): [VariableName, Row<unknown>][] =>
  Object.entries(variables) as [VariableName, Row<unknown>][];

export const isVariableName = (name: string): name is VariableName => Object.hasOwn(variables, name);

/** The variable a name names: its own, or the one whose older name it is (undefined: none). */
export const variableNamed = (name: string): VariableName | undefined =>
  isVariableName(name) ? name : rows().find(([, row]) => row.alias === name)?.[0];

/** The value of a variable of `env` (resolved: ./environment.ts). */
export function read<N extends VariableName>(env: Env, name: N): ValueOf<N> {
  const row: Row<unknown> = variables[name];
  const value = env[name] || (row.alias === undefined ? undefined : env[row.alias]);
  if (value) return row.parse(value, name) as ValueOf<N>;
  return (typeof row.default === 'function' ? row.default(env) : row.default) as ValueOf<N>;
}
