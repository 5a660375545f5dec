// reports/junit-requirements.xml: the result at the level of the contract, for CI tools that read JUnit
// (GitLab's merge-request widget sorts testcases into new and fixed by classname and name): one testcase per
// requirement, classname its area, name its ID; a <failure> for a fail, an <error> for what an error (the
// run's, the suite's own) left not verified, <skipped> with the reason for the rest not verified or not run,
// and the run error no requirement carries as a testcase of its own. Valid against the Jenkins JUnit XSD.
import type { ConformanceResult, ResultRequirement } from '../../result/schema.ts';
import { xmlAttributes as attributes, xmlText } from '../../text/xml-text.ts';
import { errorLines, failureLines, headline, howToVerify, notVerifiedLines } from './requirement-lines.ts';
import { type RunError, runErrorAlone, runErrorText } from './run-error-lines.ts';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** Why a requirement that passed nothing and failed nothing is skipped. */
function skipReason(requirement: ResultRequirement): string | undefined {
  switch (requirement.status) {
    case 'not-verified':
      return notVerifiedLines(requirement).join('\n');
    case 'omitted':
      return requirement.verifiable ? 'not in this run' : `not observable: ${requirement.reason ?? ''}`;
    case 'note':
      return `the contract leaves it open: ${requirement.notes.map((note) => note.message).join('; ') || 'nothing recorded'}`;
    default:
      return undefined;
  }
}

/** What the requirement rested on, its warnings and its reading: the testcase's output. */
const systemOut = (requirement: ResultRequirement): string[] => [
  `${requirement.level}: ${requirement.text}`,
  ...(requirement.reading ? [`reading: ${requirement.reading}`] : []),
  ...requirement.evidence.map((line) => `evidence (${line.count}): ${line.test}: ${line.message}`),
  ...requirement.warnings.map((line) => `warning: ${line.test}: ${line.message}`),
  ...(requirement.deviation ? [`known deviation: ${requirement.deviation}`] : []),
];

function testcase(
  result: ConformanceResult,
  requirement: ResultRequirement,
  durations: Map<string, number>,
): string {
  const time = requirement.tests.reduce((sum, test) => sum + (durations.get(test.title) ?? 0), 0);
  const open = `    <testcase${attributes({ classname: requirement.area, name: requirement.id, time: seconds(time) })}>`;
  const [error] = errorLines(requirement);
  const skipped = error ? undefined : skipReason(requirement);
  const failures = requirement.status === 'fail' ? failureLines(result, requirement) : [];
  const outcome = error
    ? `<error${attributes({ message: headline(`${error.message} (${howToVerify(error)})`), type: 'run-error' })}>${xmlText(notVerifiedLines(requirement).join('\n'))}</error>`
    : skipped !== undefined
      ? `<skipped>${xmlText(skipped)}</skipped>`
      : requirement.status === 'fail'
        ? `<failure${attributes({ message: `[${requirement.id}] ${headline(failures[0] ?? 'failed')}`, type: requirement.id })}>${xmlText(failures.join('\n'))}</failure>`
        : '';
  return `${open}${outcome}<system-out>${xmlText(systemOut(requirement).join('\n'))}</system-out></testcase>`;
}

/** What a testsuite counts: its testcases, those with a <failure>, an <error>, a <skipped>. */
const counts = (requirements: readonly ResultRequirement[], runErrors = 0) => ({
  tests: requirements.length + runErrors,
  failures: requirements.filter((r) => r.status === 'fail').length,
  errors: requirements.filter((r) => errorLines(r).length > 0).length + runErrors,
  skipped: requirements.filter((r) => errorLines(r).length === 0 && skipReason(r) !== undefined).length,
});

/** An <error> of a run error: its kind, its cause, what to do, where the suite's code failed (junit.xml's too). */
export const runErrorElement = (runError: RunError): string =>
  `<error${attributes({ message: headline(runError.cause), type: runError.kind })}>${xmlText(runErrorText(runError))}</error>`;

/** A run error no check carries (it stopped the run before any), as a testsuite and testcase of its own. */
export const runErrorSuite = (runError: RunError): string =>
  `  <testsuite${attributes({ name: 'the run', tests: 1, failures: 0, errors: 1, skipped: 0 })}>\n` +
  `    <testcase${attributes({ classname: 'the run', name: 'the run error' })}>${runErrorElement(runError)}</testcase>\n` +
  '  </testsuite>';

export function junitRequirementsXml(result: ConformanceResult): string {
  const durations = new Map(result.tests.map((test) => [test.title, test.durationMs ?? 0]));
  const areas = [...new Set(result.requirements.map((r) => r.area))];
  const suites = areas.map((area) => {
    const requirements = result.requirements.filter((r) => r.area === area);
    return (
      `  <testsuite${attributes({ name: area, ...counts(requirements) })}>\n` +
      `${requirements.map((r) => testcase(result, r, durations)).join('\n')}\n  </testsuite>`
    );
  });
  const alone = runErrorAlone(result);
  const run = alone ? [runErrorSuite(alone)] : [];
  // The XSD's root carries no skipped count.
  const { skipped: _, ...totals } = counts(result.requirements, run.length);
  const root = attributes({
    name: `Conformance ${result.verdict.toUpperCase()} (requirements)`,
    ...totals,
    time: seconds(result.durationMs),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${[...run, ...suites].join('\n')}\n</testsuites>\n`;
}
