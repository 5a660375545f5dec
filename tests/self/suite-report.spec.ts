// The conformance report: per-requirement status, the gate verdict and known deviations.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BrowserCrashed, CredentialsRefused, SignInAutomationError } from '../../src/auth/sign-in-errors.ts';
import type { Requirement } from '../../src/contract/requirements.ts';
import { TransportFailure } from '../../src/http/transport-failure.ts';
import { ConformanceFailure } from '../../src/protocol/failure.ts';
import type { Finding } from '../../src/protocol/finding.ts';
import { runErrorOf } from '../../src/protocol/run-errors.ts';
import { buildReport } from '../../src/runner/report/build-report.ts';
import { canonicalJson, computeDigest } from '../../src/runner/report/digest.ts';
import { loadExpectations } from '../../src/runner/report/expectations.ts';
import { renderMarkdown } from '../../src/runner/report/markdown.ts';
import type { TestResultSummary } from '../../src/runner/report/model.ts';
import { summariseRunFinding } from '../../src/runner/report/test-result.ts';
import { sandboxRunMeta } from './findings-support.ts';
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
  { ...requirement('PAG-READ', 'READING'), reading: 'limit 0 gets 400' },
  requirement('PAG-HIDDEN', 'MUST', false),
];
const result = (
  title: string,
  outcome: TestResultSummary['outcome'],
  requirements: string[],
  extra: Partial<TestResultSummary> = {},
): TestResultSummary => ({
  title,
  file: 'tests/conformance/x.spec.ts',
  status: outcome === 'pass' ? 'passed' : outcome === 'fail' ? 'failed' : 'skipped',
  outcome,
  requirements,
  failedRequirements: outcome === 'fail' ? requirements : [],
  tags: [],
  findings: [],
  prismViolations: [],
  ...extra,
});
const finding = (requirement: string, outcome: Finding['outcome'], message: string): Finding => ({
  requirement,
  outcome,
  message,
});
const meta = sandboxRunMeta;
const statuses = (report: ReturnType<typeof buildReport>) =>
  Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));

test('requirement statuses: a failure counts for the requirement it names, not for the test tags', () => {
  const report = buildReport(
    [
      result('t1', 'pass', ['PAG-A'], { findings: [finding('PAG-A', 'pass', '182 records of 8 pages')] }),
      // t2 declares PAG-B but its failure names PAG-C: PAG-C fails, PAG-B is blocked, never passed.
      result('t2', 'fail', ['PAG-B'], { failedRequirements: ['PAG-C'] }),
      result('t4', 'pass', ['PAG-OPEN'], { findings: [finding('PAG-OPEN', 'note', 'answered 200')] }),
    ],
    catalogue,
    [],
    meta,
  );
  expect(statuses(report)).toEqual({
    'PAG-A': 'pass',
    'PAG-B': 'not-verified',
    'PAG-C': 'fail',
    'PAG-OPEN': 'note',
    'PAG-READ': 'omitted',
    'PAG-HIDDEN': 'omitted',
  });
  const a = report.requirements.find((r) => r.id === 'PAG-A');
  expect(a?.evidence).toEqual([{ test: 't1', message: '182 records of 8 pages', count: 1 }]);
  expect(report.requirements.find((r) => r.id === 'PAG-B')?.notVerified).toEqual([
    { test: 't2', message: 'blocked by PAG-C', kind: 'blocked', prerequisite: 'PAG-C' },
  ]);
  expect(report.totals).toEqual({ passed: 2, failed: 1, skipped: 0 });
  expect(report.verdict).toBe('fail');
  expect(report.gateFailures).toEqual(['failed: t2 (PAG-C)']);
});

