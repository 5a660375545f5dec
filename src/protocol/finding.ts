// A check's outcome as data, from the worker to the reporter: one `finding` annotation per outcome, its
// description the Finding as JSON. The outcomes are a closed list; the reporter refuses any other.
import { OUTCOMES, type Outcome, STOP_OUTCOMES } from '../result/outcomes.ts';
import type { ResultFinding } from '../result/schema.ts';
import { messageOf } from '../text/error-message.ts';

/** The one closed list of outcomes (the result schema's). */
export const FINDING_OUTCOMES = OUTCOMES;

export type FindingOutcome = Outcome;

/**
 * A check's outcome (the result schema's finding): its requirement, outcome and message; the evidence and
 * exchange it rests on; a pass's count; a blocked check's prerequisite; what would supply what a not
 * verified check lacked; a run error; a property failure's replay.
 */
export type Finding = ResultFinding;

export const FINDING_ANNOTATION = 'finding';

/** The annotation that names the one requirement a check declares (src/worker/suite/test.ts `verifies` sets it). */
export const REQUIREMENT_ANNOTATION = 'requirement';

type Annotation = { type: string; description?: string };

export function recordFinding(testInfo: { annotations: Annotation[] }, finding: Finding): void {
  testInfo.annotations.push({ type: FINDING_ANNOTATION, description: JSON.stringify(finding) });
}

const isOutcome = (value: unknown): value is FindingOutcome =>
  (FINDING_OUTCOMES as readonly unknown[]).includes(value);

const optionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** `data` as a Finding; throws naming what is wrong with it. */
export function validFinding(data: unknown): Finding {
  const finding = data as Partial<Finding> | null;
  if (typeof finding !== 'object' || finding === null) throw new Error('a finding must be an object');
  if (!isOutcome(finding.outcome))
    throw new Error(
      `unknown finding outcome ${JSON.stringify(finding.outcome)}: one of ${FINDING_OUTCOMES.join(', ')}`,
    );
  if (typeof finding.requirement !== 'string' || typeof finding.message !== 'string')
    throw new Error('a finding needs a requirement and a message');
  if (!optionalText(finding.evidence) || !optionalText(finding.prerequisite))
    throw new Error('the evidence and prerequisite of a finding are text');
  if (finding.outcome === 'blocked' && !finding.prerequisite)
    throw new Error('a blocked finding names its prerequisite');
  if (finding.outcome === 'error' && typeof finding.runError?.cause !== 'string')
    throw new Error('an error finding carries its run error');
  return finding as Finding;
}

/** The findings a test's annotations carry, in the order recorded; throws on one that is not a Finding. */
export function findingsOf(annotations: readonly Annotation[]): Finding[] {
  return annotations
    .filter((annotation) => annotation.type === FINDING_ANNOTATION)
    .map((annotation) => {
      try {
        return validFinding(JSON.parse(annotation.description ?? ''));
      } catch (error) {
        throw new Error(`malformed finding ${annotation.description}: ${messageOf(error)}`);
      }
    });
}

export type Stop = Finding & { outcome: (typeof STOP_OUTCOMES)[number] };

/** Whether `outcome` ends a check without a verdict of its own (a skip). */
export const isStopOutcome = (outcome: FindingOutcome): outcome is Stop['outcome'] =>
  (STOP_OUTCOMES as readonly FindingOutcome[]).includes(outcome);

export const isStop = (finding: Finding): finding is Stop => isStopOutcome(finding.outcome);

/** Why a check stopped, as the reports say it: "blocked by OP-LIST-CYCLES: …". */
export function stopReason(finding: Finding): string {
  switch (finding.outcome) {
    case 'blocked':
      return `blocked by ${finding.prerequisite}: ${finding.message}`;
    case 'omitted':
      return `omitted: ${finding.message}`;
    case 'error':
      return `not verified (blocked by the run error): ${finding.message}`;
    default:
      return `not verified: ${finding.message}`;
  }
}
