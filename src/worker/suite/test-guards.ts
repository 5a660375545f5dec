// What may stop a test before its body, on the fixtures' word: the profile refusing it (omitted), an isolated
// test that nothing would tell the others has ended or that fell to a later shard, a test that writes on a
// target without state, and a target lacking what the check needs (each not verified, naming what would
// supply it).
import type { TestInfo } from '@playwright/test';
import { type Capability, capabilitySource, variablesSupplying } from '../../config/capabilities.ts';
import { refusal, Tags } from '../../config/profiles.ts';
import type { Isolation } from '../../config/run-plan.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { notVerified, stopWith } from '../verdict/stops.ts';
import { needsOf } from './needs.ts';

/** The target lacks capabilities a check needs: the reason names what would supply each. */
const lacking = (config: SuiteConfig, missing: readonly Capability[]): string =>
  `target ${config.target} lacks ${missing.map((capability) => `${capability}: needs ${capabilitySource[capability]}`).join('; ')}`;

/** Why an isolated test sharing its target does not run: nothing would tell the others when it has ended. */
const ISOLATION_UNTOLD =
  "the isolated tests share the target with the others, and the run's reporters lack src/runner/report/isolated-first-reporter.ts, which tells each group when the one before it has ended: list it in --reporter";

/**
 * Why an isolated test sharing its target does not run on a later shard: every shard's tests would meet it.
 * The isolated projects come first, so Playwright gives their tests to the first shard while they fit in it.
 */
const pastFirstShard = ({ current, total }: { current: number; total: number }): string =>
  `the isolated tests share the target with every shard's tests and run on the first shard only, but with ${total} shards this one fell to shard ${current}: run fewer shards`;

/** Stops a test its profile refuses, an isolated one that cannot run where it fell, one that writes statelessly. */
export function guardProfile(
  config: SuiteConfig,
  { isolation, isolatedFirst }: { isolation: Isolation; isolatedFirst: boolean },
  testInfo: TestInfo,
): void {
  const reason = refusal(config, testInfo.tags);
  if (reason !== undefined) stopWith(testInfo, { outcome: 'omitted', message: reason });
  const isolated = isolation === 'first' || isolation === 'last';
  if (isolated && !isolatedFirst) notVerified(ISOLATION_UNTOLD);
  const { shard } = testInfo.config;
  if (isolated && shard && shard.current > 1) notVerified(pastFirstShard(shard));
  // A test that writes or generates data reads its effect back: it needs a target that keeps state.
  const writes = [Tags.write, Tags.nonProduction].some((tag) => testInfo.tags.includes(tag));
  if (writes && !testInfo.tags.includes(Tags.productionCheck) && !config.capabilities.has('stateful'))
    notVerified(lacking(config, ['stateful']), variablesSupplying('stateful'));
}

/** Leaves the test not verified, naming what would supply each, where the target lacks what the check needs. */
export function guardNeeds(config: SuiteConfig, testInfo: TestInfo): void {
  const missing = needsOf(testInfo.annotations).filter((need) => !config.capabilities.has(need));
  if (missing.length > 0) notVerified(lacking(config, missing), missing.flatMap(variablesSupplying));
}
