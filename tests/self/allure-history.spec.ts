// Allure history carries over between runs (src/runner/report/allure/allurerc.ts historyPath), so the report shows
// trends: two reports generated from the same results directory leave two runs in the history file, and a
// run that renders no report (src/runner/run/allure-step.ts, without CONFORMANCE_ALLURE_REPORT) adds its own.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { allureCli } from '../../src/runner/run/playwright.ts';
import { runProcess } from '../../src/runner/run/run-step.ts';
import { scratchDir } from './scratch.ts';

test('each Allure report adds its run to the history file, which the next report reads', async () => {
  const reports = scratchDir();
  const results = join(reports, 'allure-results');
  mkdirSync(results, { recursive: true });
  const uuid = '00000000-0000-4000-8000-000000000001';
  writeFileSync(
    join(results, `${uuid}-result.json`),
    JSON.stringify({
      uuid,
      name: 'a check',
      fullName: 'a check',
      testCaseId: 'a-check',
      historyId: 'a-check',
      status: 'passed',
      stage: 'finished',
      start: 1,
      stop: 2,
    }),
  );
  for (const run of [1, 2]) {
    const { code } = await runProcess(
      process.execPath,
      [
        allureCli(),
        'generate',
        results,
        '-o',
        join(reports, `allure-${run}`),
        '-c',
        'src/runner/report/allure/allurerc.ts',
      ],
      { CONFORMANCE_REPORTS_DIR: reports, CONFORMANCE_ALLURE_HISTORY: undefined },
      true,
    );
    expect(code).toBe(0);
  }
  const history = () => readFileSync(join(reports, 'allure-history.jsonl'), 'utf8').trim().split('\n');
  expect(history()).toHaveLength(2);
  const step = `const { allureStep } = await import(${JSON.stringify(new URL('../../src/runner/run/allure-step.ts', import.meta.url).href)}); console.log(await allureStep(false)());`;
  const { code, output } = await runProcess(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', step],
    { CONFORMANCE_REPORTS_DIR: reports, CONFORMANCE_ALLURE_HISTORY: undefined },
    true,
  );
  expect(code, output).toBe(0);
  expect(output).toContain('Allure results:');
  const entries = history().map((line) => JSON.parse(line) as { name: string; testResults: object });
  expect(entries).toHaveLength(3);
  expect(entries[2]?.name).toBe(entries[0]?.name);
  expect(Object.keys(entries[2]?.testResults ?? {})).toEqual(Object.keys(entries[0]?.testResults ?? {}));
  expect(Object.keys(entries[2]?.testResults ?? {})).toHaveLength(1);
});
