// The shape of reports/conformance.json: the published result schema's types (src/result/schema.ts), under
// the names the reporter's modules use.
import type { ConformanceResult, RequirementStatus, ResultRequirement } from '../../result/schema.ts';

export type {
  ConformanceResult as ConformanceReport,
  RequirementStatus,
  ResultRequirement as RequirementResult,
  ResultTest as TestResultSummary,
  TestOutcome,
} from '../../result/schema.ts';

/** A run-side cause that stopped some checks (not verified), and how many. */
export type RunSideStop = NonNullable<ConformanceResult['runSideStops']>[number];
/** Requirement IDs by how they changed since the baseline run. */
export type SinceLastRun = NonNullable<ConformanceResult['sinceLastRun']>;
/** The recorded traffic a report was built from (no request sent). */
export type RecordingSection = NonNullable<ConformanceResult['recording']>;

/** The IDs of the report's requirement results of `status`, in the report's order. */
export const idsWithStatus = (results: readonly ResultRequirement[], status: RequirementStatus): string[] =>
  results.flatMap((result) => (result.status === status ? [result.id] : []));
