// The run's error as the CI forms say it, from the result alone: as text, and where no requirement carries it
// (it stopped the run before any check), so that a form gives it a testcase of its own.
import type { ConformanceResult } from '../../result/schema.ts';
import { errorLines } from './requirement-lines.ts';

/** A result's run error. */
export type RunError = NonNullable<ConformanceResult['runError']>;

/** A run error as text: its cause, what to do about it, and where the suite's code failed (kind `suite`). */
export const runErrorText = ({ cause, remedy, stack }: RunError): string =>
  [cause, `remedy: ${remedy}`, ...(stack ? [stack] : [])].join('\n');

/** The run's error where no requirement was left not verified by it (it stopped the run before any check). */
export const runErrorAlone = (result: ConformanceResult): RunError | undefined =>
  result.runError && !result.requirements.some((requirement) => errorLines(requirement).length > 0)
    ? result.runError
    : undefined;
