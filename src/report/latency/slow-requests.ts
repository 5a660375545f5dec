// The requests of a run that were slow (1 s) or lost their connection (src/http/second-sending.ts),
// one JSON line each in the run's directory, written by the worker once all their sendings settled. The
// latency section lists them; a late answer the check went on without joins its operation's latency; the
// sending the check went on without is judged all the same, by its worker, here: no answer within the bound,
// or an answer that breaks an oracle of its operation (sending-oracles.ts), fails it once, both exchanges kept.
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { Operation, OperationId } from '../../contract/operation-model.ts';
import { successRequirement } from '../../contract/requirements.ts';
import { createExchange, redactedRecord, type SentRequest } from '../../http/exchange.ts';
import type { Fate, Sending, SendingAnswers, SlowRequest } from '../../http/second-sending.ts';
import { readJsonLines } from '../../run-state/json-lines.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import type { Finding } from '../finding.ts';
import type { RunFinding } from '../run-findings.ts';
import type { LatencySample } from './latency.ts';
import { brokenOracle } from './sending-oracles.ts';

export interface SlowRequestRecord extends SlowRequest {
  /** The base URL of the target instance it was sent to (a matrix run has several). */
  target: string;
  /** The title of the test that sent it, and its spec file ('' outside a test). */
  test: string;
  file: string;
  /** Its operation of the contract (undefined: outside it, e.g. a sign-in page). */
  operationId?: OperationId;
  /** Method and URL, redacted. */
  request: string;
  /** Its one-line curl reproduction, redacted. */
  curl: string;
  /** The failure of the sending the check went on without, judged once by the worker that sent it. */
  failure?: RunFinding;
}

/** A slow request as the report lists it. */
export interface SlowRequestRow {
  operationId?: string;
  request: string;
  test: string;
  /** What became of the first sending, and of the second when there was one, in words. */
  first: string;
  second?: string;
  /** The sending the check went on with. */
  used: 'first' | 'second' | 'neither';
}

const file = (): string => reportPath('.run/slow-requests.jsonl');

export const recordSlowRequest = (record: SlowRequestRecord): void =>
  appendFileSync(file(), `${JSON.stringify(record)}\n`);

/** The slow requests sent to the target at `baseUrl`, in the order they settled. */
export const recordedSlowRequests = (baseUrl: string): SlowRequestRecord[] =>
  readJsonLines<SlowRequestRecord>(file()).filter((record) => record.target === baseUrl);

/** `answered 200 after 12 ms`, `no answer within 30000 ms`, or `no answer: read ECONNRESET`. */
function fateLine(fate: Fate): string {
  if (fate.answered) return `answered ${fate.status} after ${Math.round(fate.ms)} ms`;
  return fate.kind === 'timeout' ? `no answer within ${Math.round(fate.ms)} ms` : `no answer: ${fate.reason}`;
}

export const slowRequestRows = (records: readonly SlowRequestRecord[]): SlowRequestRow[] =>
  records.map(({ operationId, request, test, first, second, used }) => ({
    ...(operationId ? { operationId } : {}),
    request,
    test,
    first: fateLine(first),
    ...(second ? { second: `sent again after ${second.afterMs} ms: ${fateLine(second)}` } : {}),
    used: used ?? 'neither',
  }));

/** How many requests were sent a second time. */
export const sentTwice = (records: readonly SlowRequestRecord[]): number =>
  records.filter((record) => record.second !== undefined).length;

/** The late answers of first sendings the checks went on without: latency samples of their operations. */
export const lateSamples = (records: readonly SlowRequestRecord[]): LatencySample[] =>
  records.flatMap(({ operationId, first, used }) =>
    operationId && used === 'second' && first.answered ? [[operationId, Math.round(first.ms * 10) / 10]] : [],
  );

type Which = 'first' | 'second';