test('run verdict: PASS only when every MUST passed; INCOMPLETE lists what was not verified and why', () => {
  const ran = [
    result('t1', 'pass', ['PAG-A']),
    result('t2', 'omitted', ['PAG-B'], { skipReason: 'omitted: smoke' }),
  ];
  const passing = buildReport([...ran, result('t3', 'pass', ['PAG-C'])], catalogue, [], meta);
  expect(passing.verdict).toBe('pass');
  expect(statuses(passing)['PAG-B']).toBe('omitted');
  // A MUST requirement no test of the run declares is not run: INCOMPLETE, in a whole run too.
  const unrun = buildReport(ran, catalogue, [], meta);
  expect(unrun.verdict).toBe('incomplete');
  expect(unrun.incomplete).toEqual([
    { id: 'PAG-C', reasons: ['not in this run: no test of the run declares it'] },
  ]);
  // The smoke profile's own tests are the profile: what they leave out is not listed.
  expect(buildReport(ran, catalogue, [], { ...meta, profile: 'smoke' }).verdict).toBe('pass');
  const incomplete = buildReport(
    [
      result('t1', 'pass', ['PAG-A', 'PAG-B']),
      result('t3', 'not-verified', ['PAG-C'], { skipReason: 'not verified: no SCORED record' }),
      result('t5', 'not-verified', ['PAG-HIDDEN'], { skipReason: 'not verified: no user without data' }),
    ],
    catalogue,
    [],
    meta,
  );
  expect(incomplete.verdict).toBe('incomplete');
  // An unverifiable MUST requirement never makes a run incomplete.
  expect(incomplete.incomplete).toEqual([{ id: 'PAG-C', reasons: ['t3: not verified: no SCORED record'] }]);
  expect(renderMarkdown(incomplete)).toMatch(
    /Not verified[\s\S]*\*\*PAG-C\*\*: t3: not verified: no SCORED record/,
  );
});

test('warnings: a reading departure is shown with its reading and never fails the run', () => {
  const report = buildReport(
    [
      result('t1', 'pass', ['PAG-A', 'PAG-READ'], {
        findings: [finding('PAG-READ', 'warning', 'limit=0 served 10 records')],
      }),
      result('t2', 'pass', ['PAG-B', 'PAG-C']),
    ],
    catalogue,
    [],
    meta,
  );
  expect(statuses(report)['PAG-READ']).toBe('warning');
  expect(report.verdict).toBe('pass');
  const markdown = renderMarkdown(report);
  expect(markdown).toContain('limit=0 served 10 records');
  expect(markdown).toContain('reading: limit 0 gets 400');
});

test('an interrupted run is INCOMPLETE, never PASS', () => {
  const report = buildReport([result('t1', 'pass', ['PAG-A'])], catalogue, [], {
    ...meta,
    interrupted: true,
  });
  expect(report.verdict).toBe('incomplete');
});

test('a run error with no failure makes the verdict ERROR: what it stopped is not verified, never failed, and it is said first', () => {
  const runError = {
    kind: 'unreachable' as const,
    cause: 'the target cannot be reached: x',
    remedy: 'check y',
  };
  const report = buildReport(
    [
      result('t1', 'pass', ['PAG-A']),
      result('t2', 'error', ['PAG-B'], {
        runError,
        skipReason: 'not verified (blocked by the run error): x',
      }),
    ],
    catalogue,
    [],
    meta,
  );
  expect(report.verdict).toBe('error');
  expect(report.runError).toEqual(runError);
  expect(statuses(report)).toMatchObject({ 'PAG-A': 'pass', 'PAG-B': 'not-verified' });
  expect(report.totals.failed).toBe(0);
  expect(renderMarkdown({ ...report }).split('\n')[2]).toBe(
    '- **Run error (unreachable):** the target cannot be reached: x; check y. The target was not judged: what the error stopped is not verified, never failed.',
  );
});

test('a failure outranks a run error: FAIL, said first, then what cut the run short', () => {
  const runError = {
    kind: 'unreachable' as const,
    cause: 'the target cannot be reached: x',
    remedy: 'check y',
  };
  const stopped = result('t2', 'error', ['PAG-B'], { runError, skipReason: 'x' });
  const report = buildReport([result('t1', 'fail', ['PAG-A']), stopped], catalogue, [], {
    ...meta,
    runError,
  });
  expect(report.verdict).toBe('fail');
  expect(report.runError).toEqual(runError);
  const lines = renderMarkdown(report).split('\n');
  const verdictAt = lines.findIndex((line) => line.startsWith('- **Verdict:** FAIL: '));
  expect(verdictAt).toBeGreaterThan(0);
  expect(lines[verdictAt + 1]).toBe(
    '- **The run was cut short (unreachable): the target cannot be reached: x; check y; 1 check(s) not verified**',
  );
  expect(lines.some((line) => line.startsWith('- **Run error'))).toBe(false);
});

