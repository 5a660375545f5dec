// npm run check-recording: hand-made HAR and NDJSON recordings, checked against the contract without a
// request sent. Valid exchanges with unknown fields pass (notes), a truncated body is not verified, a
// status the operation does not list and a score while PENDING_SCORE fail their requirements, unknown
// operations are notes, and no credential of the recording reaches the report.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { operationById, operations } from '../../src/contract/operations.ts';
import { successRequirement } from '../../src/contract/requirements.ts';
import { BEARER, HOST, harEntry, validBody } from '../../src/recording/synthetic-har.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { checkRecording, writeHar } from './check-recording-support.ts';
import { scratchDir } from './scratch.ts';

const checked = operations.filter((op) => op.area === 'user-data' || op.area === 'partner');

/** Every report the run wrote (conformance.*), as one text. */
const writtenIn = (reports: string) =>
  readdirSync(reports)
    .filter((name) => name.startsWith('conformance.'))
    .map((name) => readFileSync(join(reports, name), 'utf8'))
    .join('\n');

const withExtra = (body: Record<string, unknown> | undefined) => {
  if (body === undefined) return undefined;
  const records = Array.isArray(body.records)
    ? body.records.map((r: Record<string, unknown>) => ({ ...r, recorded_extra: 1 }))
    : undefined;
  return { ...body, ...(records ? { records } : {}), unknown_field: 'allowed' };
};

const statusOf = (report: ConformanceReport, id: string) =>
  report.requirements.find((r) => r.id === id)?.status;

test('one valid exchange per user-data and partner operation, each with an unknown field: PASS, notes only', async () => {
  const file = writeHar(
    'clean.har',
    checked.map((op) => harEntry(op, { body: withExtra(validBody(op)) })),
  );
  const { code, report, output } = await checkRecording([file]);
  expect(
    report.requirements.filter((r) => r.status === 'fail').map((r) => r.id),
    output,
  ).toEqual([]);
  expect(report.verdict).toBe('pass');
  expect(code).toBe(0);
  expect(report.recording).toMatchObject({ exchanges: checked.length, matched: checked.length, unknown: 0 });
  expect(statusOf(report, 'SCH-CYCLE')).toBe('pass');
  expect(
    report.requirements
      .find((r) => r.id === 'SCH-CYCLE')
      ?.notes.map((note) => note.message)
      .join('\n'),
  ).toMatch(/unknown property 'unknown_field'/);
  for (const op of checked) {
    const id = successRequirement(op);
    expect(statusOf(report, id), `${op.operationId} (${id})`).toBe('pass');
  }
});

