// What a check needs of its target, declared as data (the OpenID conformance suite's `@PreEnvironment`):
// `verifies(id, title, { needs: ['stateful'] })`, or `needing(…)` on a describe block, each an annotation the
// core fixtures read before the body runs (fixtures.ts `_needs`): a target that lacks one leaves the check
// not verified, naming what would supply it.
import type { Capability } from '../../config/capabilities.ts';

const NEEDS_ANNOTATION = 'needs';

/** The annotations that declare `capabilities` needed. */
export const needsAnnotations = (capabilities: readonly Capability[]) =>
  capabilities.map((capability) => ({ type: NEEDS_ANNOTATION, description: capability }));

/** A describe block's details: every test in it needs `capabilities`. */
export const needing = (...capabilities: Capability[]) => ({ annotation: needsAnnotations(capabilities) });

/** The capabilities a test declares it needs, its describe blocks' with its own, each once. */
export const needsOf = (annotations: readonly { type: string; description?: string }[]): Capability[] => [
  ...new Set(
    annotations.flatMap(({ type, description }) =>
      type === NEEDS_ANNOTATION && description ? [description as Capability] : [],
    ),
  ),
];
