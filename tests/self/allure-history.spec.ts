// Allure history carries over between runs (src/report/allurerc.ts historyPath), so the report shows
// trends: two reports generated from the same results directory leave two runs in the history file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { allureCli } from '../../src/run/playwright.ts';
import { runProcess } from '../../src/run/run-step.ts';
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
        'src/report/allurerc.ts',
      ],
      { CONFORMANCE_REPORTS_DIR: reports, CONFORMANCE_ALLURE_HISTORY: undefined },
      true,
    );
    expect(code).toBe(0);
  }
  const history = readFileSync(join(reports, 'allure-history.jsonl'), 'utf8').trim().split('\n');
  expect(history).toHaveLength(2);
});
