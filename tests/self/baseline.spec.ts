// CONFORMANCE_BASELINE and CONFORMANCE_FAIL_ON=new: the "since last run" comparison on report objects,
// its Markdown, and end to end with two small check-recording runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { operationById } from '../../src/contract/operations.ts';
import { harEntry, validBody } from '../../src/recording/synthetic-har.ts';
import { compareWithBaseline, gateVerdict } from '../../src/runner/report/baseline.ts';
import { renderMarkdown } from '../../src/runner/report/markdown.ts';
import type { ConformanceReport, RequirementResult } from '../../src/runner/report/model.ts';
import { checkRecording, writeHar } from './check-recording-support.ts';
import { emptyResult } from './findings-support.ts';
import { scratchDir } from './scratch.ts';

const requirement = (
  id: string,
  status: RequirementResult['status'],
  evidence: number[] = [],
): RequirementResult => ({
  id,
  level: 'MUST',
  section: 'Area',
  area: 'Area',
  text: id,
  status,
  verifiable: true,
  tests: [],
  evidence: evidence.map((count) => ({ test: 't', message: `${count} records`, count })),
  evidenceCount: evidence.reduce((sum, count) => sum + count, 0),
  warnings: [],
  notVerified: [],
  notes: [],
});

/** A requirement's status in a run, and its evidence counts. */
type Result = [RequirementResult['status'], number[]?];

test('new failures, fixed, still failing, newly not verified and shrunken evidence', () => {
  // Each requirement's status and evidence counts in the previous run, then in this one (G is new in this one).
  const history: [string, Result | undefined, Result][] = [
    ['A', ['pass'], ['fail']],
    ['B', ['fail'], ['pass']],
    ['C', ['fail'], ['fail']],
    ['D', ['pass'], ['not-verified']],
    ['E', ['pass', [182, 1]], ['pass', [40, 1]]],
    ['F', ['pass', [1200]], ['pass', [1300]]],
    ['H', ['not-verified'], ['pass', [3]]],
    ['G', undefined, ['fail']],
  ];
  const previous = {
    requirements: history.flatMap(([id, before]) => (before ? [requirement(id, ...before)] : [])),
  };
  const current = { requirements: history.map(([id, , after]) => requirement(id, ...after)) };
  const since = compareWithBaseline(current, previous, 'old.json', 'new');
  expect(since).toEqual({
    baseline: 'old.json',
    failOn: 'new',
    newFailures: ['A', 'G'],
    fixed: ['B'],
    stillFailing: ['C'],
    newlyNotVerified: ['D'],
    newlyVerified: ['H'],
    evidenceShrank: [{ id: 'E', before: 183, after: 41 }],
  });
  const contract = { spec: 'a', catalogue: 'b' };
  expect(
    compareWithBaseline(
      { ...current, contract },
      { ...previous, contract: { ...contract, spec: 'c' } },
      'old.json',
    ),
  ).toMatchObject({ contractChanged: true, catalogueChanged: false });
  expect(gateVerdict({ verdict: 'fail', sinceLastRun: since })).toBe('fail');
  expect(gateVerdict({ verdict: 'fail', sinceLastRun: { ...since, newFailures: [] } })).toBe('pass');
  // Only old failures: the verdict beside them; a run that failed nothing keeps its own (a narrowed one too).
  const noNew = { ...since, newFailures: [] };
  expect(gateVerdict({ verdict: 'fail', verdictBesideFailures: 'incomplete', sinceLastRun: noNew })).toBe(
    'incomplete',
  );
  expect(gateVerdict({ verdict: 'incomplete', sinceLastRun: noNew })).toBe('incomplete');
  expect(gateVerdict({ verdict: 'error', sinceLastRun: noNew })).toBe('error');
  expect(gateVerdict({ verdict: 'fail', sinceLastRun: { ...since, failOn: 'any', newFailures: [] } })).toBe(
    'fail',
  );
  const markdown = renderMarkdown({
    ...emptyResult(),
    verdict: 'fail',
    requirements: current.requirements,
    sinceLastRun: since,
  } satisfies ConformanceReport);
  expect(markdown).toContain('## Since last run');
  expect(markdown).toContain('- **New failures:** A, G');
  expect(markdown).toContain('- **Evidence shrank:** E (183 → 41)');
});

test('end to end: a second check-recording run against the first one as baseline', async () => {
  const dir = scratchDir();
  const op = operationById('getCycleById');
  const clean = writeHar('clean.har', [harEntry(op, { body: validBody(op) })]);
  const faulty = writeHar('faulty.har', [harEntry(op, { status: 201, body: validBody(op) })]);
  const run = async (file: string, out: string, env: Record<string, string> = {}) => {
    const { code, report, reports } = await checkRecording([file], { reports: join(dir, out), env });
    return { code, report, markdown: readFileSync(join(reports, 'conformance.md'), 'utf8') };
  };
  const first = await run(clean, 'first');
  expect(first.code).toBe(0);
  const baseline = join(dir, 'first', 'conformance.json');
  const second = await run(faulty, 'second', { CONFORMANCE_BASELINE: baseline, CONFORMANCE_FAIL_ON: 'new' });
  expect(second.report.sinceLastRun?.newFailures).toEqual(['OP-GET-CYCLE']);
  expect(second.markdown).toContain('- **New failures:** OP-GET-CYCLE');
  expect(second.code).toBe(1);
  // The same failure again: still failing, not new; with FAIL_ON=new the run passes the gate.
  const third = await run(faulty, 'third', {
    CONFORMANCE_BASELINE: join(dir, 'second', 'conformance.json'),
    CONFORMANCE_FAIL_ON: 'new',
  });
  expect(third.report.sinceLastRun).toMatchObject({ newFailures: [], stillFailing: ['OP-GET-CYCLE'] });
  expect(third.report.verdict).toBe('fail');
  expect(third.code).toBe(0);
});
