// reports/junit.xml, from the report's test summaries: the root names the run verdict (what a CI's JUnit view
// shows first), one testsuite per spec file, a failure names its requirement, an error (the run's or the
// suite's own, which stopped a check) is <error>, what the run did not verify (not verified, blocked, omitted)
// is <skipped>; a run error no test carries is a testcase of its own. Valid against the Jenkins JUnit XSD
// (tests/self/suite-junit.spec.ts), as junit-requirements.xml is.

import { type Finding, isStop } from '../../protocol/finding.ts';
import type { RunError } from '../../run-state/run-error.ts';
import { xmlAttributes as attributes, xmlText } from '../../text/xml-text.ts';
import { runErrorElement, runErrorSuite } from '../render/junit-requirements.ts';
import { fieldsLine } from '../render/requirement-lines.ts';
import type { ConformanceReport, TestResultSummary } from './model.ts';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const firstLine = (text: string): string => text.split('\n')[0] ?? '';

/** The run errors a test met (what stopped it, or the suite's own error beside its failure), each once. */
const errorsOf = (test: TestResultSummary): RunError[] => [
  ...new Map(
    test.findings
      .flatMap((finding) => (finding.outcome === 'error' && finding.runError ? [finding.runError] : []))
      .map((runError) => [runError.cause, runError]),
  ).values(),
];

function failureElement(test: TestResultSummary): string {
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

function outcomeElement(test: TestResultSummary): string {
  const errors = errorsOf(test).map(runErrorElement).join('');
  // The reason as content: the Jenkins XSD gives <skipped> no attribute (GitLab and Jenkins read the text).
  if (test.outcome === 'error') return errors;
  if (test.status === 'skipped') return `<skipped>${xmlText(test.skipReason ?? '')}</skipped>`;
  return test.status === 'failed' ? `${errors}${failureElement(test)}` : '';
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

/** What a testsuite counts: its testcases, those with a <failure>, an <error>, a <skipped>. */
const counts = (tests: readonly TestResultSummary[], runErrors = 0) => ({
  tests: tests.length + runErrors,
  failures: tests.filter((test) => test.status === 'failed').length,
  errors: tests.filter((test) => errorsOf(test).length > 0).length + runErrors,
  skipped: tests.filter((test) => test.status === 'skipped' && test.outcome !== 'error').length,
});

function byFile(tests: readonly TestResultSummary[]): Map<string, TestResultSummary[]> {
  const files = new Map<string, TestResultSummary[]>();
  for (const test of tests) files.set(test.file, [...(files.get(test.file) ?? []), test]);
  return files;
}

/** The run's error where no test carries it (global setup's, met before any test). */
const runErrorAlone = ({ runError, tests }: ConformanceReport): RunError | undefined =>
  runError && !tests.some((test) => errorsOf(test).some((error) => error.cause === runError.cause))
    ? runError
    : undefined;

export function junitXml(report: ConformanceReport): string {
  const suites = [...byFile(report.tests)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([file, tests]) =>
        `  <testsuite${attributes({ name: file, ...counts(tests), time: seconds(tests.reduce((sum, t) => sum + (t.durationMs ?? 0), 0)) })}>\n` +
        `${tests.map(testcase).join('\n')}\n  </testsuite>`,
    );
  const alone = runErrorAlone(report);
  const run = alone ? [runErrorSuite(alone)] : [];
  // The XSD's root carries no skipped count (each testsuite does).
  const { skipped: _, ...totals } = counts(report.tests, run.length);
  const root = attributes({
    name: `Conformance ${report.verdict.toUpperCase()}`,
    ...totals,
    time: seconds(report.durationMs),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${[...run, ...suites].join('\n')}\n</testsuites>\n`;
}
