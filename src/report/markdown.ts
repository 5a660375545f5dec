// The Markdown form of the conformance report: what a partner attaches to a certification.
import type { ConformanceReport, RequirementResult } from './model.ts';

const STATUS_LABEL: Record<RequirementResult['status'], string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  skip: '⏭ not applicable',
  untested: '· untested',
  unspecified: 'ℹ unspecified',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The area of a requirement: the first part of its seed section. */
const areaOf = (requirement: RequirementResult) => requirement.section.split(/ › |;/)[0]?.trim() ?? 'Other';

function detail(requirement: RequirementResult): string {
  if (requirement.deviation) return `known deviation: ${requirement.deviation}`;
  if (requirement.status === 'untested' && !requirement.verifiable)
    return `not observable: ${requirement.reason}`;
  if (requirement.status === 'skip')
    return [...new Set(requirement.tests.map((test) => test.skipReason ?? ''))].join('; ');
  if (requirement.status === 'unspecified')
    return requirement.notes.join('; ') || 'the contract leaves this open';
  return requirement.tests
    .map(
      (test) => `${test.status === 'failed' ? '**' : ''}${test.title}${test.status === 'failed' ? '**' : ''}`,
    )
    .join('<br>');
}

export function renderMarkdown(report: ConformanceReport): string {
  const lines = [
    '# Conformance report — Physiology Data and Partner Lab Service',
    '',
    `- **Verdict:** ${report.verdict.toUpperCase()}`,
    `- **Target:** ${report.target} (${report.baseUrl}), ${report.environment}`,
    `- **Profile:** ${report.profile}`,
    `- **Started:** ${report.startedAt}; **duration:** ${(report.durationMs / 1000).toFixed(1)} s; **requests sent:** ${report.requestsSent}`,
    `- **Tests:** ${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped`,
  ];
  const count = (status: RequirementResult['status']) =>
    report.requirements.filter((r) => r.status === status).length;
  lines.push(
    `- **Requirements:** ${count('pass')} pass, ${count('fail')} fail, ${count('skip')} not applicable, ${count('untested')} untested, ${count('unspecified')} left open by the contract`,
  );
  if (report.digest)
    lines.push(
      `- **Digest (SHA-256):** \`${report.digest.combined}\` (spec ${report.digest.spec.slice(0, 12)}…, suite ${report.digest.suiteVersion}, results ${report.digest.results.slice(0, 12)}…)`,
    );
  for (const failure of report.gateFailures) lines.push(`- gate: ${cell(failure)}`);
  for (const deviation of report.deviations)
    lines.push(`- known deviation: ${cell(deviation.test)} — ${cell(deviation.reason)}`);
  const areas = [...new Set(report.requirements.map(areaOf))];
  for (const area of areas) {
    lines.push('', `## ${area}`, '', '| Requirement | Level | Status | Detail |', '|---|---|---|---|');
    for (const requirement of report.requirements.filter((r) => areaOf(r) === area)) {
      lines.push(
        `| **${requirement.id}** ${cell(requirement.text)} | ${requirement.level} | ${STATUS_LABEL[requirement.status]} | ${cell(detail(requirement))} |`,
      );
    }
  }
  const secondOpinion = report.tests.filter((test) => test.prismViolations.length > 0);
  if (secondOpinion.length > 0) {
    lines.push('', '## Second opinion: Prism validating proxy', '');
    for (const test of secondOpinion)
      lines.push(`- ${test.title}`, ...test.prismViolations.map((v) => `  - ${cell(v)}`));
  }
  const failed = report.tests.filter((test) => test.status === 'failed');
  if (failed.length > 0) {
    lines.push('', '## Failures', '');
    for (const test of failed)
      lines.push(`### ${test.title}`, '', '```', test.error ?? '(no message)', '```', '');
  }
  return `${lines.join('\n')}\n`;
}
