// The conformance report: per-requirement status, the gate verdict and known deviations.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Requirement } from '../../src/contract/requirements.ts';
import { buildReport, type RunMeta } from '../../src/report/build-report.ts';
import { computeDigest } from '../../src/report/digest.ts';
import { loadExpectations } from '../../src/report/expectations.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import type { TestResultSummary } from '../../src/report/model.ts';
import { scratchDir } from './scratch.ts';

const requirement = (id: string, level: Requirement['level'] = 'MUST', verifiable = true): Requirement => ({
  id,
  level,
  section: 'Endpoints › Collection query parameters',
  operations: [],
  text: `${id} text`,
  verifiable,
});
const catalogue = [
  requirement('PAG-A'),
  requirement('PAG-B'),
  requirement('PAG-C'),
  requirement('PAG-OPEN', 'UNSPECIFIED'),
  requirement('PAG-HIDDEN', 'MUST', false),
];
const result = (
  title: string,
  status: TestResultSummary['status'],
  requirements: string[],
): TestResultSummary => ({
  title,
  file: 'tests/conformance/x.spec.ts',
  status,
  requirements,
  tags: [],
  notes: [],
  prismViolations: [],
});
const meta: RunMeta = {
  target: 'sandbox',
  baseUrl: 'http://x',
  profile: 'ci-gate',
  environment: 'non-production',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  requestsSent: 3,
  interrupted: false,
};

test('requirement statuses: fail beats pass, skip only when nothing ran, untested, unspecified', () => {
  const report = buildReport(
    [
      result('t1', 'passed', ['PAG-A']),
      result('t2', 'failed', ['PAG-A', 'PAG-B']),
      result('t3', 'skipped', ['PAG-C']),
      result('t4', 'passed', ['PAG-OPEN']),
    ],
    catalogue,
    [],
    meta,
  );
  expect(Object.fromEntries(report.requirements.map((r) => [r.id, r.status]))).toEqual({
    'PAG-A': 'fail',
    'PAG-B': 'fail',
    'PAG-C': 'skip',
    'PAG-OPEN': 'unspecified',
    'PAG-HIDDEN': 'untested',
  });
  expect(report.totals).toEqual({ passed: 2, failed: 1, skipped: 1 });
  expect(report.verdict).toBe('fail');
  expect(report.gateFailures).toEqual(['failed: t2']);
});

test('a documented deviation does not fail the gate, and a stale one does', () => {
  const expectations = [{ key: 'PAG-B', outcome: 'fail' as const, reason: 'ticket 12' }];
  const deviating = buildReport([result('t2', 'failed', ['PAG-B'])], catalogue, expectations, meta);
  expect(deviating.verdict).toBe('pass');
  expect(deviating.deviations).toEqual([{ test: 't2', key: 'PAG-B', reason: 'ticket 12' }]);
  expect(deviating.requirements.find((r) => r.id === 'PAG-B')?.deviation).toBe('ticket 12');
  const stale = buildReport([result('t2', 'passed', ['PAG-B'])], catalogue, expectations, meta);
  expect(stale.verdict).toBe('fail');
  expect(stale.gateFailures[0]).toMatch(/no longer happens: PAG-B/);
});

test('unknown requirement tags are listed', () => {
  expect(
    buildReport([result('t', 'passed', ['NOPE-X'])], catalogue, [], meta).unknownRequirementTags,
  ).toEqual(['NOPE-X']);
});

test('the expectations file needs an outcome and a reason per entry', () => {
  const file = join(scratchDir(), 'expectations.yaml');
  writeFileSync(file, 'expectations:\n  PAG-B: { outcome: fail, reason: "vendor ticket 12" }\n');
  expect(loadExpectations(file)).toEqual([{ key: 'PAG-B', outcome: 'fail', reason: 'vendor ticket 12' }]);
  writeFileSync(file, 'expectations:\n  PAG-B: { outcome: fail }\n');
  expect(() => loadExpectations(file)).toThrow(/needs outcome: fail and a reason/);
});

test('the Markdown report groups requirements by area and names failures', () => {
  const markdown = renderMarkdown({
    ...buildReport([result('t2', 'failed', ['PAG-B'])], catalogue, [], meta),
  });
  expect(markdown).toContain('## Endpoints');
  expect(markdown).toMatch(/\*\*PAG-B\*\* PAG-B text \| MUST \| ❌ fail/);
  expect(markdown).toMatch(/PAG-OPEN.*ℹ unspecified/);
  expect(markdown).toContain('**Verdict:** FAIL');
});

test('the certification digest is stable for the same results and changes with them', () => {
  const report = buildReport([result('t1', 'passed', ['PAG-A'])], catalogue, [], meta);
  const digest = computeDigest(report.requirements);
  expect(computeDigest(report.requirements)).toEqual(digest);
  expect(digest.combined).toMatch(/^[0-9a-f]{64}$/);
  const changed = report.requirements.map((r) => (r.id === 'PAG-A' ? { ...r, status: 'fail' as const } : r));
  expect(computeDigest(changed).results).not.toBe(digest.results);
  expect(computeDigest(changed).spec).toBe(digest.spec);
});
