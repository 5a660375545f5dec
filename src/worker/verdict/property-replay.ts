// How a property's failure is replayed (the result's finding `replay`): the fast-check seed it failed with,
// and the command that runs the failed check alone with that seed. A seed replays its cases in order, the
// failing one included (the stored counterexamples and the boundary cases first, as in the run).
import type { TestInfo } from '@playwright/test';
import { ownTitle, targetNameOf } from '../../config/run-plan.ts';
import type { Finding } from '../../protocol/finding.ts';
import { escapeRegExp } from '../../text/escape-reg-exp.ts';

/** `text` as one single-quoted shell word. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The replay of a property that failed with `seed` in the running test. */
export function propertyReplay(
  seed: number,
  testInfo: Pick<TestInfo, 'title' | 'annotations'>,
): Finding['replay'] {
  // The test's own title: a matrix run's " [target]" is no part of it in the run that replays it.
  const title = ownTitle(testInfo.title, targetNameOf(testInfo.annotations));
  return {
    seed,
    command: `CONFORMANCE_SEED=${seed} CONFORMANCE_GREP=${shellWord(escapeRegExp(title))} npx physiology-conformance run`,
  };
}
