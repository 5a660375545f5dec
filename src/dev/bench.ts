// `npm run bench`: times, on this machine, the clean ci-gate and smoke runs of the `run` command as a user
// runs it (median/min/max of N runs, by phase: src/runner/run/timed-run.ts; test time per spec file; requests per
// second), the variant and mutation gates, and check-recording on a ~200 MB synthetic HAR (throughput, peak
// RSS); prints a table and writes reports/bench.json (docs/proving-the-suite.md quotes the latest figures).
//
// With `--package FILE.tgz` the runs are the installed package's command (the tarball installed into an
// empty folder), and the gates and the recording, which are the checkout's, are skipped. Before each run it
// times an empty Playwright test run, the floor that run's start-up is weighed against.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { operationById } from '../contract/operations.ts';
import { harEntry, validBody, writeLargeHar } from '../recording/synthetic-har.ts';
import { reportPath, reportsDir } from '../run-state/reports-dir.ts';
import { installTarball } from '../runner/run/installed-package.ts';
import { playwrightCli, playwrightTestEntry } from '../runner/run/playwright.ts';
import { cli, runProcess, type SuiteCommand, tsx } from '../runner/run/run-step.ts';
import { type RunTiming, timedRun } from '../runner/run/timed-run.ts';
import { scriptArgs } from './script-args.ts';

const USAGE = `Usage: npm run bench [-- options]

  --runs N          ci-gate and smoke runs of the \`run\` command, each after an empty Playwright run (default 5)
  --gate-runs N     runs of the variant and mutation gates (default 1)
  --skip LIST       what not to time: variants,mutation,recording (comma-separated)
  --package FILE    time the tarball installed into an empty folder (\`npm pack\` makes it); skips the gates
  --help            this text

  Prints a table and writes reports/bench.json.`;

const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

/** Heap cap (MB) of the checked recording's process: far below the file, so only a streamed read finishes. */
const RECORDING_HEAP_MB = 48;
/** Exchanges of the benchmark HAR: about 1.5 kB each, so 136,000 make ~200 MB (BENCH_HAR_EXCHANGES). */
const RECORDING_EXCHANGES = Number(process.env.BENCH_HAR_EXCHANGES ?? 136_000);

/** `check-recording` on a synthetic HAR of ~200 MB: size, throughput and peak RSS under a capped heap. */
async function recordingBench() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-har-'));
  try {
    const file = join(dir, 'bench.har');
    const op = operationById('listCycles');
    const body = validBody(op);
    await writeLargeHar(file, RECORDING_EXCHANGES, (i) => harEntry(op, { body, time: i % 97 }));
    const { code, durationMs, output } = await runProcess(
      ...cli('check-recording', file),
      {
        CONFORMANCE_REPORTS_DIR: join(dir, 'reports'),
        NODE_OPTIONS: `--max-old-space-size=${RECORDING_HEAP_MB}`,
      },
      true,
    );
    const [, perSecond, peakRssMb] = /(\d+) exchanges\/s; peak RSS (\d+) MB/.exec(output) ?? [];
    return {
      fileMb: Number((statSync(file).size / 2 ** 20).toFixed(1)),
      exchanges: RECORDING_EXCHANGES,
      exitCode: code,
      wallSeconds: seconds(durationMs),
      exchangesPerSecond: Number(perSecond),
      peakRssMb: Number(peakRssMb),
      heapLimitMb: RECORDING_HEAP_MB,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median, min and max of some numbers (rounded to the unit given). */
function spread(values: readonly number[], unit = 1): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle)
    ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
    : (sorted[Math.floor(middle)] ?? 0);
  const round = (value: number) => Number((Math.round(value / unit) * unit).toFixed(3));
  return { median: round(median), min: round(sorted[0] ?? 0), max: round(sorted.at(-1) ?? 0) };
}

/** A folder with one empty Playwright test: a run of it is the floor of a run's start-up. */
function emptyTestDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-empty-'));
  const entry = JSON.stringify(playwrightTestEntry());
  writeFileSync(join(dir, 'empty.spec.ts'), `import { test } from ${entry};\ntest('empty', () => {});\n`);
  return dir;
}

/** The wall time (ms) of Playwright test running the empty test. */
async function emptyRun(dir: string): Promise<number> {
  const { code, durationMs, output } = await runProcess(
    process.execPath,
    [playwrightCli(), 'test', '-c', dir, '--reporter=dot'],
    {},
    true,
  );
  if (code !== 0) throw new Error(`the empty Playwright run failed (exit ${code})\n${output}`);
  return durationMs;
}

/**
 * A profile's runs: wall time and each phase as median/min/max, requests per second, test time per file;
 * each run right after an empty Playwright test run, so that each start-up is weighed against a floor
 * measured under the same load (the machine is shared).
 */
