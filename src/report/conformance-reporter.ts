// Playwright reporter that turns test results into the conformance report (reports/conformance.json and
// reports/conformance.md) and decides the gate verdict, which becomes the run's exit status.
import { mkdirSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import type { FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { requirements } from '../contract/requirements.ts';
import { redactText } from '../http/redact.ts';
import { requestsSent } from '../http/request-counter.ts';
import { reportPath, reportsDir } from '../run/reports-dir.ts';
import { buildReport } from './build-report.ts';
import { computeDigest } from './digest.ts';
import { loadExpectations } from './expectations.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport, TestResultSummary } from './model.ts';

const REQUIREMENT_TAG = /^@[A-Z0-9]+(-[A-Z0-9]+)+$/;

export function summarise(test: TestCase): TestResultSummary {
  const result = test.results.at(-1);
  const outcome = test.outcome();
  // Runtime annotations appear on both the test and its result: keep each once.
  const annotations = [
    ...new Map(
      [...test.annotations, ...(result?.annotations ?? [])].map((a) => [`${a.type}|${a.description}`, a]),
    ).values(),
  ];
  const error = result?.errors.map((e) => e.message ?? '').join('\n') || result?.error?.message;
  return {
    title: test.titlePath().slice(3).join(' › '),
    file: test.location.file.replace(/^.*\/tests\//, 'tests/'),
    status: outcome === 'skipped' ? 'skipped' : outcome === 'expected' ? 'passed' : 'failed',
    requirements: test.tags.filter((tag) => REQUIREMENT_TAG.test(tag)).map((tag) => tag.slice(1)),
    tags: test.tags.filter((tag) => !REQUIREMENT_TAG.test(tag)),
    skipReason: annotations.find((annotation) => annotation.type === 'skip')?.description,
    notes: annotations
      .filter((annotation) => annotation.type === 'note')
      .map((annotation) => annotation.description ?? ''),
    prismViolations: annotations
      .filter((annotation) => annotation.type === 'prism-violation')
      .map((annotation) => redactText(annotation.description ?? '')),
    error: error ? redactText(stripVTControlCharacters(error)).slice(0, 3000) : undefined,
  };
}

export default class ConformanceReporter implements Reporter {
  private suite: Suite | undefined;

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  printsToStdio(): boolean {
    return false;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    if (!this.suite) return undefined;
    const env = process.env;
    const built = buildReport(
      this.suite.allTests().map(summarise),
      requirements,
      loadExpectations(env.CONFORMANCE_EXPECTATIONS || undefined),
      {
        target: env.CONFORMANCE_TARGET ?? 'remote',
        baseUrl: redactText(env.CONFORMANCE_BASE_URL ?? ''),
        profile: env.CONFORMANCE_PROFILE || 'ci-gate',
        environment: env.CONFORMANCE_ENVIRONMENT || 'non-production',
        startedAt: env.CONFORMANCE_STARTED_AT ?? new Date(Date.now() - result.duration).toISOString(),
        durationMs: Math.round(result.duration),
        requestsSent: requestsSent(),
        interrupted: result.status === 'interrupted' || result.status === 'timedout',
      },
    );
    const report: ConformanceReport =
      built.profile === 'certification' ? { ...built, digest: computeDigest(built.requirements) } : built;
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(reportPath('conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(reportPath('conformance.md'), renderMarkdown(report));
    const failedRequirements = report.requirements.filter(
      (requirement) => requirement.status === 'fail',
    ).length;
    const { passed, failed, skipped } = report.totals;
    console.log(
      `\nConformance: ${report.verdict.toUpperCase()}: ${passed} passed, ${failed} failed, ${skipped} skipped; ` +
        `${failedRequirements} requirement(s) failed; ${report.requestsSent} requests; ${reportPath('conformance.md')}`,
    );
    for (const reason of report.gateFailures) console.log(`  gate: ${reason}`);
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    // The gate verdict decides the exit status, so documented deviations do not fail the run.
    return { status: report.verdict === 'pass' ? 'passed' : 'failed' };
  }
}
