// The conformance suite's `test`, and how a test declares what it verifies. `test` merges the fixtures of
// each domain (fixtures.ts, data-fixtures.ts); a matrix run (the mutation and variant gates,
// src/config/run-plan.ts) declares each test once per target that selects it, named after the target, so
// that one worker serves every target. A test states the one requirement it verifies once:
//   test(...verifies('PAG-LIMIT-MAX', 'limit over 25 …'), async ({ api, verdict }) => …)
// which derives its title and tag (@PAG-LIMIT-MAX, which `--grep` and the mutation gate select on) and binds
// the `verdict` fixture to it; the requirements it also reports on are declared in `also`, tagged too.
import { mergeTests, type TestDetails } from '@playwright/test';
import { resolveEnvironment } from '../config/environment.ts';
import { runTargets, TARGET_ANNOTATION, type TargetSpec, titleForTarget } from '../config/run-plan.ts';
import { findRequirement } from '../contract/requirements.ts';
import { REQUIREMENT_ANNOTATION } from '../report/finding.ts';
import { areaOf } from '../report/overview.ts';
import { partnerDataTest, userDataTest } from './data-fixtures.ts';
import { coreTest } from './fixtures.ts';

const suiteTest = mergeTests(coreTest, userDataTest, partnerDataTest);

/** `test(title, [details,] body)`, declared once for each target whose grep selects the test's title and tags. */
function perTarget(declare: typeof suiteTest, targets: readonly TargetSpec[]): typeof suiteTest {
  const selections = targets.map((target) => ({
    name: target.name,
    grep: target.grep === undefined ? undefined : new RegExp(target.grep),
  }));
  return new Proxy(declare, {
    apply(_declare, thisArg, args: unknown[]) {
      const [title, second, third] = args as [string, TestDetails | undefined, unknown];
      const [details, body] = typeof second === 'function' ? [{}, second] : [second ?? {}, third];
      const tags = [details.tag ?? []].flat();
      const annotations = [details.annotation ?? []].flat();
      for (const { name, grep } of selections) {
        if (grep && !grep.test([title, ...tags].join(' '))) continue;
        const annotation = [...annotations, { type: TARGET_ANNOTATION, description: name }];
        Reflect.apply(declare, thisArg, [titleForTarget(title, name), { ...details, annotation }, body]);
      }
    },
  });
}

const targets = runTargets(resolveEnvironment());
export const test = targets.some((target) => target.name !== '') ? perTarget(suiteTest, targets) : suiteTest;

export interface VerifiesOptions {
  /** Further requirements this test reports on (each tagged, so selection finds it; src/verdict/verdicts.ts `of`). */
  also?: readonly string[];
  /** Profile tags (src/config/profiles.ts `Tags`), e.g. writes or non-production. */
  tag?: readonly string[];
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
  requirement: string,
  title: string,
  options: VerifiesOptions = {},
): [title: string, details: TestDetails] {
  return [
    `${requirement}: ${title}`,
    {
      tag: [requirement, ...(options.also ?? [])].map((id) => `@${id}`).concat(options.tag ?? []),
      annotation: [
        { type: REQUIREMENT_ANNOTATION, description: requirement },
        ...allureBehaviours(requirement, options.also ?? []),
      ],
    },
  ];
}
