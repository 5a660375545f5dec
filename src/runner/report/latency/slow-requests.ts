// The slow requests of a run as the report lists them (src/protocol/slow-requests.ts): what became of each
// sending, how many were sent twice, the late answers that join their operation's latency, and the failures
// of the sendings the checks went on without, as their workers judged them.
import type { LatencySample } from '../../../protocol/latency-samples.ts';
import type { RunFinding } from '../../../protocol/run-findings.ts';
import { fateLine, type SlowRequestRecord } from '../../../protocol/slow-requests.ts';

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

/** The failures of the sendings the checks went on without, as their workers judged them. */
export const sendingFailures = (records: readonly SlowRequestRecord[]): RunFinding[] =>
  records.flatMap((record) => (record.failure ? [record.failure] : []));