test('a run-side cause met by some checks stops them alone: INCOMPLETE, the cause listed beside', () => {
  const person = { kind: 'person' as const, cause: 'the page asks for "Code"', remedy: 'sign in by hand' };
  const stops = ['t2', 't3'].map((title) => result(title, 'error', ['PAG-B'], { runError: person }));
  const report = buildReport([result('t1', 'pass', ['PAG-A']), ...stops], catalogue, [], meta);
  expect(report.verdict).toBe('incomplete');
  expect(report.runError).toBeUndefined();
  expect(report.runSideStops).toEqual([{ ...person, checks: 2 }]);
  expect(statuses(report)).toMatchObject({ 'PAG-A': 'pass', 'PAG-B': 'not-verified' });
  // with a failure beside it, FAIL
  const failing = buildReport([result('t1', 'fail', ['PAG-A']), ...stops], catalogue, [], meta);
  expect(failing.verdict).toBe('fail');
  expect(renderMarkdown(failing)).toContain(
    '- **Not verified on the run\'s side (person): the page asks for "Code"; sign in by hand; 2 check(s)**',
  );
});

test('a failure the run met outside any test (the preflight) is charged like any other', () => {
  const seen = summariseRunFinding({
    where: 'preflight: sign-in of user A',
    finding: {
      requirement: 'PAG-C',
      outcome: 'fail',
      message: 'GET /oauth/oauth2/auth answered 500',
      evidence: 'reproduce: curl …',
    },
  });
  const report = buildReport([result('t1', 'pass', ['PAG-A', 'PAG-C']), seen], catalogue, [], meta);
  expect(report.verdict).toBe('fail');
  expect(statuses(report)).toMatchObject({ 'PAG-A': 'pass', 'PAG-C': 'fail' });
  expect(report.gateFailures).toEqual(['failed: preflight: sign-in of user A (PAG-C)']);
});

test("a test's error is the run's only when it is not the target's doing, read from the error itself", () => {
  const request = { method: 'GET', url: 'http://x/v2/cycle', headers: {} };
  const refused = new TransportFailure(
    request,
    'connect ECONNREFUSED 127.0.0.1:9',
    undefined,
    false,
    'ECONNREFUSED',
  );
  // unreachable where the target answered nothing in the run (the reporter judges that: suite-findings)
  expect(runErrorOf(refused)?.kind).toBe('unreachable');
  expect(
    runErrorOf(new TransportFailure(request, 'read ECONNRESET', undefined, true, 'ECONNRESET')),
  ).toBeUndefined();
  const untrusted = new TransportFailure(
    request,
    'CERT_HAS_EXPIRED: certificate has expired',
    undefined,
    false,
    'CERT_HAS_EXPIRED',
  );
  expect(runErrorOf(untrusted)?.kind).toBe('certificate');
  const password = new CredentialsRefused('A', '(at http://x/login)');
  expect(runErrorOf(password)).toMatchObject({ kind: 'credentials', cause: password.message });
  expect(runErrorOf(new SignInAutomationError('no form on the page', 'http://x/login'))?.kind).toBe(
    'sign-in',
  );
  expect(runErrorOf(new BrowserCrashed('its page crashed'))?.kind).toBe('browser');
  // the server's own: a refused code it just issued (a 5xx of the sign-in: tests/self/auth-attribution.spec.ts)
  expect(
    runErrorOf(new ConformanceFailure('AUTH-CODE-FLOW', 'expected status 200, got 400 invalid_grant')),
  ).toBeUndefined();
  // an error's text names no class: only the error itself does
  expect(runErrorOf(new Error('CredentialsRefused: the login form refused ada'))).toBeUndefined();
  expect(runErrorOf(new Error('browserType.launch: Target crashed'))).toBeUndefined();
});

test('a documented deviation does not fail the gate, and a stale one does', () => {
  const expectations = [{ key: 'PAG-B', outcome: 'fail' as const, reason: 'ticket 12' }];
  const others = result('t1', 'pass', ['PAG-A', 'PAG-C']);
  const deviating = buildReport([others, result('t2', 'fail', ['PAG-B'])], catalogue, expectations, meta);
  expect(deviating.verdict).toBe('pass');
  expect(deviating.deviations).toEqual([{ test: 't2', key: 'PAG-B', reason: 'ticket 12' }]);
  expect(deviating.gateFailures).toEqual([]);
  expect(deviating.requirements.find((r) => r.id === 'PAG-B')?.deviation).toBe('ticket 12');
  const stale = buildReport([result('t2', 'pass', ['PAG-B'])], catalogue, expectations, meta);
  expect(stale.verdict).toBe('fail');
  expect(stale.gateFailures[0]).toMatch(/no longer happens: PAG-B/);
});

