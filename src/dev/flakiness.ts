// `npm run flakiness`: three clean ci-gate runs against the sandbox must give identical verdicts.
import { reportOf, runSuite } from '../runner/run/suite-run.ts';
import { scriptArgs } from './script-args.ts';

scriptArgs(`Usage: npm run flakiness

  Three clean ci-gate runs against the embedded sandbox (FLAKINESS_RUNS=N for N) must give identical
  verdicts, test by test; exits 1 when one changed.
  --help  this text`);

const RUNS = Number(process.env.FLAKINESS_RUNS ?? 3);
const verdicts: Map<string, string>[] = [];
for (let run = 1; run <= RUNS; run++) {
  const suiteRun = await runSuite();
  const { wallMs } = suiteRun;
  const report = reportOf(suiteRun);
  console.log(
    `run ${run}: ${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped in ${(wallMs / 1000).toFixed(1)} s`,
  );
  verdicts.push(new Map(report.tests.map((test) => [`${test.file} › ${test.title}`, test.status])));
}
const titles = new Set(verdicts.flatMap((run) => [...run.keys()]));
const differing = [...titles].filter(
  (title) => new Set(verdicts.map((run) => run.get(title) ?? 'absent')).size > 1,
);
for (const title of differing)
  console.log(`  differs: ${title}: ${verdicts.map((run) => run.get(title) ?? 'absent').join(' / ')}`);
console.log(
  differing.length === 0
    ? `identical verdicts over ${RUNS} runs (${titles.size} tests)`
    : `${differing.length} test(s) changed verdict`,
);
process.exit(differing.length === 0 ? 0 : 1);
