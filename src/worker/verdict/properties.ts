// fast-check in conformance tests: a failing property fails as the ConformanceFailure thrown inside it (its
// requirement and finding), the failing exchange with its curl reproduction followed by fast-check's seed,
// path and counterexample as its evidence.
// Any other error inside the property (a TransportFailure: timeout, connection reset…) keeps its message
// too, so the report names the request and the cause rather than only "Property failed after 1 tests". A
// check that stopped inside the property (not verified, a request the run refused) did not fail: its stop
// ends it as it is.
import { test } from '@playwright/test';
import fc from 'fast-check';
import { redactText } from '../../http/redact.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { TransportFailure } from '../../http/transport-failure.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { propertyReplay } from './property-replay.ts';

/**
 * `fc.assert` for async properties with the run's seed (CONFORMANCE_SEED: fixed unless asked otherwise, so a
 * run's generated requests and verdicts are those of the last run), rethrowing a ConformanceFailure that
 * carries fast-check's report, the seed included.
 */
export async function assertProperty<Ts>(
  seed: number,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  parameters: fc.Parameters<Ts> = {},
): Promise<void> {
  try {
    await fc.assert(property, { seed, ...parameters });
  } catch (error) {
    if (!(error instanceof Error) || error.cause === undefined) throw error;
    if (test.info().expectedStatus === 'skipped' || error.cause instanceof RequestRefused) throw error.cause;
    throw withPropertyReport(error.cause, redactText(error.message), seed);
  }
}

/** The property's own failure, with fast-check's report (seed, path, counterexample) appended. */
function withPropertyReport(cause: unknown, report: string, seed: number): Error {
  if (cause instanceof ConformanceFailure) {
    const { message, evidence } = cause.finding;
    return cause.restated(message, evidence ? `${evidence}\n${report}` : report, {
      replay: propertyReplay(seed, test.info()),
    });
  }
  if (cause instanceof TransportFailure)
    return new TransportFailure(cause.request, cause.reason, report, cause.unanswered, cause.code);
  const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return new Error(`${redactText(message)}\n${report}`);
}
