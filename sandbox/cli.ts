// The sandbox as a command (`physiology-conformance sandbox`, `npm run sandbox -- --port 4010 [options]`):
// its options as the command line gives them (src/cli/commands/sandbox.ts declares them).
import { readFileSync } from 'node:fs';
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

/** --tls-cert and --tls-key, both or neither: the PEM files read. */
function tls(values: Pick<SandboxOptions, 'tlsCert' | 'tlsKey'>): { tls?: { key: string; cert: string } } {
  if (!values.tlsCert && !values.tlsKey) return {};
  if (!values.tlsCert || !values.tlsKey) throw new Error('--tls-cert and --tls-key go together');
  return { tls: { cert: readFileSync(values.tlsCert, 'utf8'), key: readFileSync(values.tlsKey, 'utf8') } };
}

export interface SandboxOptions {
  port: string;
  host: string;
  environment: string;
  seed: string;
  rateLimit?: string;
  rateLimitHeaders: string;
  faults: string;
  listFaults: boolean;
  variants: string;
  listVariants: boolean;
  log: boolean;
  realisticLogin: boolean;
  loginPage: string;
  tokenLifetime: string;
  userActivity: string;
  historyDays: string;
  captchaFrom?: string;
  captchaFor?: string;
  tlsCert?: string;
  tlsKey?: string;
}

/** Lists, or starts the sandbox and serves until SIGINT or SIGTERM: the exit status. */
export async function serveSandbox(values: SandboxOptions): Promise<number> {
  if (values.listFaults) {
    process.stdout.write(`${listFaults()}\n`);
    return 0;
  }
  if (values.listVariants) {
    process.stdout.write(`${listVariants()}\n`);
    return 0;
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
    realisticLogin: values.realisticLogin,
    loginPage: parseLoginPage(values.loginPage),
    tokenLifetimeSeconds: integer('token-lifetime', values.tokenLifetime, 1, 86_400),
    userActivityMs: integer('user-activity', values.userActivity, 0, 3_600_000),
    historyDays: integer('history-days', values.historyDays, 1, 10_000),
    ...(values.captchaFrom
      ? { captchaFromSignIn: integer('captcha-from', values.captchaFrom, 1, 1_000_000) }
      : {}),
    ...(values.captchaFor ? { captchaFor: values.captchaFor.split(',').map((user) => user.trim()) } : {}),
    ...tls(values),
    ...(values.rateLimit ? { rateLimit: parseRateLimit(values.rateLimit) } : {}),
    rateLimitHeaders: parseRateLimitHeaders(values.rateLimitHeaders),
  });
  const ms = (performance.now() - startedAt).toFixed(0);
  process.stdout.write(
    `sandbox listening in ${ms} ms\n  base_url  ${sandbox.baseUrl}\n  auth_url  ${sandbox.authUrl}\n` +
      (values.faults ? `  faults    ${values.faults}\n` : '') +
      (values.variants ? `  variants  ${values.variants}\n` : ''),
  );
  return new Promise((resolve) => {
    const stop = () => {
      sandbox.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
