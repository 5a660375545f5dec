// The false-alarm gate: the whole suite against the sandbox under each conforming variant (sandbox/
// variants.ts: a behaviour the seed allows that the plain sandbox does not show). Every variant must give
// zero failures (warnings are allowed and listed); a variant that leaves the suite without the data it
// needs (sparse-user), whose user withholds a scope (checkbox-consent-unticked), or whose grants are wider than
// asked (wider-grant), must end INCOMPLETE, never PASS. Every variant's instance runs in one Playwright run
// (a matrix of targets, src/config/run-plan.ts). Writes reports/variants.json; exits 1 on any miss.
import { mkdirSync, writeFileSync } from 'node:fs';
import { suiteConfigurationOf, type VariantName, variants } from '../../sandbox/variants.ts';
import type { TargetSpec } from '../config/run-plan.ts';
import { reportPath, reportsDir } from '../run-state/reports-dir.ts';
import type { RunVerdict } from '../runner/report/exit-statuses.ts';
import type { ConformanceReport } from '../runner/report/model.ts';
import { runMatrix } from '../runner/run/suite-run.ts';
import { scriptArgs } from './script-args.ts';

const USAGE = `Usage: npm run variants [-- variant ...]

  Runs the whole suite against every conforming variant (or those named; \`npm run sandbox -- --list-variants\`
  lists them): each must give zero failures; writes reports/variants.json; exits 1 on a false alarm.
  --help  this text`;

/** The verdicts a variant may end with; by default PASS or INCOMPLETE (what it hides is not verified). */
const ALLOWED: Partial<Record<VariantName, readonly RunVerdict[]>> = {
  'sparse-user': ['incomplete'],
  // The grant lacks read:workout: the checks that need it are not verified, naming the grant.
  'checkbox-consent-unticked': ['incomplete'],
  // Every grant holds every read scope: the scope matrix cannot see a refusal, a warning names the extras.
  'wider-grant': ['incomplete'],
};

/**
 * The variants whose tests mostly wait, not compute: every-answer-700ms (every answer 700 ms late, under the
 * budgeted depth its team pins: about 600 s of tests, 90 s of them isolated), long-tail (answers seconds late
 * now and then: about 100 s) and slow (every collection answer 60 ms late: about 80 s); the other variants'
 * tests take 12 s each (2026-12-02). Their tests run apart (`waits`, with their own CONFORMANCE_WORKERS:
 * src/runner/run/waiting-targets.ts), each on its own on WAITING_WORKERS workers, so that their waits overlap
 * one another and hold none of the workers of the other variants, which compute. The longest first:
 * Playwright hands a file's tests out in the order the matrix registers them.
 */
const WAITING: readonly VariantName[] = ['every-answer-700ms', 'long-tail', 'slow'];
const WAITING_WORKERS = 4;
const scheduled = (names: readonly VariantName[]): VariantName[] => [
  ...WAITING.filter((name) => names.includes(name)),
  ...names.filter((name) => !WAITING.includes(name)),
];
/** A variant's target: its team's configuration; a waiting variant says so, with its workers. */
function targetOf(name: VariantName): TargetSpec {
  const target = { name, faults: [], variants: [name], env: suiteConfigurationOf(name) };
  if (!WAITING.includes(name)) return target;
  return { ...target, env: { ...target.env, CONFORMANCE_WORKERS: String(WAITING_WORKERS) }, waits: true };
}

export interface VariantResult {
  variant: string;
  ok: boolean;
  verdict: RunVerdict | 'no report';
  failures: string[];
  warnings: string[];
  notVerified: string[];
}

/** A variant's verdict from its target's report (undefined: the run gave it none). */
function variantResult(
  name: VariantName,
  report: ConformanceReport | undefined,
  output: string,
): VariantResult {
  if (!report)
    return {
      variant: name,
      ok: false,
      verdict: 'no report',
      failures: [output],
      warnings: [],
      notVerified: [],
    };
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
    warnings: report.requirements.flatMap((r) => r.warnings.map((w) => `${r.id}: ${w.message}`)),
    notVerified: report.incomplete.map((r) => r.id),
  };
}

async function main(): Promise<void> {
  const { positionals } = scriptArgs(USAGE, { allowPositionals: true });
  const names = (positionals.length > 0 ? positionals : Object.keys(variants)) as VariantName[];
  const unknown = names.filter((name) => !Object.hasOwn(variants, name));
  if (unknown.length > 0) throw new Error(`unknown variant(s): ${unknown.join(', ')}`);
  const run = await runMatrix(scheduled(names).map(targetOf), { CONFORMANCE_ALLOW_INCOMPLETE: '1' });
  const results = names.map((name) => variantResult(name, run.report?.[name], run.output));
  for (const result of results) {
    console.log(
      `${result.ok ? 'conforms' : 'FALSE ALARM'} ${result.variant}: ${result.verdict.toUpperCase()}, ${result.failures.length} failure(s), ${result.warnings.length} warning(s), ${result.notVerified.length} not verified`,
    );
    for (const failure of result.failures) console.log(`    fail: ${failure.slice(0, 300)}`);
  }
  const summary = { durationMs: run.wallMs, variants: results };
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(reportPath('variants.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const bad = results.filter((result) => !result.ok);
  console.log(
    `\nVariant gate: ${results.length - bad.length}/${results.length} variants conform in ${(run.wallMs / 1000).toFixed(0)} s, one run; reports/variants.json`,
  );
  if (bad.length > 0) {
    console.log(
      `Variants with a false alarm or the wrong verdict: ${bad.map((r) => `${r.variant} (${r.verdict})`).join(', ')}`,
    );
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
