// Exploration across runs, end to end through the command line against the embedded sandbox (issue 31): an
// exploring run prints its seed, finds a fault a generated case reaches (a start or end in a far UTC offset
// answered 500), shrinks it and adds seed and counterexample to the failure store; a later gate run, with
// its own fixed seed, replays that counterexample first and fails on it; against a server without the fault
// the replay passes, and the store keeps one line. Every property check of the suite goes through the
// store, not only the generated requests of robustness.spec.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FIXED_PROPERTY_SEED } from '../../src/config/variable-parsers.ts';
import { readResult } from '../../src/result/validate.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import type { StoredFailure } from '../../src/worker/verdict/failure-store.ts';
import { messagesOf } from './findings-support.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

/** A seed whose generated cases reach the fault (found by an exploring run, as a night would). */
const EXPLORING_SEED = '1156172235';
const CHECK = 'ERR-NO-5XX-ON-CLIENT-INPUT: GET /v2/cycle \\(listCycles\\)';

async function run(store: string, env: Record<string, string>, ...options: string[]) {
  return runOf(CHECK, store, env, ...options);
}

async function runOf(grep: string, store: string, env: Record<string, string>, ...options: string[]) {
  const reports = join(scratchDir(), `run-${Math.random().toString(36).slice(2)}`);
  const [command, args] = cli('run', ...options, '--', '--grep', grep);
  const { code, output } = await runProcess(
    command,
    args,
    { CONFORMANCE_FAILURE_STORE: store, CONFORMANCE_REPORTS_DIR: reports, CONFORMANCE_WORKERS: '1', ...env },
    true,
  );
  const report = readResult(join(reports, 'conformance.json'));
  return { code, output, report };
}

/** The failure the one test of a report ended on: its message and evidence. */
const failureOf = (report: ConformanceReport): string =>
  (report.tests[0]?.findings ?? [])
    .filter((finding) => finding.outcome === 'fail')
    .map((finding) => `${finding.message}\n${finding.evidence ?? ''}`)
    .join('\n');

const stored = (store: string): StoredFailure[] =>
  readFileSync(store, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StoredFailure);

test('a failure found exploring is stored with its seed, shrunk, and replayed first by the gate', async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const store = join(scratchDir(), 'conformance-failures.jsonl');
  const faulty = { CONFORMANCE_SANDBOX_FAULTS: 'filter-far-offset-500' };

  const exploring = await run(store, { ...faulty, CONFORMANCE_SEED: EXPLORING_SEED }, '--explore');
  expect(exploring.code, exploring.output).toBe(1);
  expect(exploring.report.propertySeed).toBe(Number(EXPLORING_SEED));
  expect(failureOf(exploring.report)).toContain(`found exploring with seed ${EXPLORING_SEED}`);
  const [found, ...more] = stored(store);
  expect(more).toEqual([]);
  expect(found).toMatchObject({
    check: 'ERR-NO-5XX-ON-CLIENT-INPUT listCycles',
    requirement: 'ERR-NO-5XX-ON-CLIENT-INPUT',
    seed: Number(EXPLORING_SEED),
  });
  const written = Object.values(
    (found?.counterexample as { query?: Record<string, string> } | undefined)?.query ?? {},
  );
  expect(
    written.some((value) => /[+-]1[34]:\d{2}$/.test(value)),
    JSON.stringify(written),
  ).toBe(true);

  // The gate keeps its own seed, and fails on the stored case before any generated one.
  const gate = await run(store, faulty);
  expect(gate.code, gate.output).toBe(1);
  expect(gate.report.propertySeed).toBe(FIXED_PROPERTY_SEED);
  expect(failureOf(gate.report)).toContain(`replayed from the failure store ${store}`);
  expect(failureOf(gate.report)).toContain('Property failed after 1 tests');
  expect(stored(store)).toHaveLength(1);

  // Against a server without the fault, the replayed case passes and says so.
  const clean = await run(store, {});
  const [replay] = clean.report.tests;
  expect(replay?.status, clean.output).toBe('passed');
  expect(messagesOf(replay, 'pass').join('\n')).toContain('1 replayed from the failure store');
});

test('every property check stores and replays its failures: none calls fast-check but through the store', () => {
  const dir = 'tests/conformance';
  const specs = readdirSync(dir).map((file) => ({ file, source: readFileSync(join(dir, file), 'utf8') }));
  const property = specs.filter(({ source }) => source.includes('Tags.property'));
  expect(property.map(({ file }) => file).sort()).toEqual([
    'partner-ownership.spec.ts',
    'partner-workflow.spec.ts',
    'robustness.spec.ts',
  ]);
  for (const { file, source } of property) expect(source, file).toContain('assertExplored(');
  for (const { file, source } of specs)
    expect(source, file).not.toMatch(/fc\.(assert|asyncProperty|property)\(|assertProperty\(/);
});

test("a partner property replays the store's counterexamples first, as the robustness checks do", async () => {
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  const store = join(scratchDir(), 'conformance-failures.jsonl');
  const counterexample = { value: 'stored-not-a-uuid', rule: 'format', pointer: '', description: 'stored' };
  const entry: StoredFailure = {
    check: 'ERR-NO-5XX-ON-CLIENT-INPUT getRequisition malformed id',
    requirement: 'ERR-NO-5XX-ON-CLIENT-INPUT',
    seed: 1,
    counterexample,
    found: '2026-01-01T00:00:00.000Z',
    target: 'http://127.0.0.1/developer',
  };
  writeFileSync(store, `${JSON.stringify(entry)}\n`);
  const { report, output } = await runOf(
    'GET /v2/partner/requisition/\\{id\\} with a malformed id',
    store,
    {},
  );
  const [check] = report.tests;
  expect(check?.status, output).toBe('passed');
  expect(messagesOf(check, 'pass').join('\n')).toContain('1 replayed from the failure store');
});
