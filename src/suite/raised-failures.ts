// A check's failure becomes a `fail` finding where it ends a test, not where it is raised: a failure a check
// catches (to block on it, or to collect it) ends nothing, a shared read's kept failure ends each test it
// reaches, and of a property's many counterexamples only the reported one counts. A fixture sees only each
// error's text (Playwright's "Name: message"), so the worker keeps its failures by that text, for as long
// as something may still throw them.
import type { Finding } from '../report/finding.ts';

interface Raised extends Error {
  readonly finding: Finding;
}

const raised = new Map<string, WeakRef<Raised>>();
const collected = new FinalizationRegistry<string>((key) => {
  if (!raised.get(key)?.deref()) raised.delete(key);
});
/** Held until the running test ends: once thrown, nothing else need hold them. */
const ofRunningTest = new Set<Raised>();

const keyOf = (error: { name: string; message: string }): string => `${error.name}: ${error.message}`;

/** Called by a failure once constructed. */
export function keepRaised(failure: Raised): void {
  const key = keyOf(failure);
  raised.set(key, new WeakRef(failure));
  collected.register(failure, key);
  ofRunningTest.add(failure);
}

/** The finding of each error that ended the test (undefined: no check raised it); ends the test's hold. */
export function endingFindings(errors: readonly { message?: string }[]): (Finding | undefined)[] {
  const findings = errors.map((error) => raised.get(error.message ?? '')?.deref()?.finding);
  ofRunningTest.clear();
  return findings;
}
