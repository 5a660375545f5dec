// The shape of reports/conformance.json.
import type { RequirementLevel } from '../contract/requirements.ts';
import type { Digest } from './digest.ts';

export interface TestResultSummary {
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  requirements: string[];
  tags: string[];
  skipReason?: string;
  notes: string[];
  /** Violations Prism reported as a validating proxy (CONFORMANCE_PRISM_PROXY): a second opinion. */
  prismViolations: string[];
  error?: string;
}

export interface RequirementResult {
  id: string;
  level: RequirementLevel;
  section: string;
  text: string;
  status: 'pass' | 'fail' | 'skip' | 'untested' | 'unspecified';
  verifiable: boolean;
  reason?: string;
  tests: { title: string; status: TestResultSummary['status']; skipReason?: string }[];
  notes: string[];
  /** The documented reason when a failure is a known deviation (CONFORMANCE_EXPECTATIONS). */
  deviation?: string;
}

export interface ConformanceReport {
  target: string;
  baseUrl: string;
  profile: string;
  environment: string;
  startedAt: string;
  durationMs: number;
  requestsSent: number;
  totals: { passed: number; failed: number; skipped: number };
  verdict: 'pass' | 'fail';
  gateFailures: string[];
  deviations: { test: string; key: string; reason: string }[];
  unknownRequirementTags: string[];
  requirements: RequirementResult[];
  tests: TestResultSummary[];
  digest?: Digest;
}
