// A test the run error stopped after it threw (known only to the reporter, src/runner/report/test-result.ts) is not
// verified, never failed: its Allure result, which allure-playwright wrote as failed or broken, becomes
// skipped with the reason. Results are matched by allure-playwright's fullName: "file › describe › title".
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { TestCase } from '@playwright/test/reporter';

/** allure-playwright's fullName of a test: its file relative to the configuration's rootDir, then its titles. */
export const allureFullName = (rootDir: string, test: TestCase): string =>
  [relative(rootDir, test.location.file).split(sep).join('/'), ...test.titlePath().slice(3)].join(' › ');

/** Marks skipped, with the reason, the Allure result in `dir` of each test in `stopped` (fullName → reason). */
export function markStoppedInAllure(dir: string, stopped: ReadonlyMap<string, string>): void {
  if (stopped.size === 0 || !existsSync(dir)) return;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('-result.json'))) {
    const file = join(dir, name);
    const result = JSON.parse(readFileSync(file, 'utf8')) as {
      fullName?: string;
      status?: string;
      statusDetails?: object;
    };
    const reason = stopped.get(result.fullName ?? '');
    if (reason === undefined || (result.status !== 'failed' && result.status !== 'broken')) continue;
    const statusDetails = { ...result.statusDetails, message: reason };
    writeFileSync(file, JSON.stringify({ ...result, status: 'skipped', statusDetails }));
  }
}
