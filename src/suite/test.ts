// The conformance suite's `test`: the fixtures of each domain, merged (Playwright's mergeTests). The core
// fixtures (configuration, the HTTP client, tokens, partners, verdicts) are in fixtures.ts, the user's data
// in user-data.ts, partner A's in partner-data.ts. Every conformance spec imports `test` from here.
//
// A matrix run (the mutation and variant gates, src/config/run-plan.ts) registers each test once per target
// that selects it, named after the target and annotated with it, so that one worker serves every target:
// the test's fixtures talk to that target's instance.
import { mergeTests, type TestDetails } from '@playwright/test';
import { resolveEnvironment } from '../config/environment.ts';
import { runTargets, TARGET_ANNOTATION, type TargetSpec, titleForTarget } from '../config/run-plan.ts';
import { coreTest } from './fixtures.ts';
import { partnerDataTest } from './partner-data.ts';
import { userDataTest } from './user-data.ts';

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
