// What ends a test is recorded where it ends it, not where it is raised: a check's failure (its `fail`
// finding) and a request the run refused (src/http/request-refused.ts: the check not verified). A failure a
// check catches (to block on it, or to collect it) ends nothing, a shared read's kept failure or refusal
// ends each test it reaches, and of a property's many counterexamples only the reported one counts. A
// fixture sees only each error's text (Playwright's "Name: message"), so the worker keeps what it raised
// by that text, for as long as something may still throw it.
import type { Finding } from '../report/finding.ts';

/** A finding without its requirement: a stop, which takes the requirement of the check it ends. */
type Stop = Omit<Finding, 'requirement'>;

interface Raised extends Error {
  readonly finding: Finding | Stop;
}

/** By text: the finding, and how many errors of that text may still be thrown (are not collected). */
const raised = new Map<string, { finding: Finding | Stop; live: number }>();
const collected = new FinalizationRegistry<string>((key) => {
  const entry = raised.get(key);
  if (entry && --entry.live === 0) raised.delete(key);
});
/** Held until the running test ends: once thrown, nothing else need hold them. */
const ofRunningTest = new Set<Raised>();

const keyOf = (error: { name: string; message: string }) => `${error.name}: ${error.message}`;

/** Called by a failure once constructed, and for a refusal before it is thrown (the API client's onRefused). */
export function keepRaised(error: Raised): void {
  const key = keyOf(error);
  raised.set(key, { finding: error.finding, live: (raised.get(key)?.live ?? 0) + 1 });
  collected.register(error, key);
  ofRunningTest.add(error);
}

/** Whether `error` is a kept stop (a refusal): the check it reaches is not verified by it, never failed. */
export function isKeptStop(error: unknown): boolean {
  const finding = error instanceof Error ? raised.get(keyOf(error))?.finding : undefined;
  return finding !== undefined && !('requirement' in finding);
}

/**
 * The finding of each error that ended the test (undefined: nothing kept raised it), a stop's charged to
 * `requirement` (the test's own); ends the test's hold.
 */
export function endingFindings(
  errors: readonly { message?: string }[],
  requirement: () => string,
): (Finding | undefined)[] {
  const findings = errors.map((error): Finding | undefined => {
    const finding = raised.get(error.message ?? '')?.finding;
    if (finding === undefined || 'requirement' in finding) return finding;
    return { requirement: requirement(), ...finding };
  });
  ofRunningTest.clear();
  return findings;
}

/** The check's failures among the errors that are ending the test, without ending its hold. */
export const raisedFailures = (errors: readonly { message?: string }[]): Finding[] =>
  errors.flatMap((error) => {
    const finding = raised.get(error.message ?? '')?.finding;
    return finding && 'requirement' in finding ? [finding] : [];
  });
