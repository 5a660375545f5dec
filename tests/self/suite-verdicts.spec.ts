// One vocabulary for checks (issue 30): a conformance test gives every verdict through its `verdict`
// fixture (src/worker/verdict/verdicts.ts), never through a free function, and reports on another requirement only
// through `verdict.of`: it notes and warns about any, and judges those the test declares and the
// contract-wide ones.
// The sources are read with Babel's TypeScript parser, as suite-requirement-once.spec.ts reads them.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from '@babel/parser';
import { expect, test } from '@playwright/test';
import { requirementIdsText } from '../../src/contract/requirement-ids-file.ts';
import type { RequirementId } from '../../src/contract/requirements.ts';
import { createExchange, type Exchange } from '../../src/http/exchange.ts';
import { ConformanceFailure } from '../../src/protocol/failure.ts';
import { findingsOf } from '../../src/protocol/finding.ts';
import { Verdict } from '../../src/worker/verdict/verdicts.ts';
import { Skipped, skipReasonOf } from './findings-support.ts';
import { nodesOf } from './syntax-tree.ts';

const CONFORMANCE_DIR = new URL('../conformance/', import.meta.url);

/** Functions a check calls on its verdict, never free: assertions, findings and stops. */
const VERDICT_CALL = /^(expect[A-Z]\w*|note|warn|evidence|notVerified|notVerifiedHere|blockedBy)$/;

/** The free verdict calls of `source`, as `file:line name`. */
function freeVerdictCalls(file: string, source: string): string[] {
  const { program } = parse(source, { sourceType: 'module', plugins: ['typescript'], sourceFilename: file });
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;
  return [...nodesOf(program)].flatMap((node) =>
    node.type === 'CallExpression' && node.callee.type === 'Identifier' && VERDICT_CALL.test(node.callee.name)
      ? [`${file}:${lineOf(node.start ?? 0)} ${node.callee.name}`]
      : [],
  );
}

test('no conformance test calls a free expect*, note, warn, evidence or stop: every verdict is its verdict fixture’s', () => {
  const specs = readdirSync(CONFORMANCE_DIR).filter((name) => name.endsWith('.spec.ts'));
  expect(specs.length).toBeGreaterThan(20);
  const free = specs.flatMap((name) =>
    freeVerdictCalls(`tests/conformance/${name}`, readFileSync(new URL(name, CONFORMANCE_DIR), 'utf8')),
  );
  expect(free, free.join('\n')).toEqual([]);
  expect(
    freeVerdictCalls('x.spec.ts', "expectNone('PAG-A', []);\nverdict.expectNone([]);\nnote('x');"),
  ).toEqual(['x.spec.ts:1 expectNone', 'x.spec.ts:3 note']);
});

const exchange = (status: number, text = '', headers: Record<string, string> = {}): Exchange =>
  createExchange({ method: 'GET', url: 'http://target.test/v2/cycle', headers: {} }, status, headers, text);

