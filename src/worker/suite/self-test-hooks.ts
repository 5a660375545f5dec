// Test-only: how the self tests make one check's own code fail, to prove that the run charges it to itself
// (ERROR, kind `suite`) and never to the check's requirement. CONFORMANCE_SELF_TEST_ERROR is
// `type-error:<ID>` (every check declaring requirement ID throws a TypeError of its own code) or
// `hang:<ID>` (it waits for ever, until Playwright's test timeout ends it), before it sends anything. It
// cannot reach a user's run by accident: it is read from the process environment alone (never an env file,
// never the run manifest), and only against the embedded sandbox.
import type { TestInfo } from '@playwright/test';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { processVariable } from '../../run-state/process-variables.ts';
import { declaredRequirement } from '../verdict/stops.ts';

/** What a check reads where a value it relied on is missing. */
interface Page {
  records: readonly unknown[];
}

/** Fails the running check's own code as the self tests asked, if they asked it of this check. */
export async function injectedError(config: SuiteConfig, testInfo: TestInfo): Promise<void> {
  const [kind, requirement] = processVariable('CONFORMANCE_SELF_TEST_ERROR')?.split(':') ?? [];
  if (config.target !== 'sandbox' || declaredRequirement(testInfo) !== requirement) return;
  if (kind === 'hang') await new Promise<never>(() => {});
  if (kind !== 'type-error') return;
  const missing = JSON.parse('null') as Page;
  testInfo.annotations.push({ type: 'self-test', description: `${missing.records.length} records` });
}
