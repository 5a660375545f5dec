// A test the run error stopped after it threw is not verified, never failed, in Allure too
// (src/runner/report/allure/allure-stopped.ts): its result, written failed by allure-playwright, becomes skipped.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { allureFullName, markStoppedInAllure } from '../../src/runner/report/allure/allure-stopped.ts';
import { endedTest } from './findings-support.ts';
import { scratchDir } from './scratch.ts';

test('Allure: the result of a test the run error stopped after it threw becomes skipped, with the reason', () => {
  const dir = scratchDir();
  const stopped = endedTest({ status: 'failed', errors: ['SignInAutomationError: no form'] });
  const fullName = allureFullName(process.cwd(), stopped);
  expect(fullName).toBe('tests/conformance/x.spec.ts › PAG-A: t');
  const write = (name: string, result: object) => writeFileSync(join(dir, name), JSON.stringify(result));
  write('a-result.json', { fullName, status: 'failed', statusDetails: { message: 'SignInAutomationError' } });
  write('b-result.json', { fullName: 'tests/conformance/x.spec.ts › other', status: 'failed' });
  markStoppedInAllure(dir, new Map([[fullName, 'not verified (blocked by the run error): no form']]));
  const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
  expect(read('a-result.json')).toMatchObject({
    status: 'skipped',
    statusDetails: { message: 'not verified (blocked by the run error): no form' },
  });
  expect(read('b-result.json').status).toBe('failed');
});