test('truncated body not verified, unlisted status, score while PENDING_SCORE and an end before the start fail, unknown operations are notes, no secret written', async () => {
  const listCycles = operationById('listCycles');
  const getCycle = operationById('getCycleById');
  const pendingWithScore = {
    ...(validBody(getCycle, 3) as Record<string, unknown>),
    score_state: 'PENDING_SCORE',
    score: { strain: 5, kilojoule: 100, average_heart_rate: 60, max_heart_rate: 120 },
  };
  const cycle = validBody(getCycle, 4) as Record<string, unknown>;
  const endsBeforeItStarts = {
    ...cycle,
    end: new Date(Date.parse(String(cycle.start)) - 3_600_000).toISOString(),
  };
  const page = JSON.stringify(validBody(listCycles));
  const entries = [
    // 0: truncated: content.size larger than the text recorded
    harEntry(listCycles, { text: page.slice(0, 40), size: page.length }),
    // 1: 201 where getCycleById lists 200
    harEntry(getCycle, { status: 201, body: validBody(getCycle) }),
    // 2: score while PENDING_SCORE
    harEntry(getCycle, { body: pendingWithScore }),
    // 3, 4: no operation of the contract (another host, another path)
    harEntry(getCycle, { url: 'https://elsewhere.example/v3/unknown?token=leaky-query-token-123', body: {} }),
    harEntry(getCycle, { url: `${HOST}/v2/cycle/1/strain`, body: {} }),
    // 5: omitted body (no content.text) on a read that otherwise passes
    harEntry(operationById('getBasicProfile'), { text: null, size: 120 }),
    // 6: a cycle that ends an hour before it starts
    harEntry(getCycle, { body: endsBeforeItStarts }),
  ];
  const file = writeHar('faulty.har', entries);
  const { code, report, reports, output } = await checkRecording([file]);
  const written = writtenIn(reports);
  expect(report.verdict, output).toBe('fail');
  expect(code).toBe(1);
  const opCycle = successRequirement({ operationId: 'getCycleById' });
  expect(statusOf(report, opCycle)).toBe('fail');
  expect(report.tests.find((t) => t.failedRequirements.includes(opCycle))?.error).toMatch(
    /status 201 is not one getCycleById lists.*faulty\.har#1/s,
  );
  expect(statusOf(report, 'INV-CYCLE-SCORE-IFF-SCORED')).toBe('fail');
  expect(
    report.tests.find((t) => t.failedRequirements.includes('INV-CYCLE-SCORE-IFF-SCORED'))?.error,
  ).toMatch(/faulty\.har#2/);
  expect(statusOf(report, 'INV-END-NOT-BEFORE-START')).toBe('fail');
  expect(report.tests.find((t) => t.failedRequirements.includes('INV-END-NOT-BEFORE-START'))?.error).toMatch(
    /before it starts.*faulty\.har#6/s,
  );
  // The truncated page and the omitted profile: their body rules are not verified, never failed.
  for (const id of ['SCH-ENVELOPE', 'PAG-PAGE-WITHIN-LIMIT', 'ORD-CYCLES', 'SCH-BASIC-PROFILE'])
    expect(statusOf(report, id), id).toBe('not-verified');
  expect(
    report.requirements
      .find((r) => r.id === 'PAG-PAGE-WITHIN-LIMIT')
      ?.notVerified.map((line) => line.message)
      .join(),
  ).toMatch(/truncated.*faulty\.har#0/);
  expect(report.recording).toMatchObject({ exchanges: 7, matched: 5, unknown: 2 });
  expect(report.recording?.unknownRoutes.join('\n')).toMatch(
    /unknown operation: GET \/v3\/unknown .*faulty\.har#3/,
  );
  expect(written).toMatch(/unknown operation: GET \/developer\/v2\/cycle\/1\/strain/);
  for (const secret of [BEARER, 'recorded-session-cookie-value', 'leaky-query-token-123'])
    expect(written).not.toContain(secret);
});

test('a truncated body alone makes the run INCOMPLETE (exit 3); NDJSON lines are read too', async () => {
  const listSleeps = operationById('listSleeps');
  const page = JSON.stringify(validBody(listSleeps));
  const har = writeHar('truncated.har', [
    harEntry(listSleeps, { text: page, comment: 'body truncated by the proxy' }),
  ]);
  const ndjson = join(scratchDir(), 'clean.ndjson');
  const line = (op = listSleeps, body: unknown = JSON.parse(page)) =>
    JSON.stringify({
      request: {
        method: op.method,
        url: `http://any-host:8080/v2/activity/sleep?limit=2`,
        headers: { authorization: `Bearer ${BEARER}` },
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body },
    });
  writeFileSync(ndjson, `${line()}\n\n${line()}\n`);
  const { code, report } = await checkRecording([har, ndjson]);
  expect(report.verdict).toBe('fail');
  expect(code).toBe(1);
  // 3 records on a page that asked for 2
  expect(report.tests.find((t) => t.failedRequirements.includes('PAG-PAGE-WITHIN-LIMIT'))?.error).toMatch(
    /3 records; the request's limit is 2.*clean\.ndjson#1/s,
  );
  const alone = await checkRecording([har]);
  expect(alone.report.verdict).toBe('incomplete');
  expect(alone.code).toBe(3);
  expect(alone.report.incomplete.map((r) => r.id)).toContain('SCH-SLEEP');
});
