// The conformance suite's `test` and how a test declares what it verifies: `test` merges each domain's
// fixtures (fixtures.ts, data-fixtures.ts) and judges each body where it ends (ending-recorder.ts); a matrix
// run (the mutation and variant gates, src/config/run-plan.ts) declares a test once per target selecting it.
// `test(...verifies('PAG-LIMIT-MAX', 'limit over 25 …'), async ({ api, verdict }) => …)` derives the title and
// tag (@PAG-LIMIT-MAX: --grep and the mutation gate select on it) and binds `verdict`; `also` tags others.
import { mergeTests, type TestDetails } from '@playwright/test';
import type { Capability } from '../../config/capabilities.ts';
import { resolveEnvironment } from '../../config/environment.ts';
import { runTargets, TARGET_ANNOTATION, type TargetSpec, titleForTarget } from '../../config/run-plan.ts';
import { areaOf, findRequirement, type RequirementId } from '../../contract/requirements.ts';
import { REQUIREMENT_ANNOTATION } from '../../protocol/finding.ts';
import { partnerDataTest, userDataTest } from './data-fixtures.ts';
import { judgedBody } from './ending-recorder.ts';
import { coreTest } from './fixtures.ts';
import { needsAnnotations } from './needs.ts';

const suiteTest = mergeTests(coreTest, userDataTest, partnerDataTest);

/**
 * Calls Playwright's `test` for the caller of the function that calls this: Playwright places a test at the
 * frame that called `test` (the file and line its reports show), so while it looks, its own frames and this
 * one are left out of the stack it captures (V8's Error.captureStackTrace `constructorOpt`).
 */
function located<T>(declaring: () => T): T {
  const capture = Error.captureStackTrace;
  Error.captureStackTrace = (target: object) => capture(target, located);
  try {
    return declaring();
  } finally {
    Error.captureStackTrace = capture;
  }
}

/**
 * `test(title, [details,] body)`, the body judged where it ends (src/worker/suite/ending-recorder.ts judgedBody) and
 * the test placed where the spec declares it; in a matrix run, declared once for each target whose grep
 * selects the test's title and tags.
 */
function declaring(declare: typeof suiteTest, targets: readonly TargetSpec[]): typeof suiteTest {
  const matrix = targets.some((target) => target.name !== '');
  const selections = targets.map((target) => ({
    name: target.name,
    grep: target.grep === undefined ? undefined : new RegExp(target.grep),
  }));
  return new Proxy(declare, {
    apply(_declare, thisArg, args: unknown[]) {
      const [title, second, third] = args as [string, TestDetails | undefined, unknown];
      const [details, body] = typeof second === 'function' ? [{}, second] : [second ?? {}, third];
      const judged = judgedBody(body as Parameters<typeof judgedBody>[0]);
      const tags = [details.tag ?? []].flat();
      const annotations = [details.annotation ?? []].flat();
      for (const { name, grep } of matrix ? selections : [{ name: '', grep: undefined }]) {
        if (grep && !grep.test([title, ...tags].join(' '))) continue;
        const annotation = matrix
          ? [...annotations, { type: TARGET_ANNOTATION, description: name }]
          : annotations;
        const registered = [titleForTarget(title, name), { ...details, annotation }, judged];
        located(() => Reflect.apply(declare, thisArg, registered));
      }
    },
  });
}

export const test = declaring(suiteTest, runTargets(resolveEnvironment()));

export interface VerifiesOptions {
  /** Further requirements this test reports on (each tagged, so selection finds it; src/worker/verdict/verdicts.ts `of`). */
  also?: readonly RequirementId[];
  /** Profile tags (src/config/profiles.ts `Tags`), e.g. writes or non-production. */
  tag?: readonly string[];
  /** What the check needs of its target, checked before its body (needs.ts): without it, not verified. */
  needs?: readonly Capability[];
}

/**
 * Allure's behaviours tree, from annotations allure-playwright reads as labels: the area of the requirement a
 * test verifies as its feature, each requirement it reports on as a story.
 */
function allureBehaviours(requirement: string, also: readonly string[]) {
  // An ID the catalogue lacks is the report's to name (unknownRequirementTags), not the declaration's to refuse.
  const known = findRequirement(requirement);
  return [
    ...(known ? [{ type: 'allure.label.feature', description: areaOf(known) }] : []),
    ...[requirement, ...also].map((id) => ({ type: 'allure.label.story', description: id })),
  ];
}

/**
 * A test's title and details from the one requirement it verifies: test()'s arguments rather than a call of
 * test(), so that Playwright records the spec file's line.
 */
export function verifies(
  requirement: RequirementId,
  title: string,
  options: VerifiesOptions = {},
): [title: string, details: TestDetails] {
  return [
    `${requirement}: ${title}`,
    {
      tag: [requirement, ...(options.also ?? [])].map((id) => `@${id}`).concat(options.tag ?? []),
      annotation: [
        { type: REQUIREMENT_ANNOTATION, description: requirement },
        ...needsAnnotations(options.needs ?? []),
        ...allureBehaviours(requirement, options.also ?? []),
      ],
    },
  ];
}
