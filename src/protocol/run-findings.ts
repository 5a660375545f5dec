// What the run observed outside any test (the preflight, a worker's teardown, a sending judged after its
// check went on without it: src/worker/session/unused-sending.ts): each finding with where it was seen, a JSON line
// each in the run's directory, which the reporter makes an entry of the report (src/runner/report/test-result.ts).

import { appendFileSync } from 'node:fs';
import { type Exchange, redactedRecord } from '../http/exchange.ts';
import type { ResultExchange } from '../result/schema.ts';
import { readJsonLines } from '../run-state/json-lines.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { ConformanceFailure } from './failure.ts';
import { type Finding, validFinding } from './finding.ts';
import { suiteError, testErrorOf } from './run-errors.ts';

export interface RunFinding {
  /** Where the run saw it: "preflight: sign-in of user A". */
  where: string;
  /** The spec file of the test it comes from (default: global setup). */
  file?: string;
  finding: Finding;
  /** The answer the finding rests on (redacted), which the finding names by its id. */
  exchange?: Omit<ResultExchange, 'test'>;
  /** The answers it was judged beside (redacted): the copy of a request the check went on with. */
  beside?: Omit<ResultExchange, 'test'>[];
}

/** Every exchange a finding of the run keeps: the one it rests on, then those beside it. */
export const keptExchangesOf = ({ exchange, beside }: RunFinding): Omit<ResultExchange, 'test'>[] => [
  ...(exchange ? [exchange] : []),
  ...(beside ?? []),
];

const file = (): string => reportPath('.run/run-findings.jsonl');

/** Records `finding`, seen `where`, and the exchange it rests on: kept, and named by the finding. */
export function recordRunFinding(where: string, finding: Finding, exchange?: Exchange): void {
  const id = `run-finding-${recordedRunFindings().length + 1}`;
  const resting = exchange
    ? { finding: { ...finding, exchange: id }, exchange: { id, ...redactedRecord(exchange) } }
    : { finding };
  appendFileSync(file(), `${JSON.stringify({ where, ...resting } satisfies RunFinding)}\n`);
}

/** The findings recorded so far, in order. */
export const recordedRunFindings = (): RunFinding[] =>
  readJsonLines<RunFinding>(file()).map((recorded) => ({
    ...recorded,
    finding: validFinding(recorded.finding),
  }));

/**
 * What ended something outside any test (a failure the preflight met, a worker fixture's teardown), recorded
 * as a run finding seen `where`: a check's failure its finding, with the exchange it rests on; any other
 * error the suite's own (the one recorder of both: src/runner/run/preflight.ts, src/worker/suite/ending-recorder.ts).
 */
export function recordEndingOutsideTests(where: string, error: unknown): void {
  const runError = suiteError(where, testErrorOf(error));
  if (error instanceof ConformanceFailure) recordRunFinding(where, error.finding, error.basis.exchange);
  else recordRunFinding(where, { requirement: '', outcome: 'error', message: runError.cause, runError });
}
