// The Markdown form of the conformance report: what a partner attaches to a certification. It opens with a
// summary: requirement counts per area, then the latency table, then the input classes covered.

import { areaOf } from '../../contract/requirements.ts';
import { TIMEOUT_RULE } from '../../http/request-timeout.ts';
import { runErrorLine } from '../../run-state/run-error.ts';
import { causeLine, causesOf } from '../render/causes.ts';
import {
  curlOf,
  fieldsLine,
  firstFindingOf,
  notVerifiedLines,
  ownershipLine,
} from '../render/requirement-lines.ts';
import { besideFailuresText, passText, verdictCause } from '../render/verdict-cause.ts';
import { inputsLines } from './input-coverage.ts';
import type { LatencyRow } from './latency/latency.ts';
import type { SlowRequestRow } from './latency/slow-requests.ts';
import type {
  ConformanceReport,
  RecordingSection,
  RequirementResult,
  SinceLastRun,
  TestResultSummary,
} from './model.ts';
import { areaCounts, overBudget, p95Change } from './overview.ts';
import { runSideLines } from './run-side.ts';

const STATUS_LABEL: Record<RequirementResult['status'], string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warning: '⚠️ warning',
  'not-verified': '⏸ not verified',
  note: 'ℹ note',
  omitted: '· not in this run',
};

const messages = (lines: readonly { message: string }[]): string[] => lines.map((line) => line.message);

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function detail(requirement: RequirementResult): string {
  if (requirement.deviation) return `known deviation: ${requirement.deviation}`;
  switch (requirement.status) {
    case 'fail':
      // A failure no test owns (a latency budget in strict mode) is stated by its warnings.
      if (!requirement.tests.some((test) => test.outcome === 'fail'))
        return messages(requirement.warnings).join('<br>');
      return requirement.tests
        .filter((test) => test.outcome === 'fail')
        .map((test) => `**${test.title}**`)
        .join('<br>');
    case 'warning':
      return [...messages(requirement.warnings), `reading: ${requirement.reading ?? requirement.text}`].join(
        '<br>',
      );
    case 'not-verified':
      return notVerifiedLines(requirement).join('<br>');
    case 'note':
      return messages(requirement.notes).join('<br>') || 'the contract leaves this open';
    case 'omitted':
      return requirement.verifiable ? '' : `not observable: ${requirement.reason}`;
    default:
      return requirement.evidence.map((line) => `${line.test}: ${line.message}`).join('<br>');
  }
}

/** The latency table the summary ends with (with the budget and the p95 change against the baseline when set). */
function latencyLines(rows: readonly LatencyRow[]): string[] {
  if (rows.length === 0) return ['', 'No timed answer of a contract operation was recorded.'];
  const budgeted = rows.some((row) => row.budgetMs !== undefined);
  const compared = rows.some((row) => row.baseline !== undefined);
  const head = ['Operation', 'Count', 'p50 ms', 'p95 ms', 'max ms'];
  if (budgeted) head.push('Budget (p95) ms');
  if (compared) head.push('p95 since baseline');
  const body = rows.map((row) => {
    const cells = [row.operationId, row.count, row.p50, row.p95, row.max].map(String);
    if (budgeted)
      cells.push(row.budgetMs === undefined ? '' : `${row.budgetMs}${overBudget(row) ? ' ⚠️ over' : ''}`);
    if (compared) cells.push(p95Change(row));
    return `| ${cells.join(' | ')} |`;
  });
  return ['', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body];
}

/** The slow requests listed in the latency section, at most this many (conformance.json has them all). */
const SLOW_ROWS = 50;

/** The requests that were slow or lost their connection, below the latency table. */
function slowRequestLines(rows: readonly SlowRequestRow[], sentTwice: number): string[] {
  if (rows.length === 0) return [];
  const line = (row: SlowRequestRow) =>
    `| ${[row.operationId ?? '', row.request, row.first, row.second ?? 'not sent again', row.used].map(cell).join(' | ')} |`;
  return [
    '',
    `#### Slow requests: ${rows.length} slower than ${TIMEOUT_RULE.slowMs} ms or left without an answer, ${sentTwice} of them sent a second time`,
    '',
    'An answer that came is judged on its content, however late; a request is unanswered only past the bound.',
    '',
    '| Operation | Request | First sending | Second sending | Went on with |',
    '|---|---|---|---|---|',
    ...rows.slice(0, SLOW_ROWS).map(line),
    ...(rows.length > SLOW_ROWS ? ['', `… and ${rows.length - SLOW_ROWS} more in conformance.json.`] : []),
  ];
}

function summaryLines(report: ConformanceReport): string[] {
  const areas = areaCounts(report.requirements).filter(
    (a) => a.pass + a.fail + a.warning + a.notVerified > 0,
  );
  return [
    '',
    '## Summary',
    '',
    '| Area | ✅ pass | ❌ fail | ⚠️ warning | ⏸ not verified |',
    '|---|---|---|---|---|',
    ...areas.map((a) => `| ${a.area} | ${a.pass} | ${a.fail} | ${a.warning} | ${a.notVerified} |`),
    '',
    '### Latency of the target (ms, per operation, from the answers this run recorded)',
    ...latencyLines(report.latency ?? []),
    ...slowRequestLines(report.slowRequests ?? [], report.sentTwice ?? 0),
    ...inputsLines(report.inputs),
  ];
}

