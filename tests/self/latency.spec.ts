// Latency as a result: the percentile maths, budgets (a warning of LAT-BUDGET, a failure only in strict
// mode), the baseline's p95 change, CONFORMANCE_LATENCY_BUDGET's validation, the summary conformance.md
// opens with, check-recording's table from HAR times, and a live run against the `slow` sandbox variant.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import { SLOW_VARIANT_DELAY_MS } from '../../sandbox/user/collection.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { read } from '../../src/config/variables.ts';
import { operationById } from '../../src/contract/operations.ts';
import { samplesFromAnnotations } from '../../src/protocol/latency-samples.ts';
import { harEntry, validBody } from '../../src/recording/synthetic-har.ts';
import { withBaselineLatency } from '../../src/runner/report/baseline.ts';
import { type LatencyRow, latencyTable, percentile } from '../../src/runner/report/latency/latency.ts';
import { LATENCY_REQUIREMENT, withLatency } from '../../src/runner/report/latency/latency-budget.ts';
import { renderMarkdown } from '../../src/runner/report/markdown.ts';
import type { ConformanceReport, RequirementResult } from '../../src/runner/report/model.ts';
import { p95Change } from '../../src/runner/report/overview.ts';
import { checkRecording, writeHar } from './check-recording-support.ts';
import { emptyResult } from './findings-support.ts';
import { runSuiteAgainst } from './suite-against.ts';

test('nearest-rank percentiles: every figure is a time the target took', () => {
  expect(percentile([], 50)).toBeUndefined();
  expect(percentile([7], 95)).toBe(7);
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(percentile(hundred, 50)).toBe(50);
  expect(percentile(hundred, 95)).toBe(95);
  expect(percentile(hundred, 100)).toBe(100);
  expect(percentile([10, 20, 30, 40], 50)).toBe(20);
  expect(percentile([10, 20, 30, 40], 95)).toBe(40);
});

test('the table: one row per operation, sorted, untimed or negative samples left out', () => {
  const rows = latencyTable([
    ['listCycles', 30],
    ['getCycleById', 5],
    ['listCycles', 10],
    ['listCycles', 20],
    ['listCycles', -1],
    ['listCycles', Number.NaN],
  ]);
  expect(rows).toEqual([
    { operationId: 'getCycleById', count: 1, p50: 5, p95: 5, max: 5 },
    { operationId: 'listCycles', count: 3, p50: 20, p95: 30, max: 30 },
  ]);
});

test('annotations: each latency annotation once, malformed ones ignored', () => {
  const annotation = { type: 'latency', description: '[["listCycles",12.5],["x"]]' };
  expect(
    samplesFromAnnotations([annotation, annotation, { type: 'latency', description: '{' }, { type: 'note' }]),
  ).toEqual([['listCycles', 12.5]]);
});

test('CONFORMANCE_LATENCY_BUDGET: operationId=ms pairs and *; anything else names the variable', () => {
  expect(
    read({ CONFORMANCE_LATENCY_BUDGET: 'listCycles=800, *=1500' }, 'CONFORMANCE_LATENCY_BUDGET'),
  ).toEqual({
    listCycles: 800,
    '*': 1500,
  });
  expect(read({}, 'CONFORMANCE_LATENCY_BUDGET')).toEqual({});
  for (const bad of ['listCycles', 'noSuchOperation=5', 'listCycles=0', 'listCycles=1.5', '*=fast'])
    expect(() => read({ CONFORMANCE_LATENCY_BUDGET: bad }, 'CONFORMANCE_LATENCY_BUDGET'), bad).toThrow(
      ConfigError,
    );
  expect(() => read({ CONFORMANCE_LATENCY_BUDGET: 'x=1' }, 'CONFORMANCE_LATENCY_BUDGET')).toThrow(
    /CONFORMANCE_LATENCY_BUDGET/,
  );
});

const latRequirement: RequirementResult = {
  id: LATENCY_REQUIREMENT,
  level: 'READING',
  section: 'Limits',
  area: 'Limits',
  text: 'budget',
  reading: 'p95 within the budget',
  status: 'omitted',
  verifiable: true,
  tests: [],
  evidence: [],
  evidenceCount: 0,
  warnings: [],
  notVerified: [],
  notes: [],
};

const report = (strict: boolean): ConformanceReport => ({
  ...emptyResult(),
  target: 'sandbox',
  baseUrl: 'http://x',
  profile: 'ci-gate',
  environment: 'non-production',
  strict,
  startedAt: '2026-11-22T00:00:00.000Z',
  durationMs: 1,
  requestsSent: 1,
  totals: { passed: 1, failed: 0, skipped: 0 },
  requirementTotals: { pass: 0, fail: 0, warning: 0, 'not-verified': 0, note: 0, omitted: 1 },
  verdict: 'pass',
  gateFailures: [],
  incomplete: [],
  selection: [],
  deviations: [],
  unknownRequirementTags: [],
  requirements: [latRequirement],
  tests: [],
});

const rows: LatencyRow[] = [
  { operationId: 'listCycles', count: 4, p50: 60, p95: 70, max: 70 },
  { operationId: 'getCycleById', count: 2, p50: 3, p95: 4, max: 4 },
];

