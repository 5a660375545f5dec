// The failure store (CONFORMANCE_FAILURE_STORE, docs/profiles-and-targets.md "Exploring"): every seed and
// shrunk counterexample that ever failed, one JSON line each, in a file the team commits or keeps in a CI
// cache. Every run replays a check's stored counterexamples first, before what it generates, so a failure an
// exploring night found is tried again by every later run, the gate included, with no change to the gate's
// seed. Only an exploring run (CONFORMANCE_EXPLORE) adds to it: appending one line is atomic, so workers need
// no lock, and a merge of two copies of the file is their lines together.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export interface StoredFailure {
  /** The check that failed, by a key it gives itself (`ERR-NO-5XX-ON-CLIENT-INPUT listCycles`). */
  check: string;
  requirement: string;
  /** The seed of the run that found it. */
  seed: number;
  /** The input that failed, as the check replays it (after shrinking, for a generated one). */
  counterexample: unknown;
  /** When it was found, and against which target. */
  found: string;
  target: string;
}

const stores = new Map<string, StoredFailure[]>();

const isStored = (value: unknown): value is StoredFailure =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredFailure).check === 'string' &&
  typeof (value as StoredFailure).requirement === 'string' &&
  typeof (value as StoredFailure).seed === 'number' &&
  'counterexample' in value;

/** The store's entries (read once per process; a line that is no entry is skipped). */
export function storedFailures(file: string): StoredFailure[] {
  let entries = stores.get(file);
  if (!entries) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    entries = lines.flatMap((line) => {
      try {
        const entry: unknown = JSON.parse(line);
        return isStored(entry) ? [entry] : [];
      } catch {
        return [];
      }
    });
    stores.set(file, entries);
  }
  return entries;
}

/** The counterexamples stored for `check`, oldest first, each once. */
export function replayed(file: string, check: string): unknown[] {
  const seen = new Set<string>();
  return storedFailures(file)
    .filter((entry) => entry.check === check)
    .map((entry) => entry.counterexample)
    .filter((counterexample) => {
      const key = JSON.stringify(counterexample);
      return !seen.has(key) && seen.add(key) !== undefined;
    });
}

/** Adds a failure to the store, unless it holds that counterexample of that check already. */
export function storeFailure(file: string, failure: StoredFailure): void {
  const key = JSON.stringify(failure.counterexample);
  if (
    storedFailures(file).some(
      (entry) => entry.check === failure.check && JSON.stringify(entry.counterexample) === key,
    )
  )
    return;
  appendFileSync(file, `${JSON.stringify(failure)}\n`);
  storedFailures(file).push(failure);
}
