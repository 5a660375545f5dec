// `npm run bench`: times the clean ci-gate run, the smoke run and the full mutation run on this machine
// and writes the figures to reports/bench.json (the README quotes the latest ones).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { runCommand, tsx } from './run-step.ts';
import { reportOf, runSuite } from './suite-run.ts';

const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

const ciGateRun = await runSuite({ CONFORMANCE_PROFILE: 'ci-gate' });
const smokeRun = await runSuite({ CONFORMANCE_PROFILE: 'smoke' });
const ciGate = { wallMs: ciGateRun.wallMs, report: reportOf(ciGateRun) };
const smoke = { wallMs: smokeRun.wallMs, report: reportOf(smokeRun) };
const mutation = await runCommand(...tsx('src/cli/mutation.ts', '--concurrency', '2'));
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
writeFileSync(reportPath('bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
console.log(JSON.stringify(figures, null, 2));
