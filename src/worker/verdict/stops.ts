// How a check stops without a verdict of its own (not verified, blocked, omitted, a run error): a skip,
// never a pass, its finding recorded on the test first; a check that failed softly before ends failed
// instead (soft-failures.ts). Each finding is recorded redacted.
import { type TestInfo, test } from '@playwright/test';
import { redactText } from '../../http/redact.ts';
import { type Finding, REQUIREMENT_ANNOTATION, recordFinding, stopReason } from '../../protocol/finding.ts';
import { softEnding } from './soft-failures.ts';

/** Records `finding` on the test, redacted (a quoted body may carry a token the service just issued). */
export function record(testInfo: TestInfo, finding: Finding): void {
  const { message, evidence } = finding;
  recordFinding(testInfo, {
    ...finding,
    message: redactText(message),
    ...(evidence === undefined ? {} : { evidence: redactText(evidence) }),
  });
}

/** The one requirement the test declared through verifies(). */
export function declaredRequirement(testInfo: TestInfo): string {
  const requirement = testInfo.annotations.find((a) => a.type === REQUIREMENT_ANNOTATION)?.description;
  if (!requirement) throw new Error(`"${testInfo.title}" is not declared with verifies()`);
  return requirement;
}

/**
 * Ends the check without a verdict (not verified, blocked, omitted, a run error): a skip, never a pass; of
 * `requirement`, the declared one unless a verdict of another (verdict.of) stops it. A check that failed
 * softly before ends with those failures instead: what it found stands.
 */
export function stopWith(
  testInfo: TestInfo,
  stop: Omit<Finding, 'requirement'>,
  requirement = declaredRequirement(testInfo),
): never {
  const finding = { requirement, ...stop };
  record(testInfo, finding);
  const failedSoftly = softEnding(testInfo);
  if (failedSoftly) throw failedSoftly;
  testInfo.skip(true, stopReason(finding));
  throw new Error('unreachable: testInfo.skip throws');
}

/** Ends the running check as not verified: what was missing, and what would supply it (`variables`). */
export function notVerified(reason: string, variables: readonly string[] = [], requirement?: string): never {
  return stopWith(
    test.info(),
    {
      outcome: 'not-verified',
      message: reason,
      ...(variables.length > 0 ? { kind: 'configuration', variables: [...variables] } : {}),
    },
    requirement,
  );
}

/** Ends the running check as not verified because the prerequisite `prerequisite` failed. */
export function blockedBy(prerequisite: string, reason: string, requirement?: string): never {
  return stopWith(test.info(), { outcome: 'blocked', message: reason, prerequisite }, requirement);
}
