// The one adapter between conformance.json and the page: builds the page's view (view-model.ts) from a report
// and the requirement history, and the history's line of a run. Nothing else of the page reads the report.

import { escapeRegExp } from '../../text/escape-reg-exp.ts';
import { evidenceWeight } from '../baseline.ts';
import type { ConformanceReport, RequirementResult, TestResultSummary } from '../model.ts';
import { areaOf, overBudget, p95Change } from '../overview.ts';
import type { History, HistoryEntry } from '../requirement-history.ts';
import { runSideLines } from '../run-side.ts';
import { shellCurl, singleQuoted } from './shell-curl.ts';
import { trendOf } from './trend.ts';
import type {
  ChangesView,
  FailureView,
  NotVerifiedView,
  PageView,
  RequestView,
  RequirementView,
  Status,
  TrendRun,
  VerdictView,
} from './view-model.ts';

/** How many runs the trend shows, this one included. */
export const TREND_RUNS = 10;

const STATUSES: readonly Status[] = ['pass', 'fail', 'warning', 'not-verified', 'note', 'omitted'];

const countsOf = (requirements: readonly { status: Status }[]): Record<Status, number> =>
  Object.fromEntries(
    STATUSES.map((status) => [status, requirements.filter((r) => r.status === status).length]),
  ) as Record<Status, number>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why the run is not a PASS, in one sentence. */
function causeOf(report: ConformanceReport): string | undefined {
  const failedMust = report.requirements.filter((r) => r.status === 'fail' && r.deviation === undefined);
  const notVerified = report.incomplete.length;
  switch (report.verdict) {
    case 'fail': {
      const levels = [...new Set(failedMust.map((r) => r.level))];
      const what =
        failedMust.length > 0
          ? `${plural(failedMust.length, `${levels.length === 1 ? `${levels[0]} ` : ''}requirement`)} failed`
          : report.gateFailures[0];
      const cut = report.runError ? `; the run was cut short: ${report.runError.cause}` : '';
      return `${what}${cut}${notVerified > 0 ? `; ${plural(notVerified, 'MUST requirement')} not verified` : ''}`;
    }
    case 'error':
      return report.runError
        ? `the run could not judge the target (${report.runError.kind}): ${report.runError.cause}; ${report.runError.remedy}`
        : 'the run could not judge the target';
    case 'incomplete':
      if (report.selection.length > 0) return `the run was narrowed: ${report.selection.join('; ')}`;
      if (report.stoppedSending) return `the run stopped sending: ${report.stoppedSending}`;
      return `${plural(notVerified, 'MUST requirement')} of the profile not verified`;
    default:
      return undefined;
  }
}

function verdictOf(report: ConformanceReport): VerdictView {
  return {
    verdict: report.verdict,
    cause: causeOf(report),
    besideFailures: report.verdictBesideFailures,
    details: [
      ...runSideLines(report),
      ...(report.stoppedSending ? [`The run stopped sending: ${report.stoppedSending}`] : []),
      ...report.deviations.map((d) => `Known deviation: ${d.test}: ${d.reason}`),
    ],
    strict: report.strict,
    counts: report.requirementTotals,
    tests: report.totals,
  };
}

/** The run's line of the requirement history. */
export function historyEntryOf(
  report: ConformanceReport,
  contract: string,
  suiteVersion: string,
): HistoryEntry {
  return {
    startedAt: report.startedAt,
    target: report.target,
    profile: report.profile,
    environment: report.environment,
    verdict: report.verdict,
    contract,
    suiteVersion,
    statuses: Object.fromEntries(report.requirements.map((r) => [r.id, r.status])),
  };
}

/** The history of runs like this one (target, profile, environment), up to it, this run last. */
function comparableRuns(report: ConformanceReport, history: readonly HistoryEntry[]): HistoryEntry[] {
  const same = history.filter(
    (entry) =>
      entry.target === report.target &&
      entry.profile === report.profile &&
      entry.environment === report.environment &&
      entry.startedAt < report.startedAt,
  );
  const self = history.find((entry) => entry.startedAt === report.startedAt);
  return [...same, self ?? historyEntryOf(report, '', '')];
}

function changesOf(report: ConformanceReport, runs: readonly HistoryEntry[]): ChangesView | undefined {
  const since = report.sinceLastRun;
  const known = (id: string) => ({
    id,
    reason: report.requirements.find((r) => r.id === id)?.deviation,
  });
  if (since)
    return {
      against: since.baseline,
      againstKind: 'baseline',
      newFailures: since.newFailures,
      fixed: since.fixed,
      stillFailing: since.stillFailing.map(known),
      newlyNotVerified: since.newlyNotVerified,
      newlyVerified: [],
    };
  const [previous, current] = runs.slice(-2);
  if (!previous || !current) return undefined;
  const ids = (test: (now: Status, then: Status | undefined) => boolean) =>
    report.requirements.flatMap((r) => (test(r.status, previous.statuses[r.id]) ? [r.id] : []));
  return {
    against: `the run of ${previous.startedAt}`,
    againstKind: 'last run',
    newFailures: ids((now, then) => now === 'fail' && then !== 'fail'),
    fixed: ids((now, then) => then === 'fail' && now !== 'fail' && now !== 'omitted'),
    stillFailing: ids((now, then) => now === 'fail' && then === 'fail').map(known),
    newlyNotVerified: ids((now, then) => now === 'not-verified' && then !== 'not-verified'),
    newlyVerified: ids((now, then) => then === 'not-verified' && (now === 'pass' || now === 'warning')),
    contractChanged:
      previous.contract && current.contract && previous.contract !== current.contract
        ? `the contract or the catalogue changed since the run of ${previous.startedAt} (suite ${previous.suiteVersion} then, ${current.suiteVersion} now): a change may be the suite's, not the target's`
        : undefined,
  };
}

