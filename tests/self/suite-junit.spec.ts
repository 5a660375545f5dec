// reports/junit.xml is written from the findings (src/runner/report/junit.ts): the root names the verdict, a failure
// its requirement, a test an error stopped (the run's, the suite's own) is an <error>, never a <failure>, and
// the errors are counted; the XML parses, whatever the messages hold.
import { expect, test } from '@playwright/test';
// A dependency of the Prism CLI (a devDependency): only the tests read JUnit.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SignInAutomationError } from '../../src/auth/sign-in-errors.ts';
import type { Requirement } from '../../src/contract/requirements.ts';
import { buildReport } from '../../src/runner/report/build-report.ts';
import { junitXml } from '../../src/runner/report/junit.ts';
import { summarise } from '../../src/runner/report/test-result.ts';
import { junitXsdProblems } from './ci-support.ts';
import { endedTest, failedWith, sandboxRunMeta } from './findings-support.ts';

const finding = (requirement: string, outcome: string, message: string) => ({
  type: 'finding',
  description: JSON.stringify({ requirement, outcome, message }),
});
const catalogue: Requirement[] = ['PAG-A', 'PAG-B', 'PAG-C', 'PAG-D'].map((id) => ({
  id,
  level: 'MUST',
  section: 'Endpoints',
  operations: [],
  text: id,
  verifiable: true,
}));
const HOSTILE = `limit <ignored> & "quoted" 'too'\u0001`;

function runWithEachOutcome() {
  const tests = [
    endedTest({
      status: 'passed',
      title: 'PAG-A: passes',
      annotations: [finding('PAG-A', 'warning', 'served 10'), finding('PAG-A', 'note', 'answered 200')],
    }),
    endedTest({
      status: 'failed',
      title: 'PAG-B: fails',
      tags: ['@PAG-B'],
      annotations: [finding('PAG-C', 'fail', HOSTILE)],
      errors: [`ConformanceFailure: [PAG-C] ${HOSTILE}\nGET http://x/v2/cycle → 200`],
    }),
    endedTest({
      ...failedWith([new SignInAutomationError('no form on the page', 'http://x/login')], 'PAG-D'),
      title: 'PAG-D: stopped',
      tags: ['@PAG-D'],
    }),
    endedTest({ status: 'skipped', title: 'PAG-A: <not run>' }),
  ].map((test) => summarise(test));
  return buildReport(tests, catalogue, [], { ...sandboxRunMeta, durationMs: 4200 });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testsuite' || name === 'testcase',
});

interface TestcaseXml {
  name: string;
  classname: string;
  time: string;
  failure?: { message: string; type: string; '#text': string };
  error?: { message: string; type: string; '#text': string };
  /** The reason, as the element's text. */
  skipped?: string;
  'system-out'?: string;
}

test('JUnit: the root names the verdict (a failure outranks a run error), a failure its requirement; what a run-side cause stopped is an error, counted', async () => {
  const xml = junitXml(runWithEachOutcome());
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(await junitXsdProblems(xml)).toEqual([]);
  const { testsuites } = parser.parse(xml) as {
    testsuites: { name: string; tests: string; failures: string; errors: string; time: string } & {
      testsuite: { name: string; tests: string; skipped: string; errors: string; testcase: TestcaseXml[] }[];
    };
  };
  expect(testsuites).toMatchObject({
    name: 'Conformance FAIL',
    tests: '4',
    failures: '1',
    errors: '1',
    time: '4.200',
  });
  expect(testsuites.testsuite.map((suite) => [suite.name, suite.tests, suite.skipped, suite.errors])).toEqual(
    [['tests/conformance/x.spec.ts', '4', '1', '1']],
  );
  const cases = new Map(testsuites.testsuite[0]?.testcase.map((testcase) => [testcase.name, testcase]));
  expect(cases.get('PAG-A: passes')).toMatchObject({
    classname: 'tests/conformance/x.spec.ts',
    time: '1.500',
    'system-out': 'warning: PAG-A: served 10\nnote: PAG-A: answered 200',
  });
  expect(cases.get('PAG-A: passes')?.failure).toBeUndefined();
  // Charged to its finding's requirement, the message's characters intact (those XML cannot carry replaced).
  const failure = cases.get('PAG-B: fails')?.failure;
  const shown = HOSTILE.replace('\u0001', '\uFFFD');
  expect(failure).toMatchObject({ type: 'PAG-C', message: `[PAG-C] ${shown}` });
  expect(failure?.['#text']).toContain('GET http://x/v2/cycle → 200');
  const stopped = cases.get('PAG-D: stopped');
  expect(stopped?.failure ?? stopped?.skipped).toBeUndefined();
  expect(stopped?.error).toMatchObject({
    type: 'sign-in',
    message: 'Sign-in automation could not find its way: no form on the page. The page: http://x/login',
  });
  expect(stopped?.error?.['#text']).toContain('remedy: the sign-in could not find its way');
  expect(cases.get('PAG-A: <not run>')?.skipped).toBe('not verified: did not run (the run ended first)');
});

test("JUnit: an ERROR run counts its error; the run's error no test carries is a testcase of its own", async () => {
  const runError = {
    kind: 'configuration' as const,
    cause: 'CONFORMANCE_BASE_URL is not a URL',
    remedy: 'correct it',
  };
  const own = failedWith([new TypeError("Cannot read properties of undefined (reading 'records')")], 'PAG-B');
  const report = buildReport(
    [summarise(endedTest({ ...own, title: 'PAG-B: crashes', tags: ['@PAG-B'] }))],
    catalogue,
    [],
    { ...sandboxRunMeta, runError },
  );
  expect(report.verdict).toBe('error');
  const xml = junitXml(report);
  expect(await junitXsdProblems(xml)).toEqual([]);
  const { testsuites } = parser.parse(xml) as {
    testsuites: {
      name: string;
      errors: string;
      failures: string;
      testsuite: { name: string; testcase: TestcaseXml[] }[];
    };
  };
  expect(testsuites).toMatchObject({ name: 'Conformance ERROR', errors: '2', failures: '0' });
  const [run, file] = testsuites.testsuite;
  expect(run?.name).toBe('the run');
  expect(run?.testcase[0]?.error).toMatchObject({ type: 'configuration', message: runError.cause });
  expect(file?.testcase[0]?.error?.type).toBe('suite');
  expect(file?.testcase[0]?.error?.['#text']).toContain('TypeError');
});
