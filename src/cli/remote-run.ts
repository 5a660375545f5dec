// The remote-target run: the whole suite against a sandbox started on its own, as any server would be, with
// its realistic sign-in on (a login page built by script with CSRF, a consent step, refresh-token rotation,
// client authentication by HTTP Basic only), and nothing but sandbox/sandbox.env (CONFORMANCE_ENV_FILE), its
// URL and a token store: `npm run login` fills the store once (headless Chromium), then the run takes its
// user tokens from the store's refresh grants. What only the embedded sandbox offers (webhook administration,
// request counts), what the file does not configure (the rate limit), and what a first run cannot have yet
// (expired tokens from the store) is out of reach: the run must end INCOMPLETE, never PASS, with zero
// failures, naming each MUST requirement it could not verify and what would enable it; and those must be the
// ones `npm run doctor` predicts for the same configuration (src/config/capability-needs.ts).
// Writes reports/remote.json; exits 1 otherwise.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox/app.ts';
import { mustRequirements, reasonsUnverifiable } from '../config/capability-needs.ts';
import { loadConfig } from '../config/config.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { runCommand, tsx } from '../run/run-step.ts';
import { reportOf, runSuite } from '../run/suite-run.ts';

const sandbox = await startSandbox({ port: 0, realisticLogin: true });
// The token store lives outside the reports, and goes with the run.
const storeDir = mkdtempSync(join(tmpdir(), 'conformance-remote-store-'));
try {
  const env = {
    CONFORMANCE_ENV_FILE: 'sandbox/sandbox.env',
    // The environment wins over the file: the port this sandbox listens on.
    CONFORMANCE_BASE_URL: sandbox.baseUrl,
    CONFORMANCE_AUTH_URL: sandbox.authUrl,
    CONFORMANCE_TOKEN_STORE: join(storeDir, 'tokens.json'),
    CONFORMANCE_ALLOW_INCOMPLETE: '1',
  };
  const login = await runCommand(...tsx('src/cli/login.ts'), env, true);
  if (login.code !== 0) throw new Error(`npm run login failed (exit ${login.code}):\n${login.output}`);
  const config = loadConfig({ ...process.env, ...env });
  const predicted = mustRequirements()
    .filter((requirement) => reasonsUnverifiable(config, requirement).length > 0)
    .map((requirement) => requirement.id);
  const run = await runSuite(env, [], true);
  const report = reportOf(run);
  const failed = report.requirements.filter((r) => r.status === 'fail').map((r) => r.id);
  const unverified = report.incomplete.map((r) => r.id);
  const unpredicted = [
    ...unverified.filter((id) => !predicted.includes(id)).map((id) => `${id} not verified, not predicted`),
    ...predicted.filter((id) => !unverified.includes(id)).map((id) => `${id} predicted, but verified`),
  ];
  const summary = {
    verdict: report.verdict,
    failed,
    notVerified: report.incomplete,
    loginSeconds: Number((login.durationMs / 1000).toFixed(1)),
    wallSeconds: Number((run.wallMs / 1000).toFixed(1)),
  };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('remote.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `Remote run: npm run login ${summary.loginSeconds} s, then ${report.verdict.toUpperCase()} in ${summary.wallSeconds} s, ${failed.length} failed`,
  );
  for (const { id, reasons } of report.incomplete) console.log(`  not verified: ${id}: ${reasons[0] ?? ''}`);
  const ok = report.verdict === 'incomplete' && failed.length === 0 && unpredicted.length === 0;
  if (!ok)
    console.log(
      `✗ expected INCOMPLETE with no failure, and what npm run doctor predicts${failed.length ? `; failed: ${failed.join(', ')}` : ''}${unpredicted.length ? `; ${unpredicted.join('; ')}` : ''}`,
    );
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(storeDir, { recursive: true, force: true });
  await sandbox.close();
}
