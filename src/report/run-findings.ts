// What the run observed outside any test (the preflight of global setup): each finding with where it was
// seen, one JSON line each in the run's directory. The reporter makes each an entry of the report, so a
// server's failure met before the tests is charged like any other (src/report/test-result.ts), as is a first
// sending judged after its check went on without it (src/report/latency/slow-requests.ts).

import { appendFileSync } from 'node:fs';
import { readJsonLines } from '../run-state/json-lines.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { type Finding, validFinding } from './finding.ts';

export interface RunFinding {
  /** Where the run saw it: "preflight: sign-in of user A". */
  where: string;
  /** The spec file of the test it comes from (default: global setup). */
  file?: string;
  finding: Finding;
}

const file = (): string => reportPath('.run/run-findings.jsonl');

export const recordRunFinding = (where: string, finding: Finding): void =>
  appendFileSync(file(), `${JSON.stringify({ where, finding } satisfies RunFinding)}\n`);

/** The findings recorded so far, in order. */
export const recordedRunFindings = (): RunFinding[] =>
  readJsonLines<RunFinding>(file()).map(({ where, finding }) => ({ where, finding: validFinding(finding) }));
