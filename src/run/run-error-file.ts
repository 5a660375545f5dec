// The run error global setup found (the preflight's, or its own: src/run/global-setup.ts), kept in the
// run's directory: the tests' guard (src/suite/fixtures.ts) skips every test as blocked by it, so the run
// ends in seconds with its reports, and the reporter makes it the run's verdict (ERROR).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { RunError } from '../report/run-error.ts';
import { reportPath } from './reports-dir.ts';

const file = (): string => reportPath('.run/run-error.json');

export const recordRunError = (runError: RunError): void => writeFileSync(file(), JSON.stringify(runError));

/** The run error global setup recorded, if any. */
export const recordedRunError = (): RunError | undefined =>
  existsSync(file()) ? (JSON.parse(readFileSync(file(), 'utf8')) as RunError) : undefined;