function requirementOf(result: RequirementResult, runs: readonly HistoryEntry[]): RequirementView {
  const statuses = runs.map((run) => run.statuses[result.id]);
  return {
    id: result.id,
    area: areaOf(result),
    section: result.section,
    level: result.level,
    text: result.text,
    reading: result.reading,
    status: result.status,
    evidenceCount:
      result.status === 'pass' || result.status === 'warning' ? evidenceWeight(result.evidence) : 0,
    evidence: result.evidence,
    warnings: result.warnings,
    notes: result.notes,
    unobservable: result.verifiable ? undefined : result.reason,
    deviation: result.deviation,
    tests: result.tests.map((test) => ({ title: test.title, outcome: test.outcome })),
    trend: { statuses, kind: trendOf(statuses) },
  };
}

const anchorOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Today's report carries the request as its line and curl in the finding's evidence. */
function requestOf(evidence: string | undefined): { request?: RequestView; status?: number; rest?: string } {
  if (!evidence) return {};
  const [line = '', ...more] = evidence.split('\n');
  const sent = /^(\w+) (\S+) → (\d{3})$/.exec(line);
  const curlLine = more.find((l) => l.trimStart().startsWith('reproduce: curl '));
  const rest = more
    .filter((l) => l !== curlLine)
    .join('\n')
    .trim();
  if (!sent) return { rest: evidence };
  const headers = [...(curlLine ?? '').matchAll(/-H '([^:']+): ([^']*)'/g)].map(
    ([, name = '', value = '']) => [name, value] as [string, string],
  );
  return {
    request: { method: sent[1] ?? '', url: sent[2] ?? '', headers },
    status: Number(sent[3]),
    rest: rest || undefined,
  };
}

/** Where a request went, without the origin (each sandbox instance of a run has its own port). */
const pathOf = (url: string): string => url.replace(/^[a-z]+:\/\/[^/]+/i, '');

function failuresOf(report: ConformanceReport): FailureView[] {
  const groups = new Map<string, FailureView>();
  for (const test of report.tests.filter((t: TestResultSummary) => t.status === 'failed')) {
    for (const finding of test.findings.filter((f) => f.outcome === 'fail')) {
      const { request, status, rest } = requestOf(finding.evidence);
      const key = [
        finding.requirement,
        finding.message,
        request?.method,
        pathOf(request?.url ?? ''),
        rest,
      ].join('\n');
      const known = groups.get(key);
      if (known) {
        known.tests.push({ title: test.title, file: test.file });
        continue;
      }
      const seed = report.propertySeed;
      groups.set(key, {
        anchor: `failure-${groups.size + 1}`,
        requirement: finding.requirement,
        message: finding.message,
        tests: [{ title: test.title, file: test.file }],
        request,
        response: status === undefined ? undefined : { status, headers: [] },
        curl: request ? shellCurl(request) : undefined,
        replay:
          test.tags.includes('@property') && seed !== undefined
            ? {
                seed,
                command: `CONFORMANCE_SEED=${seed} npx physiology-conformance run -- --grep ${singleQuoted(escapeRegExp(test.title))}`,
              }
            : undefined,
        detail: rest,
      });
    }
  }
  return [...groups.values()];
}

function notVerifiedOf(report: ConformanceReport, areaOfId: (id: string) => string): NotVerifiedView[] {
  return report.requirements
    .filter((r) => r.status === 'not-verified')
    .map((r) => ({
      id: r.id,
      level: r.level,
      area: areaOfId(r.id),
      reasons: r.notVerified.map((line) => ({
        kind: /: blocked by [A-Z]/.test(line)
          ? 'blocked'
          : /run error|on the run's side/.test(line)
            ? 'run-side'
            : /CONFORMANCE_[A-Z_]+|lacks/.test(line)
              ? 'configuration'
              : 'data',
        howToVerify: line,
      })),
    }));
}

/** The page's view of `report`, with the trend from the requirement history. */
export function pageView(report: ConformanceReport, history: History): PageView {
  const runs = comparableRuns(report, history.entries).slice(-TREND_RUNS);
  const requirements = report.requirements.map((r) => requirementOf(r, runs));
  const areaNames = [...new Set(requirements.map((r) => r.area))];
  const trendRuns: TrendRun[] = runs.map((run) => ({ startedAt: run.startedAt, verdict: run.verdict }));
  return {
    verdict: verdictOf(report),
    header: {
      target: report.target,
      baseUrl: report.baseUrl,
      environment: report.environment,
      profile: report.profile,
      selection: report.selection,
      suiteVersion: report.digest?.suiteVersion,
      seed: report.propertySeed,
      digest: report.digest?.combined,
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      requestsSent: report.requestsSent,
    },
    redaction:
      'Every token, secret, password and authorization header is replaced by <redacted> in the requests, responses, curl lines and messages shown.',
    changes: changesOf(report, runs),
    areas: areaNames.map((name) => {
      const inArea = requirements.filter((r) => r.area === name);
      return { name, anchor: `area-${anchorOf(name)}`, counts: countsOf(inArea), requirements: inArea };
    }),
    notVerified: notVerifiedOf(report, (id) => requirements.find((r) => r.id === id)?.area ?? ''),
    failures: failuresOf(report),
    latency: (report.latency ?? []).map((row) => ({
      operationId: row.operationId,
      count: row.count,
      p50: row.p50,
      p95: row.p95,
      max: row.max,
      budgetMs: row.budgetMs,
      overBudget: overBudget(row),
      sinceBaseline: p95Change(row) || undefined,
    })),
    trendRuns,
    historyNote:
      history.unreadable > 0
        ? `${history.unreadable} line(s) of the requirement history are not a run's entry and were left out`
        : undefined,
  };
}
