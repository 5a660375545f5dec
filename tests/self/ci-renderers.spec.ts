// The forms CI tools read, rendered from the result alone and checked with the tools' own references:
// junit-requirements.xml against the JUnit XSD, the CTRF document with the ctrf package, the GitHub job
// summary within its budget on 500 failures; and verify-report refusing a result off the schema.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { XMLParser } from 'fast-xml-parser';
import type { Requirement } from '../../src/contract/requirements.ts';
import type { Finding } from '../../src/protocol/finding.ts';
import type { ConformanceResult } from '../../src/result/schema.ts';
import { validResult } from '../../src/result/validate.ts';
import { ctrfReport } from '../../src/runner/render/ctrf.ts';
import { githubSummary, SUMMARY_BUDGET } from '../../src/runner/render/github-summary.ts';
import { junitRequirementsXml } from '../../src/runner/render/junit-requirements.ts';
import { compareWithBaseline } from '../../src/runner/report/baseline.ts';
import { buildReport } from '../../src/runner/report/build-report.ts';
import type { TestResultSummary } from '../../src/runner/report/model.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { verifies } from '../../src/worker/suite/test.ts';
import { ctrfProblems, junitXsdProblems } from './ci-support.ts';
import { sandboxRunMeta } from './findings-support.ts';
import { scratchDir } from './scratch.ts';

const AREAS = ['Endpoints', 'Authentication', 'Errors', 'Pagination', 'Webhooks'];

const requirement = (id: string, index: number, level: Requirement['level'] = 'MUST'): Requirement => ({
  id,
  level,
  section: `${AREAS[index % AREAS.length]} › part`,
  operations: [],
  text: `${id}: the stated rule, quoted from the seed.`,
  verifiable: true,
});

const summary = (title: string, requirements: string[], findings: Finding[]): TestResultSummary => {
  const failed = findings.filter((f) => f.outcome === 'fail').map((f) => f.requirement);
  const stop = findings.find((f) => ['not-verified', 'blocked', 'omitted', 'error'].includes(f.outcome));
  return {
    title,
    file: 'tests/conformance/x.spec.ts',
    status: failed.length > 0 ? 'failed' : stop ? 'skipped' : 'passed',
    outcome: failed.length > 0 ? 'fail' : ((stop?.outcome as TestResultSummary['outcome']) ?? 'pass'),
    requirements,
    failedRequirements: [...new Set(failed)],
    tags: [],
    findings,
    prismViolations: [],
    durationMs: 120,
  };
};

/** The curl of a failure's request (a big body). */
const curlOf = (n: number) =>
  `curl -i -X POST 'http://127.0.0.1:4010/v2/partner/requisition/${n}' -H 'Authorization: Bearer <redacted>' --data-raw '${JSON.stringify({ status: 'COMPLETED', note: 'x'.repeat(700) })}'`;

const failure = (id: string, n: number): Finding => ({
  requirement: id,
  outcome: 'fail',
  message: `expected status 400, got 500 (body: ${'{"error":"internal"} '.repeat(12)})`,
  evidence: `POST http://127.0.0.1:4010/v2/partner/requisition/${n} → 500\n  reproduce: ${curlOf(n)}`,
  curl: curlOf(n),
});

/** A result as a reader gets it: built, written as JSON, read back and validated. */
const asRead = (result: ReturnType<typeof buildReport>): ConformanceResult =>
  validResult(JSON.parse(JSON.stringify(result)));

