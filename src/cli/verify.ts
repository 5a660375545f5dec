// `npm test`: the project's whole proof. Lint, typecheck, the project's own tests, the clean ci-gate
// conformance run against the sandbox (PASS), the Prism target run (no failure), the variant gate (no
// false alarm on any behaviour the seed allows), the remote-target run (INCOMPLETE, no failure), the
// mutation run (every fault caught by a failure naming its requirement) and the traceability gate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport, RunVerdict } from '../report/model.ts';
import { playwrightCli } from '../run/playwright.ts';
import { reportPath } from '../run/reports-dir.ts';
import { runCommand, type StepResult, tsx } from '../run/run-step.ts';

const biome = join('node_modules', '@biomejs', 'biome', 'bin', 'biome');
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');

/** Why a conformance run's report does not show the expected run verdicts, if it does not. */
function conformanceVerdict(dir: string, allowed: readonly RunVerdict[]): string | undefined {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const failed = report.requirements.filter((r) => r.status === 'fail').map((r) => r.id);
    if (failed.length > 0) return `${failed.length} requirement(s) failed: ${failed.join(', ')}`;
    if (!allowed.includes(report.verdict))
      return `verdict ${report.verdict.toUpperCase()}${report.incomplete.length ? `; not verified: ${report.incomplete.map((r) => r.id).join(', ')}` : ''}`;
    if (report.totals.passed === 0) return 'no test passed';
    return undefined;
  } catch (error) {
    return `no conformance report (${(error as Error).message})`;
  }
}

const prismDir = reportPath('prism/');

const steps: {
  name: string;
  command: [string, string[]];
  env?: NodeJS.ProcessEnv;
  check?: () => string | undefined;
}[] = [
  { name: 'lint', command: [process.execPath, [biome, 'check', '.']] },
  { name: 'typecheck', command: [process.execPath, [tsc, '-p', '.']] },
  {
    name: 'self tests',
    command: [process.execPath, [playwrightCli(), 'test', '-c', 'tests/self/self.config.ts']],
  },
  {
    name: 'conformance (ci-gate, sandbox)',
    command: tsx('src/cli/conformance.ts'),
    env: { CONFORMANCE_BASE_URL: '', CONFORMANCE_PROFILE: 'ci-gate' },
    check: () => conformanceVerdict(reportPath(''), ['pass']),
  },
  {
    name: 'conformance (Prism target)',
    command: [process.execPath, [playwrightCli(), 'test']],
    // A stateless mock cannot give what most checks need: INCOMPLETE, but never a failure.
    env: {
      CONFORMANCE_BASE_URL: '',
      CONFORMANCE_TARGET: 'prism',
      CONFORMANCE_REPORTS_DIR: prismDir,
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
    },
    check: () => conformanceVerdict(prismDir, ['pass', 'incomplete']),
  },
  { name: 'variants (false alarms)', command: tsx('src/cli/variants.ts') },
  { name: 'remote target', command: tsx('src/cli/remote-run.ts') },
  { name: 'mutation', command: tsx('src/cli/mutation.ts') },
  { name: 'traceability', command: tsx('src/cli/traceability.ts') },
];

const results: StepResult[] = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name}`);
  const { code, durationMs } = await runCommand(step.command[0], step.command[1], step.env);
  const detail = step.check?.();
  results.push({ name: step.name, ok: code === 0 && detail === undefined, code, durationMs, detail });
}

console.log('\n━━ summary');
for (const result of results) {
  console.log(
    `${result.ok ? '✓' : '✗'} ${result.name.padEnd(32)} ${(result.durationMs / 1000).toFixed(1).padStart(6)} s${result.detail ? `  ${result.detail}` : result.ok ? '' : `  exit ${result.code}`}`,
  );
}
const failed = results.filter((result) => !result.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
