// reports/junit.xml, from the report's test summaries: the root names the run verdict (what a CI's JUnit view
// shows first), one testsuite per spec file, a failure names its requirement, and what the run did not
// verify (not verified, blocked, omitted, stopped by the run error) is <skipped>, never <failure>. Valid
// against the Jenkins JUnit XSD (tests/self/suite-junit.spec.ts), as junit-requirements.xml is.
import { fieldsLine } from '../render/requirement-lines.ts';
import { xmlAttributes as attributes, xmlText } from '../text/xml-text.ts';
import { type Finding, isStop } from './finding.ts';
import type { ConformanceReport, TestResultSummary } from './model.ts';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const firstLine = (text: string): string => text.split('\n')[0] ?? '';

function outcomeElement(test: TestResultSummary): string {
  // The reason as content: the Jenkins XSD gives <skipped> no attribute (GitLab and Jenkins read the text).
  if (test.status === 'skipped') return `<skipped>${xmlText(test.skipReason ?? '')}</skipped>`;
  if (test.status === 'passed') return '';
  const failures = test.findings.filter((finding) => finding.outcome === 'fail');
  const first = failures[0];
  const message = first ? `[${first.requirement}] ${firstLine(first.message)}` : firstLine(test.error ?? '');
  const fields = failures.map(fieldsLine).filter(Boolean);
  const full = test.error
    ? [test.error, ...fields].join('\n')
    : failures
        .map((f) =>
          [`[${f.requirement}] ${f.message}`, fieldsLine(f), f.evidence ?? ''].filter(Boolean).join('\n'),
        )
        .join('\n');
  return `<failure${attributes({ message, type: test.failedRequirements.join(' ') })}>${xmlText(full)}</failure>`;
}

const SAID: Partial<Record<Finding['outcome'], string>> = {
  warning: 'warning',
  note: 'note',
  'not-verified': 'not verified',
};

/** Warnings, notes and what the test could not verify although it ran (its stop is the skip's message). */
function systemOut(test: TestResultSummary): string {
  const stop = test.status === 'skipped' ? test.findings.filter(isStop).at(-1) : undefined;
  const lines = test.findings.flatMap((finding) => {
    const said = SAID[finding.outcome];
    return said && finding !== stop ? [`${said}: ${finding.requirement}: ${finding.message}`] : [];
  });
  return lines.length > 0 ? `<system-out>${xmlText(lines.join('\n'))}</system-out>` : '';
}

const testcase = (test: TestResultSummary): string =>
  `    <testcase${attributes({ classname: test.file, name: test.title, time: seconds(test.durationMs ?? 0) })}>` +
  `${outcomeElement(test)}${systemOut(test)}</testcase>`;

const counts = (tests: readonly TestResultSummary[]) => ({
  tests: tests.length,
  failures: tests.filter((test) => test.status === 'failed').length,
  skipped: tests.filter((test) => test.status === 'skipped').length,
  errors: 0,
});

function byFile(tests: readonly TestResultSummary[]): Map<string, TestResultSummary[]> {
  const files = new Map<string, TestResultSummary[]>();
  for (const test of tests) files.set(test.file, [...(files.get(test.file) ?? []), test]);
  return files;
}

export function junitXml(report: ConformanceReport): string {
  const suites = [...byFile(report.tests)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([file, tests]) =>
        `  <testsuite${attributes({ name: file, ...counts(tests), time: seconds(tests.reduce((sum, t) => sum + (t.durationMs ?? 0), 0)) })}>\n` +
        `${tests.map(testcase).join('\n')}\n  </testsuite>`,
    );
  // The XSD's root carries no skipped count (each testsuite does).
  const { skipped: _, ...totals } = counts(report.tests);
  const root = attributes({
    name: `Conformance ${report.verdict.toUpperCase()}`,
    ...totals,
    time: seconds(report.durationMs),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${suites.join('\n')}\n</testsuites>\n`;
}
