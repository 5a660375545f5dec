// Known failures (CONFORMANCE_EXPECTATIONS) with an owner, a ticket and an expiry: the file is read with
// them and refuses an expiry that is no day; a known failure in force covers its failure and the result,
// Markdown and page name its owner, ticket and expiry; one past its expiry covers nothing, so its failure
// fails the run again, and every form says it expired.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Requirement } from '../../src/contract/requirements.ts';
import { RESULT_SCHEMA_VERSION } from '../../src/result/identity.ts';
import { resultProblems } from '../../src/result/validate.ts';
import { buildReport } from '../../src/runner/report/build-report.ts';
import { type Expectation, loadExpectations } from '../../src/runner/report/expectations.ts';
import { renderMarkdown } from '../../src/runner/report/markdown.ts';
import type { TestResultSummary } from '../../src/runner/report/model.ts';
import { renderPage } from '../../src/runner/report/page/document.tsx';
import { historyEntryOf, pageView } from '../../src/runner/report/page/from-report.ts';
import { sandboxRunMeta } from './findings-support.ts';
import { scratchDir } from './scratch.ts';

const requirement = (id: string): Requirement => ({
  id,
  level: 'MUST',
  section: 'Endpoints › Collection query parameters',
  operations: [],
  text: `${id} text`,
  verifiable: true,
});
const catalogue = [requirement('PAG-A'), requirement('PAG-B')];
const failed = (title: string, id: string): TestResultSummary => ({
  title,
  file: 'tests/conformance/x.spec.ts',
  status: 'failed',
  outcome: 'fail',
  requirements: [id],
  failedRequirements: [id],
  tags: [],
  findings: [{ requirement: id, outcome: 'fail', message: `${id} broke` }],
  prismViolations: [],
});
/** The run started on 2026-01-01 (sandboxRunMeta): PAG-A is known until the end of that year, PAG-B was until the day before. */
const expectations: Expectation[] = [
  {
    key: 'PAG-A',
    outcome: 'fail',
    reason: 'vendor fix pending',
    owner: 'lab-team',
    ticket: 'API-231',
    expires: '2026-12-31',
  },
  { key: 'PAG-B', outcome: 'fail', reason: 'was due', owner: 'ops', expires: '2025-12-31' },
];

test('the expectations file gives an owner, a ticket and an expiry, and refuses an expiry that is no day', () => {
  const file = join(scratchDir(), 'expectations.yaml');
  writeFileSync(
    file,
    'expectations:\n  PAG-A: { outcome: fail, reason: "vendor fix pending", owner: lab-team, ticket: API-231, expires: 2026-12-31 }\n  PAG-B: { outcome: fail, reason: r }\n',
  );
  expect(loadExpectations(file)).toEqual([expectations[0], { key: 'PAG-B', outcome: 'fail', reason: 'r' }]);
  writeFileSync(file, 'expectations:\n  PAG-A: { outcome: fail, reason: r, expires: 2026-02-30 }\n');
  expect(() => loadExpectations(file)).toThrow(/"PAG-A": expires must be a day, YYYY-MM-DD/);
  writeFileSync(file, 'expectations:\n  PAG-A: { outcome: fail, reason: r, expires: next week }\n');
  expect(() => loadExpectations(file)).toThrow(/expires must be a day/);
  writeFileSync(file, 'expectations:\n  PAG-A: { outcome: fail, reason: r, owner: 7 }\n');
  expect(() => loadExpectations(file)).toThrow(/owner must be text/);
});

test('a known failure in force covers its failure with its owner; one past its expiry fails the run again', () => {
  const tests = [failed('t-a', 'PAG-A'), failed('t-b', 'PAG-B')];
  const report = buildReport(tests, catalogue, expectations, sandboxRunMeta);
  expect(report.deviations).toEqual([
    {
      test: 't-a',
      key: 'PAG-A',
      reason: 'vendor fix pending',
      owner: 'lab-team',
      ticket: 'API-231',
      expires: '2026-12-31',
    },
  ]);
  expect(report.expiredDeviations).toEqual([
    { key: 'PAG-B', reason: 'was due', owner: 'ops', expires: '2025-12-31' },
  ]);
  expect(report.verdict).toBe('fail');
  expect(report.gateFailures).toEqual([
    'failed: t-b (PAG-B); known failure PAG-B expired on 2025-12-31 (owner ops)',
  ]);
  expect(report.requirements.find((r) => r.id === 'PAG-B')?.deviation).toBeUndefined();
  expect(resultProblems(report)).toEqual([]);
  expect(report.schemaVersion).toBe(RESULT_SCHEMA_VERSION);

  // Only the expired one fails: without PAG-B's test nothing fails, and the MUST requirement no test ran
  // leaves the run INCOMPLETE.
  const alone = buildReport([failed('t-a', 'PAG-A')], catalogue, expectations, sandboxRunMeta);
  expect(alone.gateFailures).toEqual([]);
  expect(alone.verdict).toBe('incomplete');
  expect(alone.incomplete.map((entry) => entry.id)).toEqual(['PAG-B']);

  const markdown = renderMarkdown(report);
  expect(markdown).toContain(
    '- known deviation: t-a — vendor fix pending (owner lab-team; ticket API-231; until 2026-12-31)',
  );
  expect(markdown).toContain(
    '- known failure past its expiry, its failures count again: PAG-B — was due (owner ops; until 2025-12-31)',
  );

  // Against the last run, where both passed: the expired one is a new failure, the known one is not.
  const before = {
    ...historyEntryOf(report),
    startedAt: '2025-12-31T00:00:00.000Z',
    statuses: { 'PAG-A': 'pass' as const, 'PAG-B': 'pass' as const },
  };
  expect(pageView(report, { entries: [before], unreadable: 0 }).changes?.newFailures).toEqual(['PAG-B']);

  const page = renderPage(pageView(report, { entries: [], unreadable: 0 }));
  expect(page).toContain('Known failures past their expiry');
  expect(page).toMatch(
    /PAG-A<\/a> — known: vendor fix pending; owner lab-team; ticket API-231; until 2026-12-31/,
  );
  expect(page).toMatch(/PAG-B<\/a> — known: was due; owner ops; until 2025-12-31/);
});
