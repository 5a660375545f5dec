// fast-check in conformance tests: a failing property reports the requirement it breaks first (so the
// failure is attributed like any other), then the failing exchange with its curl reproduction (from the
// ConformanceFailure thrown inside the property), then fast-check's seed, path and counterexample.
import fc from 'fast-check';
import { ConformanceFailure } from './verdicts.ts';

/** `fc.assert` for async properties, rethrowing a ConformanceFailure that carries fast-check's report. */
export async function assertProperty<Ts>(
  property: fc.IAsyncPropertyWithHooks<Ts>,
  parameters: fc.Parameters<Ts> = {},
): Promise<void> {
  try {
    await fc.assert(property, parameters);
  } catch (error) {
    const cause = error instanceof Error ? error.cause : undefined;
    if (!(error instanceof Error) || !(cause instanceof ConformanceFailure)) throw error;
    const violation = cause.message.replace(/^\[[^\]]+\]\s*/, '');
    throw new ConformanceFailure(cause.requirement, `${violation}\n${error.message}`);
  }
}
