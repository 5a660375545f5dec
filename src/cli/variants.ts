// The false-alarm gate: the whole suite against the sandbox under each conforming variant (sandbox/
// variants.ts: a behaviour the seed allows that the plain sandbox does not show). Every variant must give
// zero failures (warnings are allowed and listed); a variant that leaves the suite without the data it
// needs (sparse-user) must end INCOMPLETE, never PASS. Writes reports/variants.json; exits 1 on any miss.
//
//   npm run variants [-- --concurrency N] [-- variant ...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type VariantName, variants } from '../../sandbox/variants.ts';
import type { RunVerdict } from '../report/model.ts';
import { pool } from '../run/pool.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { runSuite } from '../run/suite-run.ts';

/** The verdicts a variant may end with; by default PASS or INCOMPLETE (what it hides is not verified). */
const ALLOWED: Partial<Record<VariantName, readonly RunVerdict[]>> = {
  'sparse-user': ['incomplete'],
};

export interface VariantResult {
  variant: string;
  ok: boolean;
  verdict: RunVerdict | 'no report';
  failures: string[];
  warnings: string[];
  notVerified: string[];
  wallSeconds: number;
}

async function runVariant(name: VariantName): Promise<VariantResult> {
  const run = await runSuite(
    { CONFORMANCE_SANDBOX_VARIANTS: name, CONFORMANCE_ALLOW_INCOMPLETE: '1' },
    [],
    true,
  );
  const wallSeconds = Number((run.wallMs / 1000).toFixed(1));
  if (!run.report)
    return {
      variant: name,
      ok: false,
      verdict: 'no report',
      failures: [run.output],
      warnings: [],
      notVerified: [],
      wallSeconds,
    };
  const { report } = run;
  const failures = report.requirements
    .filter((r) => r.status === 'fail')
    .map(
      (r) =>
        `${r.id}: ${report.tests
          .filter((t) => t.failedRequirements.includes(r.id))
          .map((t) => t.title)
          .join('; ')}`,
    );
  const allowed = ALLOWED[name] ?? ['pass', 'incomplete'];
  return {
    variant: name,
    ok: failures.length === 0 && allowed.includes(report.verdict),
    verdict: report.verdict,
    failures,
    warnings: report.requirements.flatMap((r) => r.warnings.map((w) => `${r.id}: ${w}`)),
    notVerified: report.incomplete.map((r) => r.id),
    wallSeconds,
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { concurrency: { type: 'string', default: '2' } },
  });
  const names = (positionals.length > 0 ? positionals : Object.keys(variants)) as VariantName[];
  const unknown = names.filter((name) => !Object.hasOwn(variants, name));
  if (unknown.length > 0) throw new Error(`unknown variant(s): ${unknown.join(', ')}`);
  const started = Date.now();
  const results = await pool(names, Number(values.concurrency), async (name) => {
    const result = await runVariant(name);
    console.log(
      `${result.ok ? 'conforms' : 'FALSE ALARM'} ${name}: ${result.verdict.toUpperCase()}, ${result.failures.length} failure(s), ${result.warnings.length} warning(s), ${result.notVerified.length} not verified, ${result.wallSeconds} s`,
    );
    for (const failure of result.failures) console.log(`    fail: ${failure.slice(0, 300)}`);
    return result;
  });
  const summary = { durationMs: Date.now() - started, variants: results };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('variants.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const bad = results.filter((result) => !result.ok);
  console.log(
    `\nVariant gate: ${results.length - bad.length}/${results.length} variants conform in ${(summary.durationMs / 1000).toFixed(0)} s; reports/variants.json`,
  );
  if (bad.length > 0) {
    console.log(
      `Variants with a false alarm or the wrong verdict: ${bad.map((r) => `${r.variant} (${r.verdict})`).join(', ')}`,
    );
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
