// Readings stay readings, and what a conforming server says is read (issue 35 items 8 and 9), end to end
// against one sandbox running four conforming variants together: limit-capped (every integer limit over 25,
// 2147483648 and beyond too, served as 25, as twin 1 does), start-after-end-empty (start after end answered
// 200 with no record), test-data-location (add-test-data's 204 names its requisition by Location) and
// body-measurement-a-only (user B has no body measurement). The run gives no failure: the capped limit
// beyond int32 is PAG-LIMIT-TYPE's warning, the empty answer to start after end conforms without one, the
// generated requisitions are read back, and ERR-404-BODY-PROFILE is seen with user B.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { messagesOf } from './findings-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { start } from './sandbox-client.ts';
import { runSuiteAgainst } from './suite-against.ts';

// One run, read by every test here: in one worker, in order.
test.describe.configure({ mode: 'default' });

const GREP = [
  'ERR-NO-5XX-ON-CLIENT-INPUT: GET /v2/cycle \\(listCycles\\)',
  '@PAG-LIMIT-TYPE',
  '@FLT-START-AFTER-END',
  '@TD-GENERATES-REQUISITION',
  '@TD-MOBILE-ADDRESS',
  '@ERR-404-BODY-PROFILE',
].join('|');

let sandbox: RunningSandbox;
let report: ConformanceReport;
test.beforeAll(async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  sandbox = await start({
    variants: ['limit-capped', 'start-after-end-empty', 'test-data-location', 'body-measurement-a-only'],
  });
  ({ report } = await runSuiteAgainst(sandbox, {
    CONFORMANCE_GREP: GREP,
    CONFORMANCE_ALLOW_INCOMPLETE: '1',
  }));
});
test.afterAll(async () => sandbox.close());

const requirement = (id: string) => report.requirements.find((r) => r.id === id);

test('nothing fails', () => {
  expect(report.tests.filter((t) => t.status === 'failed').map((t) => `${t.title}: ${t.error}`)).toEqual([]);
  expect(report.requirementTotals.fail).toBe(0);
});

test('a limit beyond int32 served capped is a warning of PAG-LIMIT-TYPE, as capping 26 is of PAG-LIMIT-OVER-MAX', () => {
  expect(requirement('PAG-LIMIT-TYPE')?.warnings.map((warning) => warning.message)).toEqual([
    'query {"limit":"2147483648"}: answered 200, not 400',
  ]);
  expect(requirement('PAG-LIMIT-TYPE')?.reading).toMatch(/beyond int32/);
});

test('start after end answered 200 with no record conforms to its reading: evidence, no warning', () => {
  const result = requirement('FLT-START-AFTER-END');
  expect(result?.warnings).toEqual([]);
  expect(result?.evidence.some((line) => /answered 200 with 0 records/.test(line.message))).toBe(true);
});

test("add-test-data's 204 naming the requisition by Location is read back", () => {
  for (const id of ['TD-GENERATES-REQUISITION', 'TD-MOBILE-ADDRESS'])
    expect(requirement(id)?.status, id).toBe('pass');
  expect(requirement('OP-ADD-TEST-DATA')?.notes.map((note) => note.message)).toContain(
    'add-test-data answered 204 naming its requisition by Location',
  );
});

test('ERR-404-BODY-PROFILE asks with each user: user B, without a body measurement, is seen', () => {
  const measurement = report.tests.find((t) =>
    t.title.includes('ERR-404-BODY-PROFILE: GET /v2/user/measurement'),
  );
  expect(measurement?.outcome).toBe('pass');
  expect(messagesOf(measurement, 'pass').join('\n')).toMatch(/answered 404 for user B, who has none/);
});