/** Every outcome once: pass, fail, warning, not verified (data, configuration), blocked, omitted, note. */
function everyOutcome(): ConformanceResult {
  const ids = ['REQ-PASS', 'REQ-FAIL', 'REQ-WARN', 'REQ-DATA', 'REQ-CONFIG', 'REQ-BLOCKED', 'REQ-OMITTED'];
  const catalogue = [...ids.map((id, i) => requirement(id, i)), requirement('REQ-NOTE', 7, 'UNSPECIFIED')];
  const tests = [
    summary(
      'pass',
      ['REQ-PASS'],
      [{ requirement: 'REQ-PASS', outcome: 'pass', message: '182 records', count: 182 }],
    ),
    summary('fail <&>', ['REQ-FAIL'], [failure('REQ-FAIL', 26)]),
    summary(
      'warn',
      ['REQ-WARN'],
      [{ requirement: 'REQ-WARN', outcome: 'warning', message: 'limit=0 served' }],
    ),
    summary(
      'data',
      ['REQ-DATA'],
      [{ requirement: 'REQ-DATA', outcome: 'not-verified', message: 'no SCORED cycle' }],
    ),
    summary(
      'config',
      ['REQ-CONFIG'],
      [
        {
          requirement: 'REQ-CONFIG',
          outcome: 'not-verified',
          message: 'partner B is not configured',
          kind: 'configuration',
          variables: ['CONFORMANCE_PARTNER_B_CLIENT_ID'],
        },
      ],
    ),
    summary(
      'blocked',
      ['REQ-BLOCKED'],
      [{ requirement: 'REQ-BLOCKED', outcome: 'blocked', message: 'no list', prerequisite: 'REQ-FAIL' }],
    ),
    summary('note', ['REQ-NOTE'], [{ requirement: 'REQ-NOTE', outcome: 'note', message: 'answered 200' }]),
  ];
  return asRead(buildReport(tests, catalogue, [], sandboxRunMeta));
}

/** `count` failed requirements, the first tenth new since the baseline. */
function failures(count: number): ConformanceResult {
  const ids = Array.from({ length: count }, (_, i) => `GEN-FAIL-${i + 1}`);
  const catalogue = ids.map((id, i) => requirement(id, i));
  const tests = ids.map((id, i) => summary(`${id}: the check`, [id], [failure(id, i)]));
  const built = buildReport(tests, catalogue, [], sandboxRunMeta);
  const before = {
    requirements: built.requirements.map((r, i) => (i < count / 10 ? { ...r, status: 'pass' as const } : r)),
  };
  return asRead({ ...built, sinceLastRun: compareWithBaseline(built, before, 'last-night.json') });
}

/** An ERROR run: a check stopped by the suite's own error, another by the run error, and the run error itself. */
function errored(): ConformanceResult {
  const catalogue = ['REQ-SUITE', 'REQ-RUN', 'REQ-PASS'].map((id, i) => requirement(id, i));
  const runError = {
    kind: 'configuration' as const,
    cause: 'CONFORMANCE_BASE_URL is not a URL',
    remedy: 'correct it',
  };
  const suite = {
    kind: 'suite' as const,
    cause: `the suite's own code failed in "crash": TypeError: x is undefined`,
    remedy: "report it to the suite's maintainers",
    stack: 'TypeError: x is undefined\n    at check (tests/conformance/x.spec.ts:3:1)',
  };
  const stopped = (title: string, id: string, stop: typeof runError | typeof suite) =>
    summary(title, [id], [{ requirement: id, outcome: 'error', message: stop.cause, runError: stop }]);
  const tests = [
    stopped('crash', 'REQ-SUITE', suite),
    stopped('stopped', 'REQ-RUN', runError),
    summary('pass', ['REQ-PASS'], [{ requirement: 'REQ-PASS', outcome: 'pass', message: 'served' }]),
  ];
  return asRead(buildReport(tests, catalogue, [], { ...sandboxRunMeta, runError }));
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testsuite' || name === 'testcase',
});

