// Playwright reporter that turns test results into the conformance report: per requirement of
// specs/requirements.yaml, whether the target passed, failed, was not tested, or the contract leaves the
// point open. Writes reports/conformance.json and reports/conformance.md, and decides the gate verdict
// (known deviations from CONFORMANCE_EXPECTATIONS do not fail it; stale ones do).
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { type Requirement, requirements } from '../contract/requirements.ts';
import { redactText } from '../http/redact.ts';
import { requestsSent } from '../http/request-counter.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { computeDigest } from './digest.ts';
import { expectationFor, loadExpectations } from './expectations.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport, RequirementResult, TestResultSummary } from './model.ts';

export const requirementTags = (tags: readonly string[]): string[] =>
  tags.filter((tag) => /^@[A-Z0-9]+(-[A-Z0-9]+)+$/.test(tag)).map((tag) => tag.slice(1));

function summarise(test: TestCase): TestResultSummary {
  const result = test.results.at(-1);
  const outcome = test.outcome();
  const status = outcome === 'skipped' ? 'skipped' : outcome === 'expected' ? 'passed' : 'failed';
  const annotations = [...test.annotations, ...(result?.annotations ?? [])];
  return {
    title: test.titlePath().slice(2).join(' › '),
    file: test.location.file.replace(/^.*\/tests\//, 'tests/'),
    status,
    requirements: requirementTags(test.tags),
    tags: test.tags.filter((tag) => !requirementTags([tag]).length),
    skipReason: annotations.find((annotation) => annotation.type === 'skip')?.description,
    notes: annotations
      .filter((annotation) => annotation.type === 'note')
      .map((annotation) => annotation.description ?? ''),
    error: result?.error?.message ? redactText(stripAnsi(result.error.message)).slice(0, 2000) : undefined,
  };
}

import { stripVTControlCharacters as stripAnsi } from 'node:util';

function requirementStatus(
  requirement: Requirement,
  tests: TestResultSummary[],
): RequirementResult['status'] {
  if (requirement.level === 'UNSPECIFIED') return 'unspecified';
  if (tests.some((test) => test.status === 'failed')) return 'fail';
  if (tests.some((test) => test.status === 'passed')) return 'pass';
  if (tests.length > 0) return 'skip';
  return 'untested';
}

export default class ConformanceReporter implements Reporter {
  private suite: Suite | undefined;
  private startedAt = new Date();

  constructor(private readonly options: { profile?: string } = {}) {}

  onBegin(_config: FullConfig, suite: Suite): void {
    this.suite = suite;
    this.startedAt = new Date(process.env.CONFORMANCE_STARTED_AT ?? Date.now());
  }

  printsToStdio(): boolean {
    return false;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    if (!this.suite) return undefined;
    const report = this.build(result);
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(reportPath('conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(reportPath('conformance.md'), renderMarkdown(report));
    const { passed, failed, skipped } = report.totals;
    console.log(
      `\nConformance: ${report.verdict.toUpperCase()} — ${passed} passed, ${failed} failed, ${skipped} skipped; ` +
        `${report.requirements.filter((r) => r.status === 'fail').length} requirement(s) failed; ` +
        `${report.requestsSent} requests; reports/conformance.md`,
    );
    for (const reason of report.gateFailures) console.log(`  gate: ${reason}`);
    // The gate verdict decides the exit code, so documented deviations do not fail it.
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    return { status: report.verdict === 'pass' ? 'passed' : 'failed' };
  }

  private build(result: FullResult): ConformanceReport {
    const tests = (this.suite?.allTests() ?? []).map(summarise);
    const expectations = loadExpectations(process.env.CONFORMANCE_EXPECTATIONS || undefined);
    const gateFailures: string[] = [];
    const deviations: ConformanceReport['deviations'] = [];
    for (const test of tests) {
      const expectation = expectationFor(expectations, test.title, test.requirements);
      if (test.status === 'failed' && expectation)
        deviations.push({ test: test.title, key: expectation.key, reason: expectation.reason });
      else if (test.status === 'failed') gateFailures.push(`failed: ${test.title}`);
    }
    for (const expectation of expectations) {
      const covered = tests.filter(
        (test) => test.title === expectation.key || test.requirements.includes(expectation.key),
      );
      if (covered.length > 0 && !covered.some((test) => test.status === 'failed')) {
        gateFailures.push(
          `expected failure no longer happens: ${expectation.key} (${expectation.reason}) — remove it from the expectations file`,
        );
      }
    }
    const known = new Set(requirements.map((requirement) => requirement.id));
    const unknownTags = [
      ...new Set(tests.flatMap((test) => test.requirements).filter((id) => !known.has(id))),
    ];
    const results: RequirementResult[] = requirements.map((requirement) => {
      const declaring = tests.filter((test) => test.requirements.includes(requirement.id));
      return {
        id: requirement.id,
        level: requirement.level,
        section: requirement.section,
        text: requirement.text,
        status: requirementStatus(requirement, declaring),
        verifiable: requirement.verifiable,
        reason: requirement.reason,
        tests: declaring.map((test) => ({
          title: test.title,
          status: test.status,
          skipReason: test.skipReason,
        })),
        notes: [...new Set(declaring.flatMap((test) => test.notes))],
        deviation: deviations.find((deviation) => deviation.key === requirement.id)?.reason,
      };
    });
    const report: Omit<ConformanceReport, 'digest'> = {
      target: process.env.CONFORMANCE_TARGET ?? 'remote',
      baseUrl: redactText(process.env.CONFORMANCE_BASE_URL ?? ''),
      profile: process.env.CONFORMANCE_PROFILE ?? this.options.profile ?? 'ci-gate',
      environment: process.env.CONFORMANCE_ENVIRONMENT ?? 'non-production',
      startedAt: this.startedAt.toISOString(),
      durationMs: Math.round(result.duration),
      requestsSent: requestsSent(),
      totals: {
        passed: tests.filter((test) => test.status === 'passed').length,
        failed: tests.filter((test) => test.status === 'failed').length,
        skipped: tests.filter((test) => test.status === 'skipped').length,
      },
      verdict: gateFailures.length === 0 && result.status !== 'interrupted' ? 'pass' : 'fail',
      gateFailures,
      deviations,
      unknownRequirementTags: unknownTags,
      requirements: results,
      tests,
    };
    return report.profile === 'certification'
      ? { ...report, digest: computeDigest(report.requirements) }
      : report;
  }
}