/** CONFORMANCE_BASELINE: what changed since the previous run. */
function sinceLastRunLines(since: SinceLastRun): string[] {
  const list = (ids: readonly string[]) => (ids.length > 0 ? ids.join(', ') : 'none');
  return [
    '',
    '## Since last run',
    '',
    `Compared with ${cell(since.baseline)}${since.failOn === 'new' ? ' (CONFORMANCE_FAIL_ON=new: only new failures fail the run)' : ''}.`,
    '',
    `- **New failures:** ${list(since.newFailures)}`,
    `- **Fixed:** ${list(since.fixed)}`,
    `- **Still failing:** ${list(since.stillFailing)}`,
    ...(since.contractChanged || since.catalogueChanged
      ? [
          `- **The ${since.contractChanged ? 'contract' : 'catalogue'}${since.contractChanged && since.catalogueChanged ? ' and the catalogue' : ''} changed since the baseline:** a change may be the suite's, not the target's`,
        ]
      : []),
    `- **Newly not verified:** ${list(since.newlyNotVerified)}`,
    `- **Newly verified:** ${list(since.newlyVerified)}`,
    `- **Evidence shrank:** ${since.evidenceShrank.length > 0 ? since.evidenceShrank.map((e) => `${e.id} (${e.before} → ${e.after})`).join(', ') : 'none'}`,
  ];
}

/** `npm run check-recording`: the recorded traffic the verdict rests on, and what matched no operation. */
function recordingLines(recording: RecordingSection): string[] {
  return [
    '',
    '## Recorded traffic',
    '',
    `${recording.exchanges} exchange(s) checked, none sent: ${recording.matched} of a known operation, ${recording.unknown} of no operation of the contract (notes, never failures); ${recording.exchangesPerSecond} exchanges/s.`,
    '',
    ...recording.sources.map((s) => `- ${cell(s.file)} (${s.format}): ${s.exchanges} exchange(s)`),
    ...recording.unknownRoutes.map((route) => `- note: ${cell(route)}`),
  ];
}

/** The report's heading and its first facts: the verdict, what cut the run short, the target and the run. */
function headingLines(report: ConformanceReport): string[] {
  const r = report.requirementTotals;
  return [
    '# Conformance report — Physiology Data and Partner Lab Service',
    '',
    ...(report.runError && report.verdict === 'error'
      ? [
          `- **Run error (${report.runError.kind}):** ${cell(runErrorLine(report.runError))}. The target was not judged: what the error stopped is not verified, never failed.`,
        ]
      : []),
    ...(report.stoppedSending ? [`- **Run stopped sending:** ${report.stoppedSending}`] : []),
    ...(report.selection.length > 0
      ? [`- **Narrowed to part of the profile:** ${cell(report.selection.join('; '))}`]
      : []),
    `- **Verdict:** ${report.verdict.toUpperCase()}${report.strict ? ' (strict mode: warnings fail)' : ''}: ${cell(verdictCause(report) ?? passText(report))}`,
    // A FAIL stands whatever else went wrong: what cut the run short comes after it.
    ...runSideLines(report)
      .slice(report.verdict === 'error' ? 1 : 0)
      .map((line) => `- **${cell(line)}**`),
    ...besideLines(report),
    `- **Target:** ${report.target} (${report.baseUrl}), ${report.environment}`,
    `- **Profile:** ${report.profile}${report.propertySeed === undefined ? '' : `; **fast-check seed:** ${report.propertySeed} (CONFORMANCE_SEED)`}`,
    `- **Started:** ${report.startedAt}; **duration:** ${(report.durationMs / 1000).toFixed(1)} s; **requests sent:** ${report.requestsSent}${report.requests ? ` (user-data operations ${report.requests.byCredential.user}, partner ${report.requests.byCredential.partner}, sign-in and administration ${report.requests.byCredential.other}; ${report.requests.rateLimitedAnswers} answered 429 and sent again)` : ''}`,
    `- **Tests:** ${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped`,
    `- **Requirements:** ${r.pass} pass, ${r.fail} fail, ${r.warning} warning, ${r['not-verified']} not verified, ${r.note} note, ${r.omitted} not in this run`,
    ...(report.digest
      ? [
          `- **Digest (SHA-256):** \`${report.digest.combined}\` (spec ${report.digest.spec.slice(0, 12)}…, suite ${report.digest.suiteVersion}, results ${report.digest.results.slice(0, 12)}…)${report.digest.statement ? `: ${report.digest.statement}` : ''}`,
        ]
      : []),
    ...(report.signature
      ? [`- **Signature (Ed25519):** key \`${report.signature.key}\`: ${report.signature.statement}`]
      : []),
    ...report.gateFailures.map((failure) => `- gate: ${cell(failure)}`),
  ];
}

