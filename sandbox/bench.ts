// `npm run bench:sandbox`: start-up time, throughput of a collection read (GET /developer/v2/cycle with a
// valid token, autocannon for ~5 s against an in-process sandbox) and memory; writes reports/sandbox-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startSandbox } from './app.ts';
import { loadSandboxCredentials } from './credentials.ts';

// No argument but --help (the sandbox shares no code with the suite, so not the suite's script-args.ts).
if (process.argv.length > 2) {
  const help = process.argv.slice(2).every((arg) => arg === '--help' || arg === '-h');
  (help ? console.log : console.error)(
    `${help ? '' : `bench:sandbox: unknown argument(s) ${process.argv.slice(2).join(' ')}\n\n`}Usage: npm run bench:sandbox\n\n  Start-up, throughput (autocannon, BENCH_SECONDS=5) and memory of an in-process sandbox; writes\n  reports/sandbox-bench.json.\n  --help  this text`,
  );
  process.exit(help ? 0 : 2);
}

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const reportFile = fileURLToPath(new URL('../reports/sandbox-bench.json', import.meta.url));

async function userToken(authUrl: string): Promise<string> {
  const { client, users } = loadSandboxCredentials();
  const redirectUri = `${authUrl}/callback`;
  const fields = {
    client_id: client.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'read:cycles',
    state: 'bench-state',
  };
  const login = await fetch(`${authUrl}/oauth/oauth2/auth`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...fields, username: users[0].username, password: users[0].password }),
  });
  const code = new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await fetch(`${authUrl}/oauth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  return ((await token.json()) as { access_token: string }).access_token;
}

const t0 = performance.now();
const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
const startupMs = performance.now() - t0;
const token = await userToken(sandbox.authUrl);
const url = `${sandbox.baseUrl}/v2/cycle`;

const result = await autocannon({
  url,
  headers: { authorization: `Bearer ${token}` },
  connections: 20,
  pipelining: 1,
  duration: DURATION_SECONDS,
});
const rssMb = process.memoryUsage().rss / 1024 / 1024;
await sandbox.close();

const report = {
  target: 'GET /developer/v2/cycle (limit 10, valid token)',
  duration_seconds: DURATION_SECONDS,
  connections: 20,
  requests_per_second: Math.round(result.requests.average),
  latency_ms: { average: result.latency.average, p99: result.latency.p99 },
  non_2xx: result.non2xx,
  errors: result.errors,
  startup_ms: Math.round(startupMs),
  rss_mb: Math.round(rssMb),
  node: process.version,
  measured_at: new Date().toISOString(),
};
mkdirSync(fileURLToPath(new URL('../reports/', import.meta.url)), { recursive: true });
writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `${report.requests_per_second} req/s (p99 ${report.latency_ms.p99} ms, non-2xx ${report.non_2xx}), ` +
    `start-up ${report.startup_ms} ms, RSS ${report.rss_mb} MB -> ${reportFile}\n`,
);
