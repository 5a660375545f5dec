// The requests of a run that were slow (1 s) or lost their connection (src/http/second-sending.ts),
// one JSON line each in the run's directory, written by the worker once all their sendings settled. The
// latency section lists them; a late answer the check went on without joins its operation's latency; a first
// sending the check went on without is judged all the same, here: left without an answer within the bound,
// or answered 5xx, it fails its operation's OP-* requirement once, named with its curl.
import { appendFileSync } from 'node:fs';
import type { OperationId } from '../../contract/operation-model.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { Fate, SlowRequest } from '../../http/second-sending.ts';
import { readJsonLines } from '../../run-state/json-lines.ts';
import { reportPath } from '../../run-state/reports-dir.ts';
import type { RunFinding } from '../run-findings.ts';
import type { LatencySample } from './latency.ts';

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

/** What a first sending the check went on without did wrong, in words; undefined: nothing. */
function firstSendingFault({ request, first }: SlowRequestRecord): string | undefined {
  if (!first.answered) return `no answer: ${request}: ${first.reason}`;
  return first.status >= 500
    ? `answered ${first.status}: ${request}, after ${Math.round(first.ms)} ms`
    : undefined;
}

/** The failures of the first sendings the checks went on without, one each, charged to their operations. */
export const firstSendingFailures = (records: readonly SlowRequestRecord[]): RunFinding[] =>
  records.flatMap((record) => {
    const { operationId, request, test, curl, second, used, resendMark } = record;
    const fault = firstSendingFault(record);
    if (!operationId || used !== 'second' || !second || !fault) return [];
    const resent = `sent again after ${second.afterMs} ms (its resend mark: ${resendMark.how}), ${fateLine(second)}`;
    return [
      {
        where: `${test ? `${test} › ` : ''}first sending of ${request}`,
        file: record.file || 'the run',
        finding: {
          requirement: successRequirement({ operationId }),
          outcome: 'fail',
          message: `${fault}; the check went on with the same request ${resent}`,
          evidence: `reproduce: ${curl}`,
        },
      },
    ];
  });