test('unknown requirement tags are listed', () => {
  expect(buildReport([result('t', 'pass', ['NOPE-X'])], catalogue, [], meta).unknownRequirementTags).toEqual([
    'NOPE-X',
  ]);
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
    ...buildReport([result('t2', 'fail', ['PAG-B'])], catalogue, [], meta),
  });
  expect(markdown).toContain('## Endpoints');
  expect(markdown).toMatch(/\*\*PAG-B\*\* PAG-B text \| MUST \| ❌ fail/);
  expect(markdown).toMatch(/PAG-OPEN.*ℹ note/);
  expect(markdown).toContain('**Verdict:** FAIL');
});

test('the certification digest covers the whole result, in a canonical form, but itself and the signature', () => {
  const report = buildReport([result('t1', 'pass', ['PAG-A', 'PAG-B', 'PAG-C'])], catalogue, [], meta);
  const digest = computeDigest(report);
  expect(computeDigest(report)).toEqual(digest);
  expect(digest.combined).toMatch(/^[0-9a-f]{64}$/);
  // The order of members is no part of it; the digest and the signature fields are not covered.
  const reordered = Object.fromEntries(Object.entries(report).reverse());
  expect(computeDigest(reordered)).toEqual(digest);
  expect(computeDigest({ ...report, digest, signature: { value: 'x' } })).toEqual(digest);
  expect(canonicalJson({ b: [1, { d: 1, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[1,{"d":1}]}');
  // Every part of the result is covered: a requirement, the verdict, the selection, the target, a test.
  const changed = report.requirements.map((r) => (r.id === 'PAG-A' ? { ...r, status: 'fail' as const } : r));
  const edits = [
    { ...report, requirements: changed },
    { ...report, verdict: 'incomplete' as const },
    { ...report, selection: ['--grep @X'] },
    { ...report, baseUrl: 'https://elsewhere.example/developer' },
    { ...report, profile: 'certification' },
    { ...report, tests: report.tests.map((t) => ({ ...t, outcome: 'fail' as const })) },
  ];
  for (const edited of edits) {
    expect(computeDigest(edited).results).not.toBe(digest.results);
    expect(computeDigest(edited).spec).toBe(digest.spec);
  }
});

test('a narrowed run is never a PASS, in any profile: what it did not run is listed, a failure stays a failure', () => {
  const narrowed = { ...meta, selection: ['--grep @PAG-A'] };
  const ran = [result('t1', 'pass', ['PAG-A'])];
  const report = buildReport(ran, catalogue, [], narrowed);
  expect(report.verdict).toBe('incomplete');
  expect(report.selection).toEqual(['--grep @PAG-A']);
  // The verifiable MUST requirements no test of the run declared; not PAG-HIDDEN (not verifiable).
  expect(report.incomplete).toEqual(
    ['PAG-B', 'PAG-C'].map((id) => ({
      id,
      reasons: ['not in this run: the run was narrowed (--grep @PAG-A)'],
    })),
  );
  // A selection by title may leave out some of a requirement's tests: never a PASS, even with nothing left out.
  expect(buildReport(ran, [requirement('PAG-A')], [], narrowed)).toMatchObject({
    verdict: 'incomplete',
    incomplete: [],
  });
  expect(buildReport([result('t1', 'fail', ['PAG-A'])], catalogue, [], narrowed).verdict).toBe('fail');
  // The smoke profile is a selection by design: a user's selection narrows it all the same (runPart leaves
  // out one that restates @smoke), and what its own tests leave out is not listed, narrowed or whole.
  expect(buildReport(ran, catalogue, [], { ...narrowed, profile: 'smoke' })).toMatchObject({
    verdict: 'incomplete',
    incomplete: [],
  });
  expect(buildReport(ran, catalogue, [], { ...meta, profile: 'smoke' })).toMatchObject({
    verdict: 'pass',
    incomplete: [],
  });
  expect(renderMarkdown(report)).toContain('- **Narrowed to part of the profile:** --grep @PAG-A');
});
