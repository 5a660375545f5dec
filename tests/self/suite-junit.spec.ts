// reports/junit.xml is written from the findings (src/report/junit.ts): the root names the verdict, a failure
// its requirement, and a test the run error stopped is <skipped>, never a <failure>; the XML parses, whatever
// the messages hold.
import { expect, test } from '@playwright/test';
// A dependency of the Prism CLI (a devDependency): only the tests read JUnit.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SignInAutomationError } from '../../src/auth/sign-in-errors.ts';
import type { Requirement } from '../../src/contract/requirements.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { junitXml } from '../../src/report/junit.ts';
import { summarise } from '../../src/report/test-result.ts';
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
  /** The reason, as the element's text. */
  skipped?: string;
  'system-out'?: string;
}

test('JUnit: the root names the verdict (a failure outranks a run error), a failure its requirement; what a run-side cause stopped is skipped', async () => {
  const xml = junitXml(runWithEachOutcome());
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(await junitXsdProblems(xml)).toEqual([]);
  const { testsuites } = parser.parse(xml) as {
    testsuites: { name: string; tests: string; failures: string; time: string } & {
      testsuite: { name: string; tests: string; skipped: string; testcase: TestcaseXml[] }[];
    };
  };
  expect(testsuites).toMatchObject({ name: 'Conformance FAIL', tests: '4', failures: '1', time: '4.200' });
  expect(testsuites.testsuite.map((suite) => [suite.name, suite.tests, suite.skipped])).toEqual([
    ['tests/conformance/x.spec.ts', '4', '2'],
  ]);
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
  expect(cases.get('PAG-D: stopped')?.failure).toBeUndefined();
  expect(cases.get('PAG-D: stopped')?.skipped).toBe(
    'not verified (blocked by the run error): Sign-in automation could not find its way: no form on the page. The page: http://x/login',
  );
  expect(cases.get('PAG-A: <not run>')?.skipped).toBe('not verified: did not run (the run ended first)');
});
