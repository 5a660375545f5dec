// A check's failure becomes a `fail` finding where it ends a test, not where it is raised: a failure a check
// catches (to block on it, or to collect it) ends nothing, a shared read's kept failure ends each test it
// reaches, and of a property's many counterexamples only the reported one counts. A fixture sees only each
// error's text (Playwright's "Name: message"), so the worker keeps its failures by that text, for as long
// as something may still throw them.
import type { Finding } from '../report/finding.ts';

interface Raised extends Error {
  readonly finding: Finding;
}

/** By text: the finding, and how many failures of that text may still be thrown (are not collected). */
const raised = new Map<string, { finding: Finding; live: number }>();
const collected = new FinalizationRegistry<string>((key) => {
  const entry = raised.get(key);
  if (entry && --entry.live === 0) raised.delete(key);
});
/** Held until the running test ends: once thrown, nothing else need hold them. */
const ofRunningTest = new Set<Raised>();

/** Called by a failure once constructed. */
export function keepRaised(failure: Raised): void {
  const key = `${failure.name}: ${failure.message}`;
  raised.set(key, { finding: failure.finding, live: (raised.get(key)?.live ?? 0) + 1 });
  collected.register(failure, key);
  ofRunningTest.add(failure);
}

/** The finding of each error that ended the test (undefined: no check raised it); ends the test's hold. */
export function endingFindings(errors: readonly { message?: string }[]): (Finding | undefined)[] {
  const findings = errors.map((error) => raised.get(error.message ?? '')?.finding);
  ofRunningTest.clear();
  return findings;
}
