// The requests of a run that were slow (1 s) or lost their connection (src/http/second-sending.ts), one JSON
// line each in the run's directory, written by the worker once all their sendings settled (src/worker/
// session/slow-request-watch.ts), with the failure of the sending its check went on without; the reporter lists them.
import { appendFileSync } from 'node:fs';
import type { OperationId } from '../contract/operation-model.ts';
import type { Fate, SlowRequest } from '../http/second-sending.ts';
import { readJsonLines } from '../run-state/json-lines.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import type { RunFinding } from './run-findings.ts';

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

const file = (): string => reportPath('.run/slow-requests.jsonl');

export const recordSlowRequest = (record: SlowRequestRecord): void =>
  appendFileSync(file(), `${JSON.stringify(record)}\n`);

/** The slow requests sent to the target at `baseUrl`, in the order they settled. */
export const recordedSlowRequests = (baseUrl: string): SlowRequestRecord[] =>
  readJsonLines<SlowRequestRecord>(file()).filter((record) => record.target === baseUrl);

/** `answered 200 after 12 ms`, `no answer within 30000 ms`, or `no answer: read ECONNRESET`. */
export function fateLine(fate: Fate): string {
  if (fate.answered) return `answered ${fate.status} after ${Math.round(fate.ms)} ms`;
  return fate.kind === 'timeout' ? `no answer within ${Math.round(fate.ms)} ms` : `no answer: ${fate.reason}`;
}