test('a p95 over budget is a warning of LAT-BUDGET; strict mode makes it a failure of the run', () => {
  const budgets = { listCycles: 20, '*': 100 };
  const warned = withLatency(report(false), rows, budgets);
  expect(warned.latency?.map((r) => r.budgetMs)).toEqual([20, 100]);
  expect(warned.requirements[0]?.status).toBe('warning');
  expect(warned.requirements[0]?.warnings.map((w) => w.message)).toEqual([
    'listCycles: p95 70 ms over the budget of 20 ms (4 answer(s), max 70 ms)',
  ]);
  expect(warned.verdict).toBe('pass');
  expect(warned.requirementTotals.warning).toBe(1);
  const strict = withLatency(report(true), rows, budgets);
  expect(strict.requirements[0]?.status).toBe('fail');
  expect(strict.verdict).toBe('fail');
  expect(strict.gateFailures.join()).toContain('listCycles: p95 70 ms over the budget of 20 ms');
  // A failure outranks a run error, as in every verdict.
  expect(withLatency({ ...report(true), verdict: 'error' }, rows, budgets).verdict).toBe('fail');
  expect(withLatency(report(true), rows, { '*': 100 }).requirements[0]?.status).toBe('pass');
  // Without a budget the table is still there and LAT-BUDGET is not in the run.
  const plain = withLatency(report(false), rows, {});
  expect(plain.latency).toHaveLength(2);
  expect(plain.requirements[0]?.status).toBe('omitted');
});

test('the baseline p95 and its change; the summary opens conformance.md', () => {
  const then = { operationId: 'listCycles', count: 9, p50: 40, p95: 50, max: 90 };
  const compared = withBaselineLatency(rows, [then]);
  expect(compared[0]?.baseline).toEqual({ p95: 50 });
  expect(compared[1]?.baseline).toBeUndefined();
  expect(p95Change(compared[0] as LatencyRow)).toBe('+20 ms (+40%)');
  const judged = withLatency(report(false), rows, { listCycles: 20 });
  const markdown = renderMarkdown({ ...judged, latency: withBaselineLatency(judged.latency ?? [], [then]) });
  const summary = markdown.indexOf('## Summary');
  expect(summary).toBeGreaterThan(0);
  expect(summary).toBeLessThan(markdown.indexOf('## Warnings'));
  expect(markdown).toContain('| Limits | 0 | 0 | 1 | 0 |');
  expect(markdown).toContain('| listCycles | 4 | 60 | 70 | 70 | 20 ⚠️ over | +20 ms (+40%) |');
});

test('check-recording: the latency table from HAR times', async () => {
  const op = operationById('getCycleById');
  const times = [5, 9, 7, 120];
  const file = writeHar(
    'timed.har',
    times.map((time) => harEntry(op, { body: validBody(op), time })),
  );
  const { code, report: checked } = await checkRecording([file], {
    env: { CONFORMANCE_LATENCY_BUDGET: 'getCycleById=50' },
  });
  expect(checked.latency).toEqual([
    { operationId: 'getCycleById', count: 4, p50: 7, p95: 120, max: 120, budgetMs: 50 },
  ]);
  expect(checked.requirements.find((r) => r.id === LATENCY_REQUIREMENT)?.status).toBe('warning');
  expect(code).toBe(0);
});

test('live: against the slow variant, listCycles over a 20 ms budget is a warning and nothing fails', async () => {
  const sandbox = await startSandbox({ port: 0, variants: ['slow'] });
  try {
    const {
      code,
      report: live,
      reports,
    } = await runSuiteAgainst(sandbox, {
      CONFORMANCE_GREP: '@PAG-LIMIT-MAX(?=\\s|$)',
      // Narrowed to one requirement, the run is INCOMPLETE at best: allowed, so the status says "not failed".
      CONFORMANCE_ALLOW_INCOMPLETE: '1',
      CONFORMANCE_LATENCY_BUDGET: 'listCycles=20,*=100000',
    });
    const cycles = live.latency?.find((row) => row.operationId === 'listCycles');
    expect(cycles?.count).toBeGreaterThan(0);
    expect(cycles?.p50).toBeGreaterThanOrEqual(SLOW_VARIANT_DELAY_MS - 1);
    expect(cycles?.budgetMs).toBe(20);
    const lat = live.requirements.find((r) => r.id === LATENCY_REQUIREMENT);
    expect(lat?.status).toBe('warning');
    expect(lat?.warnings).toHaveLength(1);
    expect(lat?.warnings[0]?.message).toMatch(/^listCycles: p95 [\d.]+ ms over the budget of 20 ms/);
    expect(live.verdict).toBe('incomplete');
    expect(live.totals.failed).toBe(0);
    expect(code).toBe(0);
    const markdown = readFileSync(join(reports, 'conformance.md'), 'utf8');
    expect(markdown).toMatch(/\| listCycles \| \d+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| 20 ⚠️ over \|/);
    expect(markdown).toContain(`- **${LATENCY_REQUIREMENT}**`);
  } finally {
    await sandbox.close();
  }
});
