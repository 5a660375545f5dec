// `npm test`: the project's whole proof. Lint, typecheck, the project's own tests, the clean ci-gate
// conformance run against the sandbox (zero failures, zero skips), the Prism target run (no failures
// among the tests it does not skip), the mutation run (every fault caught) and the traceability gate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../report/model.ts';
import { reportPath } from '../run/reports-dir.ts';
import { playwrightCli } from './playwright.ts';
import { runCommand, type StepResult, tsx } from './run-step.ts';

const biome = join('node_modules', '@biomejs', 'biome', 'bin', 'biome');
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');

function conformanceVerdict(dir: string, allowSkips: boolean): string | undefined {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const { passed, failed, skipped } = report.totals;
    if (failed > 0) return `${failed} failed`;
    if (!allowSkips && skipped > 0) {
      const reasons = [
        ...new Set(report.tests.filter((test) => test.status === 'skipped').map((test) => test.skipReason)),
      ];
      return `${skipped} unexpected skip(s): ${reasons.join('; ')}`;
    }
    if (passed === 0) return 'no test passed';
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
    check: () => conformanceVerdict(reportPath(''), false),
  },
  {
    name: 'conformance (Prism target)',
    command: [process.execPath, [playwrightCli(), 'test']],
    env: { CONFORMANCE_BASE_URL: '', CONFORMANCE_TARGET: 'prism', CONFORMANCE_REPORTS_DIR: prismDir },
    check: () => conformanceVerdict(prismDir, true),
  },
  { name: 'mutation', command: tsx('src/cli/mutation.ts', '--concurrency', '2') },
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
