// Every sending of a read sent twice is judged (src/worker/session/unused-sending.ts unusedSendingFailure,
// sending-oracles.ts): the one the check went on without, by its operation's oracles (a status listed with
// this token, a JSON body, the schema, the status of the check's copy), charged once, with both exchanges
// kept (redacted); a late right answer is no failure. Answers are given, never awaited.
import { expect, test } from '@playwright/test';
import { operationById } from '../../src/contract/operations.ts';
import type { SentRequest } from '../../src/http/exchange.ts';
import { carriesMadeUpToken, madeUpToken } from '../../src/http/made-up-tokens.ts';
import { REDACTED, registerSecret } from '../../src/http/redact.ts';
import type { Fate, Sending, SendingAnswers } from '../../src/http/second-sending.ts';
import type { SlowRequestRecord } from '../../src/protocol/slow-requests.ts';
import { unusedSendingFailure } from '../../src/worker/session/unused-sending.ts';

const request = (url: string, token = 'issued-token-of-user-a'): SentRequest => ({
  method: 'GET',
  url,
  headers: { accept: 'application/json', authorization: `Bearer ${token}` },
});

const CYCLE = {
  id: 1,
  user_id: 10129,
  created_at: '2026-11-20T08:00:00.000Z',
  updated_at: '2026-11-20T08:00:00.000Z',
  start: '2026-11-19T08:00:00.000Z',
  end: '2026-11-20T08:00:00.000Z',
  timezone_offset: 'Z',
  score_state: 'PENDING_SCORE',
};

const json = (status: number, body: unknown, type = 'application/json; charset=utf-8'): Sending => ({
  response: { status, headers: { 'content-type': type }, text: JSON.stringify(body) },
  startedAt: new Date('2026-11-20T09:00:00.000Z'),
  durationMs: 12,
});

const fateOf = (sending: Sending, ms: number): Fate => ({
  answered: true,
  ms,
  status: sending.response.status,
});

/** A read of `operationId` whose late first answer is `first`, the check going on with `used` sent again. */
function judged(
  operationId: 'getCycleById' | 'getSleepById' | 'listCycles',
  first: Sending,
  used: Sending,
  sent = request('http://target/developer/v2/cycle/1'),
) {
  const record: SlowRequestRecord = {
    target: 'http://target/developer',
    test: 'a check',
    file: 'tests/conformance/operations.spec.ts',
    operationId,
    request: `GET ${sent.url}`,
    curl: `curl -i -X GET '${sent.url}'`,
    resendMark: { ms: 1_000, how: 'the ceiling' },
    boundMs: 30_000,
    first: fateOf(first, 12_000),
    second: { ...fateOf(used, 12), afterMs: 1_000 },
    used: 'second',
  };
  const answers: SendingAnswers = { first, second: used };
  const op = operationById(operationId);
  return unusedSendingFailure(record, answers, {
    request: sent,
    op,
    madeUpToken: carriesMadeUpToken(sent),
  });
}

test('a late first copy that is right, its status the check copy’s, is no failure', () => {
  expect(judged('getCycleById', json(200, CYCLE), json(200, CYCLE))).toBeUndefined();
  expect(judged('getCycleById', json(429, { error: 'later' }), json(200, CYCLE))).toBeUndefined();
});

test('a late 404 for the record the check was served fails the operation, with both exchanges kept', () => {
  const failure = judged('getCycleById', json(404, { error: 'not_found' }), json(200, CYCLE));
  expect(failure?.finding).toMatchObject({
    requirement: 'OP-GET-CYCLE',
    outcome: 'fail',
    fields: ['/status'],
    evidence: "reproduce: curl -i -X GET 'http://target/developer/v2/cycle/1'",
  });
  expect(failure?.finding.message).toMatch(
    /^answered 404, where the copy the check went on with got 200: GET \S+, after 12000 ms; the check went on with the same request sent again after 1000 ms/,
  );
  expect(failure?.where).toBe('a check › first sending of GET http://target/developer/v2/cycle/1');
  expect(failure?.exchange?.response.status).toBe(404);
  expect(failure?.finding.exchange).toBe(failure?.exchange?.id);
  expect(failure?.beside?.map((one) => one.response.status)).toEqual([200]);
  expect(failure?.exchange?.request.headers.authorization).toBe(REDACTED);
});