/** A FAIL's state beside its failures: "no other problem: without these failures the run would be PASS". */
function besideLines(report: ConformanceReport): string[] {
  const beside = besideFailuresText(report);
  return beside ? [`- **Beside its failures:** ${cell(beside)}`] : [];
}

/** One line per cause of the failures, with the curl of its first failure. */
function causeLines(report: ConformanceReport): string[] {
  const causes = causesOf(report);
  return section(
    `## ${causes.length} cause${causes.length === 1 ? '' : 's'} of the failures`,
    causes.flatMap((cause) => {
      const finding = firstFindingOf(report, cause);
      const curl = finding && curlOf(report, finding);
      return [
        `- ${cell(causeLine(cause))}${cause.known ? ' (known failure: does not fail the run)' : ''}`,
        ...(curl ? ['  ```sh', `  ${curl}`, '  ```'] : []),
      ];
    }),
  );
}

/** The known failures the run forgave, and those past their expiry that count again. */
function deviationLines(report: ConformanceReport): string[] {
  return [
    ...report.deviations.map((deviation) => {
      const ownership = ownershipLine(deviation);
      return `- known deviation: ${cell(deviation.test)} — ${cell(deviation.reason)}${ownership ? ` (${cell(ownership)})` : ''}`;
    }),
    ...(report.expiredDeviations ?? []).map(
      (expired) =>
        `- known failure past its expiry, its failures count again: ${cell(expired.key)} — ${cell(expired.reason)} (${cell(ownershipLine(expired))})`,
    ),
  ];
}

/** A section: a blank line, its heading, a blank line and its lines; nothing where it has no lines. */
const section = (heading: string, lines: readonly string[]): string[] =>
  lines.length === 0 ? [] : ['', heading, '', ...lines];

/** An item and its list nested under it; nothing where the list is empty. */
const itemWithList = (item: string, list: readonly string[]): string[] =>
  list.length === 0 ? [] : [`- ${item}`, ...list.map((line) => `  - ${cell(line)}`)];

/** The MUST requirements left not verified: why the run is INCOMPLETE (or what the run error blocked). */
function incompleteLines(report: ConformanceReport): string[] {
  return section(
    report.runError
      ? '## Not verified (blocked by the run error)'
      : '## Not verified (why the run is INCOMPLETE)',
    report.incomplete.map(({ id, reasons }) => {
      const requirement = report.requirements.find((r) => r.id === id);
      const lines = requirement?.status === 'not-verified' ? notVerifiedLines(requirement) : reasons;
      return `- **${id}**: ${cell(lines.join('; '))}`;
    }),
  );
}

/** The requirements that warned, each with the suite's reading and its warnings. */
function warningLines(results: readonly RequirementResult[]): string[] {
  return section(
    "## Warnings: departures from the suite's reading of loosely stated points",
    results.flatMap((requirement) =>
      itemWithList(
        `**${requirement.id}** (reading: ${cell(requirement.reading ?? requirement.text)})`,
        requirement.warnings.map((warning) => warning.message),
      ),
    ),
  );
}

/** A table per area: each requirement with its level, status and detail. */
function requirementTableLines(results: readonly RequirementResult[]): string[] {
  const areas = [...new Set(results.map(areaOf))];
  return areas.flatMap((area) => [
    '',
    `## ${area}`,
    '',
    '| Requirement | Level | Status | Detail |',
    '|---|---|---|---|',
    ...results
      .filter((result) => areaOf(result) === area)
      .map(
        (requirement) =>
          `| **${requirement.id}** ${cell(requirement.text)} | ${requirement.level} | ${STATUS_LABEL[requirement.status]} | ${cell(detail(requirement))} |`,
      ),
  ]);
}

/** What Prism's validating proxy found, test by test. */
function secondOpinionLines(tests: readonly TestResultSummary[]): string[] {
  return section(
    '## Second opinion: Prism validating proxy',
    tests.flatMap((test) => itemWithList(test.title, test.prismViolations)),
  );
}

/** Each failed test: the offending fields of its failures, then its error message. */
function failureLines(tests: readonly TestResultSummary[]): string[] {
  return section(
    '## Failures',
    tests
      .filter((test) => test.status === 'failed')
      .flatMap((test) => {
        const fields = test.findings
          .filter((f) => f.outcome === 'fail')
          .map(fieldsLine)
          .filter(Boolean);
        const named = fields.length > 0 ? [...fields.map((line) => `- ${cell(line)}`), ''] : [];
        return [`### ${test.title}`, '', ...named, '```', test.error ?? '(no message)', '```', ''];
      }),
  );
}

export function renderMarkdown(report: ConformanceReport): string {
  const lines = [
    ...headingLines(report),
    ...causeLines(report),
    ...summaryLines(report),
    ...deviationLines(report),
    ...incompleteLines(report),
    ...warningLines(report.requirements),
    ...(report.sinceLastRun ? sinceLastRunLines(report.sinceLastRun) : []),
    ...(report.recording ? recordingLines(report.recording) : []),
    ...requirementTableLines(report.requirements),
    ...secondOpinionLines(report.tests),
    ...failureLines(report.tests),
  ];
  return `${lines.join('\n')}\n`;
}
