// What stops a run from judging the target, on the suite's or the user's side (verdict ERROR), and where the
// run keeps the one global setup found: the tests' guard (src/worker/suite/fixtures.ts) then stops every test at once,
// and the reporter makes it the run's verdict, unless something failed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { reportPath } from './reports-dir.ts';

/** The closed list of run-side causes (the result schema publishes it, src/result/schema.ts). */
export const RUN_ERROR_KINDS = [
  'configuration',
  'unreachable',
  'credentials',
  'browser',
  'sign-in',
  /** A sign-in page asks for what no configuration holds (a captcha, a second factor): a person must sign in. */
  'person',
  /**
   * The first sign-in got a 4xx where no step had worked: a wrong CONFORMANCE_AUTH_URL, client id or redirect
   * URI looks the same as a server that lacks its endpoint.
   */
  'sign-in-refused',
  /** A TLS certificate the run does not trust (a private CA not given in NODE_EXTRA_CA_CERTS, an expired one). */
  'certificate',
  'port',
  /** The suite's own code failed: a crash in a check or in setup, a test timeout, an assertion outside the verdicts. */
  'suite',
] as const;

export type RunErrorKind = (typeof RUN_ERROR_KINDS)[number];

export interface RunError {
  kind: RunErrorKind;
  /** What went wrong, redacted: "the target cannot be reached: connect ECONNREFUSED 127.0.0.1:9". */
  cause: string;
  /** What to do about it: "check CONFORMANCE_BASE_URL". */
  remedy: string;
  /** Kind suite: where the suite's code failed (the error's stack, redacted). */
  stack?: string;
}

/** The run error in one line: cause, then what to do. */
export const runErrorLine = (runError: RunError): string => `${runError.cause}; ${runError.remedy}`;

const file = (): string => reportPath('.run/run-error.json');

export const recordRunError = (runError: RunError): void => writeFileSync(file(), JSON.stringify(runError));

/** The run error global setup recorded, if any. */
export const recordedRunError = (): RunError | undefined =>
  existsSync(file()) ? (JSON.parse(readFileSync(file(), 'utf8')) as RunError) : undefined;