test('junit-requirements.xml: one testcase per requirement, classname its area; valid against the JUnit XSD', async () => {
  const result = everyOutcome();
  const xml = junitRequirementsXml(result);
  expect(await junitXsdProblems(xml)).toEqual([]);
  const { testsuites } = parser.parse(xml) as {
    testsuites: { name: string; testsuite: { testcase: Record<string, unknown>[] }[] };
  };
  const cases = new Map(
    testsuites.testsuite.flatMap((suite) => suite.testcase).map((tc) => [tc.name as string, tc]),
  );
  expect([...cases.keys()].sort()).toEqual(result.requirements.map((r) => r.id).sort());
  expect(testsuites.name).toBe('Conformance FAIL (requirements)');
  expect(cases.get('REQ-FAIL')).toMatchObject({ classname: 'Authentication', failure: { type: 'REQ-FAIL' } });
  expect(String((cases.get('REQ-FAIL')?.failure as { '#text'?: string } | undefined)?.['#text'])).toContain(
    "curl -i -X POST 'http://127.0.0.1:4010/v2/partner/requisition/26'",
  );
  expect(cases.get('REQ-PASS')?.failure ?? cases.get('REQ-PASS')?.skipped).toBeUndefined();
  expect(cases.get('REQ-CONFIG')?.skipped).toContain('set CONFORMANCE_PARTNER_B_CLIENT_ID');
  expect(cases.get('REQ-BLOCKED')?.skipped).toContain('fix REQ-FAIL first');
  expect(cases.get('REQ-DATA')?.skipped).toContain('no SCORED cycle');
  expect(await junitXsdProblems(junitRequirementsXml(failures(500)))).toEqual([]);
});

test('the CTRF document: one test per requirement, the suite’s status in rawStatus; valid for the ctrf package', () => {
  const document = ctrfReport(everyOutcome());
  expect(ctrfProblems(document)).toEqual([]);
  const byName = new Map(document.results.tests.map((t) => [t.name, t]));
  expect(byName.get('REQ-FAIL')).toMatchObject({
    status: 'failed',
    rawStatus: 'fail',
    suite: ['Authentication'],
  });
  expect(byName.get('REQ-WARN')).toMatchObject({ status: 'passed', rawStatus: 'warning' });
  expect(byName.get('REQ-DATA')).toMatchObject({ status: 'skipped', rawStatus: 'not-verified' });
  expect(byName.get('REQ-NOTE')).toMatchObject({ status: 'other', rawStatus: 'note' });
  expect(document.results.summary).toMatchObject({ tests: 8, failed: 1, other: 1 });
  expect(ctrfProblems(ctrfReport(failures(500)))).toEqual([]);
});

test('an ERROR run: junit-requirements.xml and CTRF count what an error left not verified as errors, never skips', async () => {
  const result = errored();
  expect(result.verdict).toBe('error');
  const xml = junitRequirementsXml(result);
  expect(await junitXsdProblems(xml)).toEqual([]);
  const { testsuites } = parser.parse(xml) as {
    testsuites: { errors: string; failures: string; testsuite: { testcase: Record<string, unknown>[] }[] };
  };
  expect(testsuites).toMatchObject({ errors: '2', failures: '0' });
  const cases = new Map(
    testsuites.testsuite.flatMap((suite) => suite.testcase).map((tc) => [tc.name as string, tc]),
  );
  expect(cases.get('REQ-SUITE')).toMatchObject({ error: { type: 'run-error' } });
  expect(cases.get('REQ-SUITE')?.skipped).toBeUndefined();
  expect(cases.get('REQ-RUN')).toMatchObject({ error: { type: 'run-error' } });
  const document = ctrfReport(result);
  expect(ctrfProblems(document)).toEqual([]);
  expect(document.results.summary).toMatchObject({ failed: 0, other: 2, extra: { errors: 2 } });
  const byName = new Map(document.results.tests.map((t) => [t.name, t]));
  expect(byName.get('REQ-SUITE')).toMatchObject({ status: 'other', rawStatus: 'not-verified' });
  // A run error no requirement carries (it stopped the run before any check) is a testcase, a test, of its own.
  const before = asRead({ ...buildReport([], [], [], { ...sandboxRunMeta, runError: result.runError }) });
  const alone = parser.parse(junitRequirementsXml(before)) as { testsuites: { errors: string } };
  expect(alone.testsuites.errors).toBe('1');
  expect(ctrfReport(before).results.tests.map((t) => [t.name, t.status, t.rawStatus])).toEqual([
    ['the run error', 'other', 'error'],
  ]);
  expect(ctrfProblems(ctrfReport(before))).toEqual([]);
});

