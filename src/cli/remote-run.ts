// The remote-target run: the whole suite against a sandbox started on its own, as any server would be,
// with nothing but sandbox/sandbox.env (CONFORMANCE_ENV_FILE) and its URL. What only the embedded sandbox
// offers (expired tokens on demand, webhook administration, request counts) and what the file does not
// configure (the rate limit) is then out of reach: the run must end INCOMPLETE, never PASS, with zero
// failures, naming each MUST requirement it could not verify and what would enable it.
// Writes reports/remote.json; exits 1 otherwise.
import { mkdirSync, writeFileSync } from 'node:fs';
import { startSandbox } from '../../sandbox/app.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { reportOf, runSuite } from './suite-run.ts';

const sandbox = await startSandbox({ port: 0 });
try {
  const run = await runSuite(
    {
      CONFORMANCE_ENV_FILE: 'sandbox/sandbox.env',
      // The environment wins over the file: the port this sandbox listens on.
      CONFORMANCE_BASE_URL: sandbox.baseUrl,
      CONFORMANCE_AUTH_URL: sandbox.authUrl,
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    },
    [],
    true,
  );
  const report = reportOf(run);
  const failed = report.requirements.filter((r) => r.status === 'fail').map((r) => r.id);
  const summary = {
    verdict: report.verdict,
    failed,
    notVerified: report.incomplete,
    wallSeconds: Number((run.wallMs / 1000).toFixed(1)),
  };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('remote.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `Remote run: ${report.verdict.toUpperCase()} in ${summary.wallSeconds} s, ${failed.length} failed`,
  );
  for (const { id, reasons } of report.incomplete) console.log(`  not verified: ${id}: ${reasons[0] ?? ''}`);
  const ok = report.verdict === 'incomplete' && failed.length === 0;
  if (!ok)
    console.log(
      `✗ expected INCOMPLETE with no failure${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
    );
  process.exitCode = ok ? 0 : 1;
} finally {
  await sandbox.close();
}
