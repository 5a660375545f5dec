// Command line of the sandbox: `npm run sandbox -- --port 4010 [options]`.
import { parseArgs } from 'node:util';
import { startSandbox } from './app.ts';
import { faults } from './faults/index.ts';
import {
  parseEnvironment,
  parseFaultList,
  parseLoginPage,
  parseRateLimit,
  parseRateLimitHeaders,
  parseVariantList,
} from './options.ts';
import { variants } from './variants.ts';

const usage = `Usage: npm run sandbox -- [options]

  --port N                 port to listen on (default 4010; 0 picks a free port)
  --host HOST              interface to bind (default 127.0.0.1)
  --environment ENV        non-production (default) or production
  --seed N                 seed of the generated data (default 1)
  --rate-limit N/SECONDS[,N/SECONDS...]
                           requests per window per client (default 2000/60); several fixed windows, e.g.
                           100/60,10000/86400: a request is served only when every one allows it
  --rate-limit-headers STYLE
                           default: X-RateLimit-Limit/-Remaining/-Reset, and Retry-After on a 429;
                           production: X-RateLimit-Limit lists every policy after the governing limit
                           ("100, 100;window=60, 10000;window=86400"), and a 429 has no Retry-After
  --faults a,b,c           inject faults (see --list-faults)
  --list-faults            print every fault with the requirement it breaks, then exit
  --variants a,b,c         run conforming variants, behaviours the seed allows (see --list-variants)
  --list-variants          print every variant with what it changes and the seed text allowing it, then exit
  --realistic-login        a real server's sign-in: script-rendered login form with CSRF, consent step,
                           client authentication by HTTP Basic only (what npm run login drives)
  --login-page NAME        the served sign-in page otherwise: plain (default; one form, "Allow access"),
                           french, consent (a French login, then a consent page with an icon allow
                           button, the refusal first), enter-only (a form with no button)
  --token-lifetime SECONDS lifetime of the access tokens issued (default 3600)
  --user-activity MS       every MS each user's data changes on its own: a webhook to each client with a
                           registered receiver, as a real user's activity causes (default 0: never)
  --log                    print one line per request
  --help                   this text`;

/** Rows as aligned columns (every column but the last padded to its widest cell). */
function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows
    .map((row) =>
      row.map((cell, column) => (column < row.length - 1 ? cell.padEnd(widths[column] ?? 0) : cell)),
    )
    .map((cells) => cells.join('  '))
    .join('\n');
}

const listFaults = (): string =>
  table(
    Object.entries(faults).map(([name, fault]) => [name, fault.requirement, fault.area, fault.description]),
  );

const listVariants = (): string =>
  Object.entries(variants)
    .map(([name, variant]) => `${name}\n    ${variant.description}\n    seed: ${variant.seed}`)
    .join('\n');

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new Error(`--${name} expects an integer ${min}-${max}`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      environment: { type: 'string', default: 'non-production' },
      seed: { type: 'string', default: '1' },
      'rate-limit': { type: 'string' },
      'rate-limit-headers': { type: 'string', default: 'default' },
      faults: { type: 'string', default: '' },
      'list-faults': { type: 'boolean', default: false },
      variants: { type: 'string', default: '' },
      'list-variants': { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      'realistic-login': { type: 'boolean', default: false },
      'login-page': { type: 'string', default: 'plain' },
      'token-lifetime': { type: 'string', default: '3600' },
      'user-activity': { type: 'string', default: '0' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (values['list-faults']) {
    process.stdout.write(`${listFaults()}\n`);
    return;
  }
  if (values['list-variants']) {
    process.stdout.write(`${listVariants()}\n`);
    return;
  }
  const startedAt = performance.now();
  const sandbox = await startSandbox({
    port: integer('port', values.port, 0, 65535),
    host: values.host,
    environment: parseEnvironment(values.environment),
    seed: integer('seed', values.seed, 0, 2 ** 31 - 1),
    faults: parseFaultList(values.faults),
    variants: parseVariantList(values.variants),
    logRequests: values.log,
    realisticLogin: values['realistic-login'],
    loginPage: parseLoginPage(values['login-page']),
    tokenLifetimeSeconds: integer('token-lifetime', values['token-lifetime'], 1, 86_400),
    userActivityMs: integer('user-activity', values['user-activity'], 0, 3_600_000),
    ...(values['rate-limit'] ? { rateLimit: parseRateLimit(values['rate-limit']) } : {}),
    rateLimitHeaders: parseRateLimitHeaders(values['rate-limit-headers']),
  });
  const ms = (performance.now() - startedAt).toFixed(0);
  process.stdout.write(
    `sandbox listening in ${ms} ms\n  base_url  ${sandbox.baseUrl}\n  auth_url  ${sandbox.authUrl}\n` +
      (values.faults ? `  faults    ${values.faults}\n` : '') +
      (values.variants ? `  variants  ${values.variants}\n` : ''),
  );
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
  process.exit(2);
});
