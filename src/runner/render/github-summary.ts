// The GitHub job summary (appended to GITHUB_STEP_SUMMARY): the verdict and why, the causes of the failures
// (one line each, with a curl), where the page is, the new failures, then the other failures, what was not
// verified, and the requirements per area; all within a byte budget well under GitHub's 1 MiB per step
// (GitHub drops a summary over its limit, it does not shorten it), with a last line saying what was left out.
import type { ConformanceResult, ResultRequirement } from '../../result/schema.ts';
import { type Cause, causeLine, causesOf } from './causes.ts';
import { curlOf, failureLines, firstFindingOf, notVerifiedLines } from './requirement-lines.ts';
import { besideFailuresText, passText, verdictCause } from './verdict-cause.ts';

/** What the summary says beyond the result: what the page compared with, and where this run's files are. */
export interface SummaryContext {
  /** The failures new since the baseline or the last run of the history (the page's "New failures"). */
  newFailures?: { ids: string[]; against: string };
  /** The run's page on GitHub, where its artifacts (the report page among them) are listed. */
  runUrl?: string;
}

/** The bytes the summary may take: half of GitHub's limit, leaving room for the job's other steps. */
export const SUMMARY_BUDGET = 512 * 1024;

const ICON: Record<ConformanceResult['verdict'], string> = {
  pass: '✅',
  fail: '❌',
  incomplete: '⏸',
  error: '⚠️',
};

/** Markdown table cell text. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
/** Text cut to `max` characters. */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A section: its heading, and one block per item (a block is kept or left out whole). */
interface Section {
  heading: string;
  blocks: string[];
  /** What a left-out block is called in the last line ("failure", "requirement"...). */
  unit: string;
}

/** Causes listed before the failures; the others are counted (the page and conformance.md list all). */
const SHOWN_CAUSES = 10;

/** Lines of a failure shown: the first few of its message. */
const SHOWN_LINES = 4;

const curlBlock = (curl: string | undefined): string[] =>
  curl ? ['  ```sh', `  ${cut(curl, 1000)}`, '  ```'] : [];

/** A failed requirement: its first failure's check and message, and the curl of its exchange. */
function failureBlock(result: ConformanceResult, requirement: ResultRequirement): string {
  const failing = result.tests.flatMap((test) =>
    test.findings
      .filter((finding) => finding.outcome === 'fail' && finding.requirement === requirement.id)
      .map((finding) => ({ test, finding })),
  );
  const [first] = failing;
  if (!first)
    return `- **${requirement.id}** (${requirement.area}): ${cut(failureLines(result, requirement)[0] ?? 'failed', 300)}`;
  const { test, finding } = first;
  const lines = finding.message.split('\n');
  const shown = lines.slice(0, SHOWN_LINES).map((line) => cut(line, 300));
  if (lines.length > SHOWN_LINES) shown.push(`… ${lines.length - SHOWN_LINES} more line(s)`);
  const more = failing.length > 1 ? ` (and ${failing.length - 1} more failure(s))` : '';
  return [
    `- **${requirement.id}** (${requirement.area}), ${cut(test.title, 200)}${more}:`,
    '  ```text',
    ...shown.map((line) => `  ${line}`),
    '  ```',
    ...curlBlock(curlOf(result, finding)),
  ].join('\n');
}

/** A cause: its line, and the curl of its first failure. */
function causeBlock(result: ConformanceResult, cause: Cause): string {
  const finding = firstFindingOf(result, cause);
  const known = cause.known ? ' (known failure: does not fail the run)' : '';
  return [
    `- ${cut(cell(causeLine(cause)), 600)}${known}`,
    ...curlBlock(finding && curlOf(result, finding)),
  ].join('\n');
}

/** A row per area: its requirements by status; an area the run judged nothing of (a narrowed run) left out. */
const areaRows = (result: ConformanceResult): string[] =>
  [...new Set(result.requirements.map((r) => r.area))].flatMap((area) => {
    const of = result.requirements.filter((r) => r.area === area);
    const n = (status: ResultRequirement['status']) => of.filter((r) => r.status === status).length;
    const counts = [n('pass'), n('fail'), n('warning'), n('not-verified')];
    return counts.some((count) => count > 0) ? [`| ${cell(area)} | ${counts.join(' | ')} |`] : [];
  });

