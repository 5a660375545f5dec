// The sending a check went on without, of a read sent twice (src/http/second-sending.ts), judged by its
// worker once all its sendings settled: no answer within the bound, or an answer that breaks an oracle of its
// operation (sending-oracles.ts), fails it once, both exchanges kept (src/worker/session/slow-request-watch.ts).
import { createHash } from 'node:crypto';
import type { Operation } from '../../contract/operation-model.ts';
import { successRequirement } from '../../contract/requirements.ts';
import { createExchange, redactedRecord, type SentRequest } from '../../http/exchange.ts';
import type { Sending, SendingAnswers } from '../../http/second-sending.ts';
import type { Finding } from '../../protocol/finding.ts';
import type { RunFinding } from '../../protocol/run-findings.ts';
import { fateLine, type SlowRequestRecord } from '../../protocol/slow-requests.ts';
import { brokenOracle } from './sending-oracles.ts';

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