/** What the worker knows of a slow request beside its fates: the request as sent, its operation, its token. */
export interface SendingContext {
  request: SentRequest;
  op?: Operation;
  /** Its bearer token is one the suite made up (src/http/made-up-tokens.ts). */
  madeUpToken: boolean;
}

/** An id of a kept exchange of a sending, the same wherever the record is read. */
const sendingId = (record: SlowRequestRecord, which: Which, sending: Sending): string =>
  `sending-${createHash('sha256')
    .update(`${record.request} ${which} ${sending.startedAt.toISOString()}`)
    .digest('hex')
    .slice(0, 16)}`;

/** A sending's answer as the result keeps it (redacted, its body within the result's limit), with its id. */
function keptSending(record: SlowRequestRecord, which: Which, sending: Sending, context: SendingContext) {
  const { response, startedAt, durationMs } = sending;
  const timing = { startedAt: startedAt.toISOString(), durationMs };
  const exchange = createExchange(context.request, response.status, response.headers, response.text, timing);
  return { id: sendingId(record, which, sending), ...redactedRecord(exchange) };
}

/** What the unused sending did wrong, in words, and the field it broke; undefined: nothing. */
function unusedFault(
  record: SlowRequestRecord,
  unused: Which,
  answer: Sending | undefined,
  context: SendingContext & { op: Operation },
): Pick<Finding, 'requirement' | 'message' | 'fields'> | undefined {
  const { request } = record;
  const fate = unused === 'first' ? record.first : record.second;
  if (!fate?.answered)
    // A second sending left without an answer beside a first that answered is no unanswered request.
    return unused === 'first' && fate
      ? { requirement: successRequirement(context.op), message: `no answer: ${request}: ${fate.reason}` }
      : undefined;
  const usedFate = unused === 'first' ? record.second : record.first;
  const usedStatus = usedFate?.answered ? usedFate.status : undefined;
  const problem = answer && brokenOracle(answer.response, { ...context, usedStatus });
  if (!problem) return undefined;
  return {
    requirement: problem.requirement,
    message: `${problem.message}: ${request}, after ${Math.round(fate.ms)} ms`,
    fields: [problem.field],
  };
}

/**
 * The failure of the sending the check went on without (undefined: none, or it did nothing wrong): no answer
 * within the bound, or an answer that breaks an oracle of its operation, charged once, with the answer it rests
 * on and the check's own copy beside it.
 */
export function unusedSendingFailure(
  record: SlowRequestRecord,
  answers: SendingAnswers,
  context: SendingContext,
): RunFinding | undefined {
  const { op } = context;
  const { used, second, resendMark } = record;
  if (!op || !used || !second) return undefined;
  const unused: Which = used === 'second' ? 'first' : 'second';
  const fault = unusedFault(record, unused, answers[unused], { ...context, op });
  if (!fault) return undefined;
  const went =
    used === 'second'
      ? `sent again after ${second.afterMs} ms (its resend mark: ${resendMark.how}), ${fateLine(second)}`
      : `sent first, ${fateLine(record.first)}`;
  const kept = (which: Which) => {
    const sending = answers[which];
    return sending ? keptSending(record, which, sending, context) : undefined;
  };
  const [exchange, beside] = [kept(unused), kept(used)];
  return {
    where: `${record.test ? `${record.test} › ` : ''}${unused} sending of ${record.request}`,
    file: record.file || 'the run',
    finding: {
      ...fault,
      outcome: 'fail',
      message: `${fault.message}; the check went on with the same request ${went}`,
      evidence: `reproduce: ${record.curl}`,
      ...(exchange ? { exchange: exchange.id } : {}),
    },
    ...(exchange ? { exchange } : {}),
    ...(beside ? { beside: [beside] } : {}),
  };
}

/** The failures of the sendings the checks went on without, as their workers judged them. */
export const sendingFailures = (records: readonly SlowRequestRecord[]): RunFinding[] =>
  records.flatMap((record) => (record.failure ? [record.failure] : []));
