// How a stopping run tells its workers, including those Playwright starts after the stop was asked for
// (they never heard the SIGINT): the conformance CLI names a file in CONFORMANCE_STOP_FILE and creates it
// before it signals the run; the suite's transport refuses to send a request once the file exists.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processVariable } from './process-variables.ts';

export const STOP_FILE_VARIABLE = 'CONFORMANCE_STOP_FILE';

/** A fresh stop-file path for a run started by this process (not created yet). */
export const newStopFile = (): string => join(tmpdir(), `conformance-stop-${process.pid}-${Date.now()}`);

export const requestStop = (path: string): void => writeFileSync(path, 'stop\n');

export const clearStop = (path: string): void => rmSync(path, { force: true });

/** Whether the run this process belongs to is stopping. */
export function stopRequested(path = processVariable(STOP_FILE_VARIABLE)): boolean {
  return !!path && existsSync(path);
}