test('a late body that breaks the schema fails the operation, naming the rule and the field', () => {
  const failure = judged('getCycleById', json(200, { ...CYCLE, user_id: 'x' }), json(200, CYCLE));
  expect(failure?.finding.requirement).toBe('OP-GET-CYCLE');
  expect(failure?.finding.message).toMatch(/^the body breaks cycle: .*\/user_id.*\(SCH-CYCLE\)/);
  expect(failure?.finding.fields).toEqual(['/body/user_id']);
});

test('a late body that is not JSON fails OP-JSON-BODIES; a 5xx or an unlisted status the operation', () => {
  const html = {
    ...json(200, ''),
    response: { status: 200, headers: { 'content-type': 'text/html' }, text: '<html>' },
  };
  expect(judged('getCycleById', html, json(200, CYCLE))?.finding).toMatchObject({
    requirement: 'OP-JSON-BODIES',
    fields: ['/headers/content-type'],
  });
  const cut = { ...json(200, ''), response: { ...json(200, '').response, text: '{"id": 1,' } };
  expect(judged('getCycleById', cut, json(200, CYCLE))?.finding).toMatchObject({
    requirement: 'OP-JSON-BODIES',
    message: expect.stringMatching(/^the body is not JSON/),
  });
  expect(judged('getCycleById', json(503, {}), json(200, CYCLE))?.finding.message).toMatch(
    /^answered 503, a server error/,
  );
  expect(judged('getCycleById', json(418, {}), json(200, CYCLE))?.finding.message).toMatch(
    /^status 418 is not one getCycleById lists/,
  );
});

test('a late 200 to a token the suite made up fails AUTH-INVALID-TOKEN; its 401 is right whatever the copy got', () => {
  const sent = request('http://target/developer/v2/cycle/1', madeUpToken());
  expect(carriesMadeUpToken(sent)).toBe(true);
  const served = judged('getCycleById', json(200, CYCLE), json(401, { error: 'invalid_token' }), sent);
  expect(served?.finding).toMatchObject({ requirement: 'AUTH-INVALID-TOKEN', fields: ['/status'] });
  expect(served?.finding.message).toMatch(/^answered 200 to a token the target never issued, not 401/);
  expect(judged('getCycleById', json(401, {}), json(200, CYCLE), sent)).toBeUndefined();
  // A token the run obtained is no made-up one.
  registerSecret('issued-token-of-user-a');
  expect(carriesMadeUpToken(request('http://target/developer/v2/cycle/1'))).toBe(false);
});

test('the first sending left without an answer fails its operation; the second left without one beside a first that answered does not', () => {
  const sent = request('http://target/developer/v2/cycle?limit=25');
  const base = {
    target: 'http://target/developer',
    test: '',
    file: '',
    operationId: 'listCycles' as const,
    request: `GET ${sent.url}`,
    curl: 'curl',
    resendMark: { ms: 1_000, how: 'the ceiling' },
    boundMs: 30_000,
  };
  const context = { request: sent, op: operationById('listCycles'), madeUpToken: false };
  const noAnswer: Fate = { answered: false, ms: 30_000, reason: 'timed out after 30000 ms', kind: 'timeout' };
  const page = json(200, { records: [] });
  const firstLost = unusedSendingFailure(
    { ...base, first: noAnswer, second: { ...fateOf(page, 12), afterMs: 1_000 }, used: 'second' },
    { second: page },
    context,
  );
  expect(firstLost?.finding).toMatchObject({ requirement: 'OP-LIST-CYCLES', outcome: 'fail' });
  expect(firstLost?.finding.message).toMatch(
    /^no answer: GET \S+: timed out after 30000 ms; the check went on/,
  );
  expect(firstLost?.where).toBe(`first sending of GET ${sent.url}`);
  expect(firstLost?.beside?.map((one) => one.response.status)).toEqual([200]);
  const secondLost = unusedSendingFailure(
    { ...base, first: fateOf(page, 2_000), second: { ...noAnswer, afterMs: 1_000 }, used: 'first' },
    { first: page },
    context,
  );
  expect(secondLost).toBeUndefined();
});
