// What a step of a check came to, as data: its value, or the error that stopped it with what that error
// carries (a check's failure: its finding; a request the suite stopped: whose side it is on), so that a
// check records an outcome and goes on without a try.
import { RequestRefused, type StopSide } from '../../http/request-refused.ts';
import { ConformanceFailure, type FailureBasis } from '../../protocol/failure.ts';
import type { Finding } from '../../protocol/finding.ts';

export type Attempt<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: unknown;
      /** The check's failure the error is (its finding); undefined: it is none. */
      failure?: Finding;
      /** What that failure rests on: its exchange and the offending fields. */
      basis?: FailureBasis;
      /** The suite stopped the request, on the run's side or the target's; undefined: it did not. */
      stopped?: StopSide;
    };

/** The failed side of an attempt, from the error that ended it. */
export const failedAttempt = (error: unknown): Attempt<never> => ({
  ok: false,
  error,
  ...(error instanceof ConformanceFailure ? { failure: error.finding, basis: error.basis } : {}),
  ...(error instanceof RequestRefused ? { stopped: error.side } : {}),
});

/** What `step` came to. */
export const attempt = <T>(step: Promise<T>): Promise<Attempt<T>> =>
  step.then((value): Attempt<T> => ({ ok: true, value }), failedAttempt);