async function profileBench(profile: string, runs: number, command: SuiteCommand) {
  const timings: RunTiming[] = [];
  const floors: number[] = [];
  const empty = emptyTestDir();
  try {
    for (let run = 1; run <= runs; run++) {
      floors.push(await emptyRun(empty));
      const timing = await timedRun({ CONFORMANCE_PROFILE: profile }, command);
      console.log(
        `${profile} run ${run}/${runs}: ${seconds(timing.wallMs)} s, ${timing.verdict.toUpperCase()} (empty Playwright run before it: ${seconds(floors.at(-1) ?? 0)} s)`,
      );
      timings.push(timing);
    }
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  const phases = [
    ...new Set(timings.flatMap((timing) => Object.keys(timing.phases))),
  ] as (keyof RunTiming['phases'])[];
  const files = [...new Set(timings.flatMap((timing) => Object.keys(timing.files)))];
  return {
    runs,
    verdicts: [...new Set(timings.map((timing) => timing.verdict))],
    tests: timings[0]?.tests ?? 0,
    wallSeconds: spread(
      timings.map((timing) => timing.wallMs / 1000),
      0.1,
    ),
    emptyPlaywrightRunMs: spread(floors),
    untilTheFirstTestOverEmptyRun: spread(
      timings.map((timing, run) => (timing.phases['until the first test'] ?? 0) / (floors[run] ?? 1)),
      0.01,
    ),
    phaseMs: Object.fromEntries(
      phases.map((phase) => [phase, spread(timings.map((timing) => timing.phases[phase] ?? 0))]),
    ),
    requests: spread(timings.map((timing) => timing.requests)),
    userDataRequests: spread(timings.map((timing) => timing.requestTally?.byCredential.user ?? 0)),
    partnerRequests: spread(timings.map((timing) => timing.requestTally?.byCredential.partner ?? 0)),
    otherRequests: spread(timings.map((timing) => timing.requestTally?.byCredential.other ?? 0)),
    requestsByFamily: timings[0]?.requestTally?.byFamily ?? {},
    requestsPerSecond: spread(timings.map((timing) => timing.requests / (timing.wallMs / 1000))),
    testMsPerFile: Object.fromEntries(
      files
        .map((file) => [file, spread(timings.map((timing) => timing.files[file] ?? 0)).median] as const)
        .sort((a, b) => b[1] - a[1]),
    ),
  };
}

/** A gate command's runs: wall time as median/min/max, and what its report says of the last one. */
async function gateBench(script: string, runs: number, summary: () => Record<string, unknown>) {
  const walls: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const { durationMs } = await runProcess(...tsx(script), {}, true);
    console.log(`${script} run ${run}/${runs}: ${seconds(durationMs)} s`);
    walls.push(durationMs / 1000);
  }
  return { runs, wallSeconds: spread(walls, 0.1), ...summary() };
}

const { values } = scriptArgs(USAGE, {
  options: {
    runs: { type: 'string', default: '5' },
    'gate-runs': { type: 'string', default: '1' },
    skip: { type: 'string', default: '' },
    package: { type: 'string' },
  },
});
const runs = Number(values.runs);
const gateRuns = Number(values['gate-runs']);
const skipped = new Set(values.skip.split(',').filter(Boolean));
if (values.package)
  for (const checkoutOnly of ['variants', 'mutation', 'recording']) skipped.add(checkoutOnly);
const readJson = (name: string) => JSON.parse(readFileSync(reportPath(name), 'utf8'));

const installDir = values.package ? mkdtempSync(join(tmpdir(), 'bench-package-')) : undefined;
const command =
  values.package && installDir ? (await installTarball(resolve(values.package), installDir)).command : cli;

const figures = {
  measuredAt: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
  },
  suite: values.package ? `installed from ${values.package}` : 'this checkout',
  ciGate: await profileBench('ci-gate', runs, command),
  smoke: await profileBench('smoke', runs, command),
  variantGate: skipped.has('variants')
    ? undefined
    : await gateBench('src/dev/variants.ts', gateRuns, () => {
        const { variants } = readJson('variants.json') as { variants: { ok: boolean }[] };
        return { variants: variants.length, conforming: variants.filter((variant) => variant.ok).length };
      }),
  mutationGate: skipped.has('mutation')
    ? undefined
    : await gateBench('src/dev/mutation.ts', gateRuns, () => {
        const { killed, total } = readJson('mutation.json') as { killed: number; total: number };
        return { faults: total, killed };
      }),
  recording: skipped.has('recording') ? undefined : await recordingBench(),
};
if (installDir) rmSync(installDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });
writeFileSync(reportPath('bench.json'), `${JSON.stringify(figures, null, 2)}\n`);

const row = (name: string, value: { median: number; min: number; max: number }, unit: string) =>
  `${name.padEnd(34)} ${String(value.median).padStart(8)} ${String(value.min).padStart(8)} ${String(value.max).padStart(8)} ${unit}`;
console.log(
  `\n${figures.suite}; load average at the start ${figures.machine.loadAverageAtStart.join(', ')}\n${'median of runs'.padEnd(34)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}`,
);
for (const [name, bench] of [
  ['ci-gate', figures.ciGate],
  ['smoke', figures.smoke],
] as const) {
  console.log(row(`${name} (${bench.runs} runs): wall`, bench.wallSeconds, 's'));
  for (const [phase, value] of Object.entries(bench.phaseMs)) console.log(row(`  ${phase}`, value, 'ms'));
  console.log(row('  empty Playwright test run before each', bench.emptyPlaywrightRunMs, 'ms'));
  console.log(row('  until the first test / empty run', bench.untilTheFirstTestOverEmptyRun, '×'));
  console.log(row('  requests', bench.requests, ''));
  console.log(row('    user-data operations', bench.userDataRequests, ''));
  console.log(row('    partner', bench.partnerRequests, ''));
  console.log(row('    sign-in and administration', bench.otherRequests, ''));
  const families = Object.entries(bench.requestsByFamily).map(
    ([family, tally]) => `${family} ${tally.user}+${tally.partner}+${tally.other}`,
  );
  console.log(`  requests by family (user data+partner+other, first run): ${families.join(', ')}`);
  console.log(row('  requests per second', bench.requestsPerSecond, '/s'));
}
for (const [name, gate] of [
  ['variant gate', figures.variantGate],
  ['mutation gate', figures.mutationGate],
] as const)
  if (gate) console.log(row(`${name} (${gate.runs} runs): wall`, gate.wallSeconds, 's'));
console.log('\nreports/bench.json (test time per spec file there)');
