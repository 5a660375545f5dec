// `npm run bench`: times the clean ci-gate run, the smoke run and the full mutation run on this machine,
// and checks a ~200 MB synthetic HAR with check-recording (throughput, peak RSS); writes the figures to
// reports/bench.json (the README quotes the latest ones).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { operationById } from '../contract/operations.ts';
import { harEntry, validBody, writeLargeHar } from '../recording/synthetic-har.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { runCommand, tsx } from '../run/run-step.ts';
import { reportOf, runSuite } from '../run/suite-run.ts';

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
    const { code, durationMs, output } = await runCommand(
      ...tsx('src/cli/check-recording.ts', file),
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

const ciGateRun = await runSuite({ CONFORMANCE_PROFILE: 'ci-gate' });
const smokeRun = await runSuite({ CONFORMANCE_PROFILE: 'smoke' });
const ciGate = { wallMs: ciGateRun.wallMs, report: reportOf(ciGateRun) };
const smoke = { wallMs: smokeRun.wallMs, report: reportOf(smokeRun) };
const mutation = await runCommand(...tsx('src/cli/mutation.ts'));
const mutationReport = JSON.parse(readFileSync(reportPath('mutation.json'), 'utf8')) as {
  killed: number;
  total: number;
};

const figures = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  ciGate: {
    wallSeconds: seconds(ciGate.wallMs),
    tests: ciGate.report.tests.length,
    ...ciGate.report.totals,
    requestsSent: ciGate.report.requestsSent,
  },
  smoke: {
    wallSeconds: seconds(smoke.wallMs),
    tests: smoke.report.totals.passed,
    requestsSent: smoke.report.requestsSent,
  },
  mutation: {
    wallSeconds: seconds(mutation.durationMs),
    killed: mutationReport.killed,
    total: mutationReport.total,
  },
};
mkdirSync(reportsDir, { recursive: true });
writeFileSync(
  reportPath('bench.json'),
  `${JSON.stringify({ ...figures, recording: await recordingBench() }, null, 2)}\n`,
);
console.log(JSON.stringify(figures, null, 2));