/** The finding a failing assertion raises. */
function failureOf(assertion: () => unknown): ConformanceFailure {
  try {
    assertion();
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
  throw new Error('the assertion did not fail');
}

test('verdict.of judges the declared and the contract-wide requirements, and only notes or warns about any other', {
  tag: ['@PAG-A', '@SCH-CYCLE'],
}, () => {
  const verdict = new Verdict('PAG-A');
  const passes = (requirement: RequirementId) => () => verdict.of(requirement).expectNo5xx(exchange(200));
  // Declared: the test's own, and its `also` (each a tag).
  expect(passes('SCH-CYCLE')).not.toThrow();
  // Contract-wide: no 5xx on client input, an operation's answer to a valid request.
  expect(passes('ERR-NO-5XX-ON-CLIENT-INPUT')).not.toThrow();
  expect(passes('OP-LIST-CYCLES')).not.toThrow();
  // Any other: a judgement throws whatever its outcome (so a clean run shows it); a note is recorded.
  const undeclared = /judges INV-STRAIN-RANGE without declaring it: add it to verifies\(\)'s `also`/;
  expect(passes('INV-STRAIN-RANGE')).toThrow(undeclared);
  expect(() => verdict.of('INV-STRAIN-RANGE').evidence('x')).toThrow(undeclared);
  const { annotations } = test.info();
  const from = annotations.length;
  verdict.of('INV-STRAIN-RANGE').note('strain 20.9 at most');
  verdict.of('INV-STRAIN-RANGE').warn('strain 21.0');
  const recorded = findingsOf(annotations.splice(from));
  expect(recorded.map(({ requirement, outcome }) => [requirement, outcome])).toEqual([
    ['INV-STRAIN-RANGE', 'note'],
    ['INV-STRAIN-RANGE', 'warning'],
  ]);
});

test('verdict.of(X) stops the check as not verified or blocked of X, not of the declared requirement', {
  tag: ['@PAG-A', '@SCH-CYCLE'],
}, () => {
  const info = test.info();
  const { skip } = info;
  // The running test's skip throws Skipped here, so this self test goes on to read what the stop recorded.
  info.skip = (_condition?: boolean, reason?: string) => {
    throw new Skipped(reason);
  };
  try {
    const from = info.annotations.length;
    const verdict = new Verdict('PAG-A');
    expect(skipReasonOf(() => verdict.of('SCH-CYCLE').notVerified('no cycle served'))).toBe(
      'not verified: no cycle served',
    );
    skipReasonOf(() => verdict.of('SCH-CYCLE').blockedBy('OP-LIST-CYCLES', 'listCycles failed'));
    expect(() => verdict.of('INV-STRAIN-RANGE').notVerified('x')).toThrow(/without declaring it/);
    const recorded = findingsOf(info.annotations.splice(from));
    expect(recorded.map(({ requirement, outcome }) => [requirement, outcome])).toEqual([
      ['SCH-CYCLE', 'not-verified'],
      ['SCH-CYCLE', 'blocked'],
    ]);
  } finally {
    info.skip = skip;
  }
});

test("a body that is not JSON fails the rule it breaks, whatever the check read it for: OP-JSON-BODIES where it applies to the exchange's operation, else the operation's own", () => {
  const of = (operation: string) =>
    createExchange(
      { method: 'GET', url: 'http://target.test/developer/v2/cycle', headers: {} },
      200,
      { 'content-type': 'text/html' },
      '<html>',
      undefined,
      operation,
    );
  const check = new Verdict('ERR-NO-5XX-ON-CLIENT-INPUT');
  expect(failureOf(() => check.json(of('listCycles'))).finding).toMatchObject({
    requirement: 'OP-JSON-BODIES',
    fields: ['/body'],
  });
  expect(failureOf(() => check.pageRecords(of('listCycles'))).finding.requirement).toBe('OP-JSON-BODIES');
  expect(failureOf(() => check.json(of('addTestData'))).finding.requirement).toBe('OP-ADD-TEST-DATA');
  expect(check.pageRecords(exchange(200, '{"records": [1, 2]}'))).toEqual([1, 2]);
  expect(check.pageRecords(exchange(200, '{"data": []}'))).toEqual([]);
});

test('the assertions fail their own requirement, naming the request', () => {
  const verdict = new Verdict('OP-LIST-CYCLES');
  expect(() => verdict.expectSuccess(exchange(204))).not.toThrow();
  const refused = failureOf(() => verdict.expectSuccess(exchange(409, 'busy'), 'the update'));
  expect(refused.finding).toMatchObject({
    requirement: 'OP-LIST-CYCLES',
    message: 'the update: expected a success (2xx), got 409 (body: busy)',
  });
  expect(refused.finding.evidence).toMatch(
    /^GET http:\/\/target\.test\/v2\/cycle → 409\n {2}reproduce: curl/,
  );
  expect(failureOf(() => verdict.json(exchange(200, '{"records": ['))).finding.message).toBe(
    'the body is not JSON (200, content-type none): "{\\"records\\": ["',
  );
  expect(verdict.json<{ records: unknown[] }>(exchange(200, '{"records": []}'))).toEqual({ records: [] });
  expect(failureOf(() => verdict.expectEmptyBody(exchange(204, 'x'))).finding.message).toMatch(
    /expected no body, got 1 bytes: x/,
  );
  expect(
    failureOf(() => verdict.expectJsonContentType(exchange(200, '{}', { 'content-type': 'text/html' })))
      .finding.message,
  ).toMatch(/content-type is "text\/html", not application\/json/);
});

test('expectSchema fails its own requirement, each violation naming the requirement its rule states', () => {
  const failure = failureOf(() =>
    new Verdict('OP-LIST-CYCLES').expectSchema(
      'paginated-cycle-response',
      { records: 'none' },
      undefined,
      'page 0',
    ),
  );
  expect(failure.finding.requirement).toBe('OP-LIST-CYCLES');
  expect(failure.finding.message).toMatch(/page 0: .*records.* → SCH-ENVELOPE/);
  // A violation of the requirement's own rule names no other.
  const own = failureOf(() =>
    new Verdict('SCH-ENVELOPE').expectSchema('paginated-cycle-response', { records: 'none' }),
  );
  expect(own.finding.message).not.toMatch(/→/);
});

test('expectNoLeak: another user’s record fails, a 5xx fails, any answer but 400 is a warning', () => {
  const verdict = new Verdict('PAG-CURSOR-INVALID');
  const own = new Set(['1', '2']);
  const identity = (record: Record<string, unknown>) => String(record.id);
  expect(() => verdict.expectNoLeak(exchange(400), 'a made-up cursor', own, identity)).not.toThrow();
  const leak = failureOf(() =>
    verdict.expectNoLeak(
      exchange(200, '{"records": [{"id": 1}, {"id": 9}]}'),
      'a made-up cursor',
      own,
      identity,
    ),
  );
  expect(leak.finding.message).toMatch(
    /a made-up cursor: served 1 record\(s\) that are not the caller's \(e\.g\. 9\)/,
  );
  expect(failureOf(() => verdict.expectNoLeak(exchange(502), 'x', own, identity)).finding.message).toMatch(
    /x: server error 502/,
  );
  const { annotations } = test.info();
  const from = annotations.length;
  verdict.expectNoLeak(exchange(200, '{"records": [{"id": 2}]}'), 'a cursor of user B', own, identity);
  const recorded = findingsOf(annotations.splice(from));
  expect(recorded).toMatchObject([
    {
      requirement: 'PAG-CURSOR-INVALID',
      outcome: 'warning',
      message: expect.stringMatching(/answered 200, not 400/),
    },
  ]);
});

test('the RequirementId that verifies() and verdict.of() take is the catalogue’s (npm run docs:tables writes it)', () => {
  const file = new URL('../../src/contract/requirement-ids.ts', import.meta.url);
  expect(readFileSync(file, 'utf8')).toBe(requirementIdsText());
});