test('the GitHub summary stays under its budget on 500 failures: the verdict and new failures first, and what was left out', () => {
  const text = githubSummary(failures(500));
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SUMMARY_BUDGET);
  expect(Buffer.byteLength(text), 'the budget is spent, not wasted').toBeGreaterThan(SUMMARY_BUDGET * 0.9);
  const lines = text.split('\n');
  expect(lines[0]).toBe('## ❌ Conformance FAIL: 500 MUST requirements failed, from 500 causes');
  // The causes first, ten of them, the rest counted.
  expect(text.indexOf('### 500 causes')).toBeLessThan(text.indexOf('### New failures since the baseline'));
  expect(text).toContain('- … and 490 more: conformance.md and the report page list every one');
  expect(text.indexOf('### New failures since the baseline')).toBeLessThan(
    text.indexOf('### Failures known before'),
  );
  expect(text).toContain('- **GEN-FAIL-1** (Endpoints), GEN-FAIL-1: the check:');
  expect(text).toContain("curl -i -X POST 'http://127.0.0.1:4010/v2/partner/requisition/0'");
  expect(lines.at(-2)).toMatch(
    /^_Left out to stay within 512 KiB: \d+ failures\. Every one is in conformance\.md/,
  );
  console.log(
    `GitHub summary of 500 failures: ${Buffer.byteLength(text)} bytes of ${SUMMARY_BUDGET}; ${lines.at(-2)}`,
  );
  // What fits is whole: nothing said to be left out.
  expect(githubSummary(everyOutcome())).toContain('_Everything is above');
});

test('verify-report refuses a result with a field removed or a status outside the lists, exit 1', async () => {
  const dir = scratchDir();
  const verify = async (name: string, result: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(result));
    const [command, args] = cli('verify-report', file);
    return runProcess(command, args, {}, true);
  };
  const result = everyOutcome();
  const { verdict: _, ...withoutVerdict } = result;
  const unknownStatus = {
    ...result,
    requirements: result.requirements.map((r, i) => (i === 0 ? { ...r, status: 'passed' } : r)),
  };
  const [missing, unknown, extra, untouched] = await Promise.all([
    verify('missing.json', withoutVerdict),
    verify('unknown.json', unknownStatus),
    verify('extra.json', { ...result, verdictReason: 'x' }),
    verify('untouched.json', result),
  ]);
  expect(missing.code).toBe(1);
  expect(missing.output).toContain("must have required property 'verdict'");
  expect(unknown.code).toBe(1);
  expect(unknown.output).toContain('/requirements/0/status must be equal to one of the allowed values');
  expect(extra.code).toBe(1);
  expect(extra.output).toContain('must NOT have additional properties: verdictReason');
  // The untouched result follows the schema (it has no digest: not a certificate).
  expect(untouched.output).toContain('follows the result schema');
  expect(untouched.code).toBe(2);
});

test('Allure’s behaviours tree: a test’s area is its feature, each requirement it reports on a story', () => {
  const [, details] = verifies('PAG-LIMIT-MAX', 'limit over 25 is refused', {
    also: ['ERR-NO-5XX-ON-CLIENT-INPUT'],
  });
  expect([details.annotation].flat()).toEqual(
    expect.arrayContaining([
      { type: 'allure.label.feature', description: 'Endpoints' },
      { type: 'allure.label.story', description: 'PAG-LIMIT-MAX' },
      { type: 'allure.label.story', description: 'ERR-NO-5XX-ON-CLIENT-INPUT' },
    ]),
  );
});
