// The GitHub job summary (appended to GITHUB_STEP_SUMMARY): the verdict and why, the new failures first,
// then the other failures, what was not verified, and the requirements per area; all within a byte budget
// well under GitHub's 1 MiB per step (GitHub drops a summary over its limit, it does not shorten it), with a
// last line saying what was left out.
import type { ConformanceResult, ResultRequirement } from '../result/schema.ts';
import { failureLines, notVerifiedLine } from './requirement-lines.ts';
import { verdictCause } from './verdict-cause.ts';

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

/** Lines of a failure shown: the first few of its message. */
const SHOWN_LINES = 4;

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
  const curl = result.exchanges.find((exchange) => exchange.id === finding.exchange)?.curl ?? finding.curl;
  const more = failing.length > 1 ? ` (and ${failing.length - 1} more failure(s))` : '';
  return [
    `- **${requirement.id}** (${requirement.area}), ${cut(test.title, 200)}${more}:`,
    '  ```text',
    ...shown.map((line) => `  ${line}`),
    '  ```',
    ...(curl ? ['  ```sh', `  ${cut(curl, 1000)}`, '  ```'] : []),
  ].join('\n');
}

function sections(result: ConformanceResult): Section[] {
  const failed = result.requirements.filter((r) => r.status === 'fail');
  const fresh = new Set(result.sinceLastRun?.newFailures ?? []);
  const areas = [...new Set(result.requirements.map((r) => r.area))].flatMap((area) => {
    const of = result.requirements.filter((r) => r.area === area);
    const n = (status: ResultRequirement['status']) => of.filter((r) => r.status === status).length;
    const counts = [n('pass'), n('fail'), n('warning'), n('not-verified')];
    // An area the run judged nothing of (a narrowed run) is left out.
    return counts.some((count) => count > 0) ? [`| ${cell(area)} | ${counts.join(' | ')} |`] : [];
  });
  return [
    {
      heading: '### New failures since the baseline',
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
        .map((r) => `- **${r.id}**: ${cut(cell(r.notVerified.map(notVerifiedLine).join('; ')), 400)}`),
      unit: 'not verified requirement',
    },
    {
      heading:
        '### Requirements by area\n\n| Area | ✅ pass | ❌ fail | ⚠️ warning | ⏸ not verified |\n|---|---|---|---|---|',
      blocks: areas,
      unit: 'area',
    },
  ].filter((section) => section.blocks.length > 0);
}

const bytes = (text: string): number => Buffer.byteLength(text);

/** The summary's Markdown, at most `budget` bytes. */
export function githubSummary(result: ConformanceResult, budget = SUMMARY_BUDGET): string {
  const r = result.requirementTotals;
  const cause = verdictCause(result);
  const head = [
    `## ${ICON[result.verdict]} Conformance ${result.verdict.toUpperCase()}${cause ? `: ${cut(cell(cause), 500)}` : ''}`,
    '',
    `Requirements: ${r.pass} pass, ${r.fail} fail, ${r.warning} warning, ${r['not-verified']} not verified, ${r.note} note, ${r.omitted} not in this run. ` +
      `Target ${cell(result.target)} (${result.environment}), profile ${result.profile}, suite ${result.suite.version}.`,
  ].join('\n');
  // Room for the last line, whatever it says.
  const reserve = 300;
  let text = head;
  const leftOut: string[] = [];
  for (const section of sections(result)) {
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
