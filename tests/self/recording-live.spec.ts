// CONFORMANCE_RECORD_HAR: the live suite writes a HAR 1.2 of its exchanges (redacted), and
// check-recording on it agrees with the live run: no failure on a clean sandbox, the fault's
// requirement on a faulty one. A few tests only (CONFORMANCE_GREP), against a sandbox started here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox } from '../../sandbox/app.ts';
import { checkRecording } from './check-recording-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';
import { runSuiteAgainst, sandboxEnv } from './suite-against.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

const GREP = '@INV-CYCLE-SCORE-IFF-SCORED|@OP-LIST-CYCLES';

async function recordRun(faults: string[]) {
  const sandbox = await startSandbox({ port: 0, faults });
  const dir = scratchDir();
  const har = join(dir, 'run.har');
  try {
    await runSuiteAgainst(sandbox, { CONFORMANCE_RECORD_HAR: har, CONFORMANCE_GREP: GREP });
  } finally {
    await sandbox.close();
  }
  const { code, report } = await checkRecording([har], { reports: join(dir, 'checked') });
  return { har: readFileSync(har, 'utf8'), code, report };
}

test('the HAR of a clean run checks without a failure, and holds no credential', async () => {
  const { har, code, report } = await recordRun([]);
  expect(JSON.parse(har).log.version).toBe('1.2');
  expect(report.recording?.matched).toBeGreaterThan(10);
  expect(report.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  expect(code).toBe(0);
  for (const [name, value] of Object.entries(sandboxEnv)) {
    if (/SECRET|PASSWORD/.test(name) && value) expect(har, name).not.toContain(value);
  }
  expect(har).not.toMatch(/Bearer (?!<redacted>)/);
  expect(har).not.toMatch(/[?&]code=(?!<redacted>)/);
});

test('the HAR of a run against cycle-score-when-pending names INV-CYCLE-SCORE-IFF-SCORED', async () => {
  const { code, report } = await recordRun(['cycle-score-when-pending']);
  expect(code).toBe(1);
  expect(report.requirements.find((r) => r.id === 'INV-CYCLE-SCORE-IFF-SCORED')?.status).toBe('fail');
});
