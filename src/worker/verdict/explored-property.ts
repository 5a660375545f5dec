// A property of a conformance check that remembers its failures (./failure-store.ts): the counterexamples the
// store holds for the check go first, then the check's own boundary cases, then generated ones with the run's
// seed. A gate stops at the first failure (no shrinking: every request counts); an exploring run shrinks it
// and adds the seed and the shrunk counterexample to the store, so that every later run replays it.
import fc from 'fast-check';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { replayed, storeFailure } from './failure-store.ts';
import { assertProperty } from './properties.ts';

export interface ExploredProperty<T> {
  /** The check's key in the store (`ERR-NO-5XX-ON-CLIENT-INPUT listCycles`). */
  check: string;
  arbitrary: fc.Arbitrary<T>;
  /** The check's own boundary cases, tried after the stored ones. */
  examples: readonly T[];
  /** Generated cases after the examples (the run's depth plan). */
  cases: number;
  /** The body: throws (a ConformanceFailure) when the case fails. */
  predicate: (value: T) => Promise<void>;
}

/** What an evidence line says of the counterexamples a property replayed ('' for none). */
export const replayedFromStore = (count: number): string =>
  count > 0 ? ` (${count} replayed from the failure store)` : '';

/** Runs the property; returns how many stored counterexamples it replayed. */
export async function assertExplored<T>(config: SuiteConfig, property: ExploredProperty<T>): Promise<number> {
  const stored = replayed(config.failureStore, property.check) as T[];
  const storedKeys = new Set(stored.map((value) => JSON.stringify(value)));
  let failing: T | undefined;
  const examples = [...stored, ...property.examples];
  try {
    await assertProperty(
      config.propertySeed,
      fc.asyncProperty(property.arbitrary, async (value) => {
        try {
          await property.predicate(value);
        } catch (error) {
          failing = value;
          throw error;
        }
      }),
      {
        numRuns: property.cases + examples.length,
        examples: examples.map((example) => [example]),
        endOnFailure: !config.explore,
      },
    );
  } catch (error) {
    if (!(error instanceof ConformanceFailure) || failing === undefined) throw error;
    const counterexample = failing;
    if (config.explore)
      storeFailure(config.failureStore, {
        check: property.check,
        requirement: error.requirement,
        seed: config.propertySeed,
        counterexample,
        found: new Date().toISOString(),
        target: config.baseUrl,
      });
    const { message, evidence } = error.finding;
    const origin = storedKeys.has(JSON.stringify(counterexample))
      ? `replayed from the failure store ${config.failureStore}`
      : config.explore
        ? `found exploring with seed ${config.propertySeed}, added to the failure store ${config.failureStore}`
        : `fast-check seed ${config.propertySeed}`;
    throw error.restated(`${message} (${origin})`, evidence);
  }
  return stored.length;
}