function sections(result: ConformanceResult, context: SummaryContext): Section[] {
  const failed = result.requirements.filter((r) => r.status === 'fail');
  const since =
    context.newFailures ??
    (result.sinceLastRun && { ids: result.sinceLastRun.newFailures, against: 'the baseline' });
  const fresh = new Set(since?.ids ?? []);
  const causes = causesOf(result);
  return [
    {
      heading: `### ${causes.length} cause${causes.length === 1 ? '' : 's'} (one line each: the field or status, the operations, the requirements it fails)`,
      blocks: [
        ...causes.slice(0, SHOWN_CAUSES).map((cause) => causeBlock(result, cause)),
        ...(causes.length > SHOWN_CAUSES
          ? [
              `- … and ${causes.length - SHOWN_CAUSES} more: conformance.md and the report page list every one`,
            ]
          : []),
      ],
      unit: 'cause',
    },
    {
      heading: `### New failures since ${cell(since?.against ?? 'the baseline')}`,
      blocks: failed.filter((r) => fresh.has(r.id)).map((r) => failureBlock(result, r)),
      unit: 'new failure',
    },
    {
      heading: fresh.size > 0 ? '### Failures known before' : '### Failures',
      blocks: failed.filter((r) => !fresh.has(r.id)).map((r) => failureBlock(result, r)),
      unit: 'failure',
    },
    {
      heading: '### Not verified',
      blocks: result.requirements
        .filter((r) => r.status === 'not-verified')
        .map((r) => `- **${r.id}**: ${cut(cell(notVerifiedLines(r).join('; ')), 400)}`),
      unit: 'not verified requirement',
    },
    {
      heading:
        '### Requirements by area\n\n| Area | ✅ pass | ❌ fail | ⚠️ warning | ⏸ not verified |\n|---|---|---|---|---|',
      blocks: areaRows(result),
      unit: 'area',
    },
  ].filter((section) => section.blocks.length > 0);
}

const bytes = (text: string): number => Buffer.byteLength(text);

/** The summary's first lines: the verdict and why (or what a PASS rests on), and where the page is. */
function headLines(result: ConformanceResult, context: SummaryContext): string[] {
  const r = result.requirementTotals;
  const cause = verdictCause(result) ?? passText(result);
  const beside = besideFailuresText(result);
  const page = context.runUrl
    ? `The report page (\`reports/index.html\`: a card per failure, its response and curl) is in [this run's artifacts](${context.runUrl}#artifacts).`
    : 'The report page, `reports/index.html`, has a card per failure, its response and curl.';
  return [
    `## ${ICON[result.verdict]} Conformance ${result.verdict.toUpperCase()}: ${cut(cell(cause), 500)}`,
    ...(beside ? ['', `${beside[0]?.toUpperCase()}${cell(beside.slice(1))}.`] : []),
    '',
    `Requirements: ${r.pass} pass, ${r.fail} fail, ${r.warning} warning, ${r['not-verified']} not verified, ${r.note} note, ${r.omitted} not in this run. ` +
      `Target ${cell(result.target)} (${result.environment}), profile ${result.profile}, suite ${result.suite.version}.`,
    '',
    page,
  ];
}

/** The summary's Markdown, at most `budget` bytes. */
export function githubSummary(
  result: ConformanceResult,
  context: SummaryContext = {},
  budget = SUMMARY_BUDGET,
): string {
  const head = headLines(result, context).join('\n');
  // Room for the last line, whatever it says.
  const reserve = 300;
  let text = head;
  const leftOut: string[] = [];
  for (const section of sections(result, context)) {
    let kept = 0;
    for (const block of section.blocks) {
      const addition = `${kept === 0 ? `\n\n${section.heading}` : ''}\n${block}`;
      if (bytes(text) + bytes(addition) + reserve > budget) break;
      text += addition;
      kept += 1;
    }
    const left = section.blocks.length - kept;
    if (left > 0) leftOut.push(`${left} ${section.unit}${left === 1 ? '' : 's'}`);
  }
  const last =
    leftOut.length > 0
      ? `_Left out to stay within ${Math.round(budget / 1024)} KiB: ${leftOut.join(', ')}. Every one is in conformance.md and the report page._`
      : '_Everything is above; conformance.md and the report page have the evidence._';
  return `${text}\n\n${last}\n`;
}
