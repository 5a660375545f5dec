// `npm test`: the project's whole proof. Lint, typecheck, the project's own tests, the clean ci-gate
// conformance run against the sandbox (PASS), the Prism target run (no failure), the variant gate (no
// false alarm on any behaviour the seed allows), the remote-target run (INCOMPLETE, no failure), the
// mutation run (every fault caught by a failure naming its requirement) and the traceability gate. The
// variant gate, and the other steps in turn, go beside the self tests.
import { join } from 'node:path';
import { EMBEDDED_TARGET } from '../config/environment.ts';
import { readResult } from '../result/validate.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import type { RunVerdict } from '../runner/report/exit-statuses.ts';
import { idsWithStatus } from '../runner/report/model.ts';
import { missingChromium } from '../runner/run/chromium-need.ts';
import { playwrightCli } from '../runner/run/playwright.ts';
import { cli, runProcess, type StepResult, tsx } from '../runner/run/run-step.ts';
import { missingContract } from './contract-document.ts';
import { scriptArgs } from './script-args.ts';

scriptArgs(`Usage: npm test

  The project's whole proof (docs/proving-the-suite.md): lint, typecheck, the self tests, the clean ci-gate run,
  the Prism run, the variant gate, the remote-target run, the mutation gate and the traceability gate; exits 1
  when a step failed. SELF_TESTS_NEED_CHROMIUM=1 makes a missing Chromium a failure instead of a skip.
  --help  this text`);

const biome = join('node_modules', '@biomejs', 'biome', 'bin', 'biome');
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');

/** Why a conformance run's report does not show the expected run verdicts, if it does not. */
function conformanceVerdict(dir: string, allowed: readonly RunVerdict[]): string | undefined {
  try {
    const report = readResult(join(dir, 'conformance.json'));
    const failed = idsWithStatus(report.requirements, 'fail');
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

interface Step {
  name: string;
  command: [string, string[]];
  env?: NodeJS.ProcessEnv;
  check?: () => string | undefined;
  /** Why the step cannot run on this machine, if it cannot (it is then skipped, and said so). */
  cannotRun?: () => string | undefined;
}

const lint: Step = { name: 'lint', command: [process.execPath, [biome, 'check', '.']] };
const typecheck: Step = { name: 'typecheck', command: [process.execPath, [tsc, '-p', '.']] };
const selfTests: Step = {
  name: 'self tests',
  command: [process.execPath, [playwrightCli(), 'test', '-c', 'tests/self/self.config.ts']],
};
const ciGate: Step = {
  name: 'conformance (ci-gate, sandbox)',
  command: cli('run'),
  env: { ...EMBEDDED_TARGET, CONFORMANCE_PROFILE: 'ci-gate' },
  check: () => conformanceVerdict(reportPath(''), ['pass']),
};
const prism: Step = {
  name: 'conformance (Prism target)',
  command: [process.execPath, [playwrightCli(), 'test']],
  // A stateless mock cannot give what most checks need: INCOMPLETE, but never a failure.
  env: {
    ...EMBEDDED_TARGET,
    CONFORMANCE_TARGET: 'prism',
    CONFORMANCE_REPORTS_DIR: prismDir,
    CONFORMANCE_ALLOW_INCOMPLETE: '1',
  },
  check: () => conformanceVerdict(prismDir, ['pass', 'incomplete']),
};
const variantGate: Step = { name: 'variants (false alarms)', command: tsx('src/dev/variants.ts') };
// `npm run login` signs in on the remote sandbox's login page built by script.
const remote: Step = {
  name: 'remote target',
  command: tsx('src/dev/remote-run.ts'),
  cannotRun: missingChromium,
};
const mutation: Step = { name: 'mutation', command: tsx('src/dev/mutation.ts') };
// It reads the mutation and remote runs' reports.
const traceability: Step = { name: 'traceability', command: tsx('src/dev/traceability.ts') };

/** Self tests that need what this machine may lack: skipped without it, each saying why, and counted here. */
const selfTestNeeds: { name: string; missing: () => string | undefined }[] = [
  { name: 'self tests driving Chromium', missing: missingChromium },
  { name: 'self tests of the quotations', missing: missingContract },
];

/** What `cannotRun` says of `name` here: skipped, failed (it throws where CI requires it), or nothing. */
function unmetNeed(name: string, cannotRun: () => string | undefined): StepResult | undefined {
  try {
    const skipped = cannotRun();
    return skipped ? { name, ok: true, code: null, durationMs: 0, skipped } : undefined;
  } catch (error) {
    return { name, ok: false, code: null, durationMs: 0, detail: (error as Error).message };
  }
}

/** Runs a step; a quiet one prints the end of its output when it ends, under its name. */
async function run(step: Step, quiet = false): Promise<StepResult> {
  const unmet = step.cannotRun && unmetNeed(step.name, step.cannotRun);
  if (unmet) {
    if (unmet.skipped) console.log(`\n━━ ${step.name}: SKIPPED on this machine: ${unmet.skipped}`);
    return unmet;
  }
  if (!quiet) console.log(`\n━━ ${step.name}`);
  const { code, durationMs, output } = await runProcess(step.command[0], step.command[1], step.env, quiet);
  const detail = step.check?.();
  if (quiet) console.log(`\n━━ ${step.name} (beside the self tests; the end of its output)\n${output}`);
  return { name: step.name, ok: code === 0 && detail === undefined, code, durationMs, detail };
}

/** Runs steps one after the other. */
async function inTurn(steps: readonly Step[], quiet = false): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const step of steps) results.push(await run(step, quiet));
  return results;
}

/**
 * Three lanes side by side, the two longest steps first: the self tests, the variant gate (its late-answering
 * variants wait on their own workers), and the short steps one after the other. No lane keeps both cores
 * busy on its own (the self tests wait on their child runs' sandboxes and timeouts, the gates on late answers,
 * webhook waits and sign-ins), so together they end minutes sooner than in turn
 * (docs/proving-the-suite.md, "Figures"). Each run has its own reports directory and ports. The self tests
 * keep the console; traceability reads the mutation and remote runs' reports, so it comes last.
 */
const lanes: Step[][] = [[selfTests], [variantGate], [lint, typecheck, ciGate, prism, remote, mutation]];
/** The summary's order. */
const steps = [lint, typecheck, selfTests, ciGate, prism, variantGate, remote, mutation, traceability];

const started = Date.now();
const laneResults = (await Promise.all(lanes.map((lane) => inTurn(lane, lane[0] !== selfTests)))).flat();
laneResults.push(...(await inTurn([traceability])));
const results = steps.flatMap((step) => laneResults.filter((result) => result.name === step.name));
results.push(...selfTestNeeds.flatMap((need) => unmetNeed(need.name, need.missing) ?? []));

console.log('\n━━ summary');
for (const result of results) {
  if (result.skipped) {
    console.log(`- ${result.name.padEnd(32)} SKIPPED: ${result.skipped}`);
    continue;
  }
  console.log(
    `${result.ok ? '✓' : '✗'} ${result.name.padEnd(32)} ${(result.durationMs / 1000).toFixed(1).padStart(6)} s${result.detail ? `  ${result.detail}` : result.ok ? '' : `  exit ${result.code}`}`,
  );
}
const failed = results.filter((result) => !result.ok).length;
const skipped = results.filter((result) => result.skipped).length;
console.log(
  `${results.length - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} SKIPPED on this machine (see above; CI runs every step)` : ''} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed === 0 ? 0 : 1);
