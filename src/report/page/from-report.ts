// The one adapter between conformance.json (the result schema, src/result/schema.ts) and the page: builds the
// page's view (view-model.ts) from a result and the requirement history, and the history's line of a run.
// Nothing else of the page reads the result.

import { REQUIREMENT_STATUSES } from '../../result/outcomes.ts';
import type { ConformanceReport, RequirementResult } from '../model.ts';
import { overBudget, p95Change } from '../overview.ts';
import type { History, HistoryEntry } from '../requirement-history.ts';
import { runSideLines } from '../run-side.ts';
import { shellCurl } from './shell-curl.ts';
import { trendOf } from './trend.ts';
import type {
  BodyView,
  ChangesView,
  FailureView,
  KnownFailure,
  NotVerifiedView,
  PageView,
  RequestView,
  RequirementView,
  Status,
  VerdictView,
} from './view-model.ts';

/** How many runs the trend shows, this one included. */
export const TREND_RUNS = 10;

type Exchange = ConformanceReport['exchanges'][number];
type Deviation = NonNullable<ConformanceReport['expiredDeviations']>[number];
type NotVerifiedLine = RequirementResult['notVerified'][number];

const countsOf = (requirements: readonly { status: Status }[]): Record<Status, number> =>
  Object.fromEntries(
    REQUIREMENT_STATUSES.map((status) => [status, requirements.filter((r) => r.status === status).length]),
  ) as Record<Status, number>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why the run is not a PASS, in one sentence. */
function causeOf(report: ConformanceReport): string | undefined {
  const notVerified = report.incomplete.length;
  const unverified = notVerified > 0 ? `; ${plural(notVerified, 'MUST requirement')} not verified` : '';
  switch (report.verdict) {
    case 'fail': {
      const failed = report.requirements.filter((r) => r.status === 'fail' && r.deviation === undefined);
      const levels = [...new Set(failed.map((r) => r.level))];
      const what =
        failed.length > 0
          ? `${plural(failed.length, `${levels.length === 1 ? `${levels[0]} ` : ''}requirement`)} failed`
          : (report.gateFailures[0] ?? 'the gate failed');
      const cut = report.runError ? `; the run was cut short: ${report.runError.cause}` : '';
      return `${what}${cut}${unverified}`;
    }
    case 'error':
      return report.runError
        ? `the run could not judge the target (${report.runError.kind}): ${report.runError.cause}; ${report.runError.remedy}`
        : 'the run could not judge the target';
    case 'incomplete':
      if (report.selection.length > 0) return `the run was narrowed: ${report.selection.join('; ')}`;
      if (report.stoppedSending) return `the run stopped sending: ${report.stoppedSending}${unverified}`;
      if (report.gateFailures.length > 0) return `${report.gateFailures.join('; ')}${unverified}`;
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
      ...(report.expiredDeviations ?? []).map(
        (d) =>
          `Known failure past its expiry (${d.expires}), counted as a failure again: ${d.key}: ${d.reason}`,
      ),
    ],
    strict: report.strict,
    counts: report.requirementTotals,
    tests: report.totals,
  };
}

/** The run's line of the requirement history. */
export const historyEntryOf = (report: ConformanceReport): HistoryEntry => ({
  startedAt: report.startedAt,
  target: report.target,
  profile: report.profile,
  environment: report.environment,
  verdict: report.verdict,
  contract: report.contract,
  suiteVersion: report.suite.version,
  statuses: Object.fromEntries(report.requirements.map((r) => [r.id, r.status])),
});

/** The history of runs like this one (target, profile, environment) up to it, this run last. */
function comparableRuns(report: ConformanceReport, history: readonly HistoryEntry[]): HistoryEntry[] {
  const earlier = history.filter(
    (entry) =>
      entry.target === report.target &&
      entry.profile === report.profile &&
      entry.environment === report.environment &&
      entry.startedAt < report.startedAt,
  );
  return [...earlier, historyEntryOf(report)];
}

/** What differs between the contracts two runs judged by, said so that a change is not blamed on the target. */
function contractChange(spec: boolean, catalogue: boolean, then: string): string | undefined {
  const changed = [...(spec ? ['the spec or its schemas'] : []), ...(catalogue ? ['the catalogue'] : [])];
  return changed.length > 0
    ? `${changed.join(' and ')} changed since ${then}: a change of status may be the contract's or the suite's, not the target's`
    : undefined;
}

/** A known failure as the page says it: the expectation's key, reason, owner, ticket and expiry. */
const knownFailure = ({ key, reason, owner, ticket, expires }: Deviation): KnownFailure => ({
  id: key,
  reason,
  owner,
  ticket,
  expires,
});

/** The known failures that covered a failure of the run, each once, and those past their expiry. */
const knownOf = (report: ConformanceReport): PageView['known'] => ({
  inForce: [...new Map(report.deviations.map((d) => [d.key, knownFailure(d)])).values()],
  expired: (report.expiredDeviations ?? []).map(knownFailure),
});

function changesOf(report: ConformanceReport, runs: readonly HistoryEntry[]): ChangesView | undefined {
  const known = (id: string): KnownFailure => {
    const deviation = report.deviations.find((d) => d.key === id);
    return deviation
      ? { ...knownFailure(deviation), id }
      : { id, reason: report.requirements.find((r) => r.id === id)?.deviation };
  };
  const since = report.sinceLastRun;
  if (since)
    return {
      against: since.baseline,
      againstKind: 'baseline',
      newFailures: since.newFailures,
      fixed: since.fixed,
      stillFailing: since.stillFailing.map(known),
      newlyNotVerified: since.newlyNotVerified,
      newlyVerified: since.newlyVerified,
      contractChanged: contractChange(
        since.contractChanged === true,
        since.catalogueChanged === true,
        'the baseline',
      ),
    };
  const previous = runs.at(-2);
  if (!previous) return undefined;
  const ids = (test: (now: Status, then: Status | undefined) => boolean) =>
    report.requirements.flatMap((r) => (test(r.status, previous.statuses[r.id]) ? [r.id] : []));
  const then = `the run of ${previous.startedAt} (suite ${previous.suiteVersion})`;
  const knownNow = new Set(report.requirements.flatMap((r) => (r.deviation === undefined ? [] : [r.id])));
  return {
    against: then,
    againstKind: 'last run',
    // A known failure is no new one (as against a baseline): the known failures are listed apart.
    newFailures: ids((now, was) => now === 'fail' && was !== 'fail').filter((id) => !knownNow.has(id)),
    fixed: ids((now, was) => was === 'fail' && now !== 'fail' && now !== 'omitted'),
    stillFailing: ids((now, was) => now === 'fail' && was === 'fail').map(known),
    newlyNotVerified: ids((now, was) => now === 'not-verified' && was !== 'not-verified'),
    newlyVerified: ids((now, was) => was === 'not-verified' && now === 'pass'),
    contractChanged: contractChange(
      previous.contract.spec !== report.contract.spec,
      previous.contract.catalogue !== report.contract.catalogue,
      then,
    ),
  };
}

const messages = (lines: readonly { message: string }[]): string[] => lines.map((line) => line.message);

function requirementOf(result: RequirementResult, runs: readonly HistoryEntry[]): RequirementView {
  const statuses = runs.map((run) => run.statuses[result.id]);
  return {
    id: result.id,
    area: result.area,
    section: result.section,
    level: result.level,
    text: result.text,
    reading: result.reading,
    status: result.status,
    evidenceCount: result.evidenceCount,
    evidence: result.evidence.map((line) => `${line.message} (${line.test})`),
    warnings: messages(result.warnings),
    notes: messages(result.notes),
    unobservable: result.verifiable ? undefined : result.reason,
    deviation: result.deviation,
    tests: result.tests,
    trend: { statuses, kind: trendOf(statuses) },
  };
}

/** What would verify a requirement a test could not, by why it could not. */
function howToVerify(line: NotVerifiedLine): string {
  switch (line.kind) {
    case 'configuration':
      return line.variables?.length ? `set ${line.variables.join(', ')}` : line.message;
    case 'run-error':
      return line.remedy ?? line.message;
    case 'not-run':
      return 'run the whole profile, to its end';
    case 'blocked':
      return `fix ${line.prerequisite ?? 'its prerequisite'} first`;
    default:
      return `a target whose data has what the check needs: ${line.message}`;
  }
}

const notVerifiedOf = (requirements: readonly RequirementResult[]): NotVerifiedView[] =>
  requirements
    .filter((r) => r.status === 'not-verified')
    .map((r) => ({
      id: r.id,
      level: r.level,
      area: r.area,
      reasons: r.notVerified.map((line) => ({
        test: line.test,
        kind: line.kind,
        message: line.message,
        howToVerify: howToVerify(line),
        prerequisite: line.prerequisite,
      })),
    }));

const bodyOf = (body: Exchange['response']['body'] | undefined): BodyView | undefined =>
  body && (body.size > 0 || body.text !== '')
    ? { text: body.text, bytes: body.size, cut: body.truncated }
    : undefined;

const headersOf = (headers: Record<string, string>): [string, string][] => Object.entries(headers);

/** Where a request went, without the origin (each sandbox instance of a run has its own port). */
const pathOf = (url: string): string => url.replace(/^[a-z]+:\/\/[^/]+/i, '');

function failuresOf(report: ConformanceReport): FailureView[] {
  const exchanges = new Map(report.exchanges.map((exchange) => [exchange.id, exchange]));
  const groups = new Map<string, FailureView>();
  for (const test of report.tests.filter((t) => t.status === 'failed')) {
    for (const finding of test.findings.filter((f) => f.outcome === 'fail')) {
      const exchange = finding.exchange === undefined ? undefined : exchanges.get(finding.exchange);
      // The same finding on the same request (whatever the instance's port) is one card.
      const key = [
        finding.requirement,
        finding.message,
        exchange
          ? `${exchange.request.method} ${pathOf(exchange.request.url)} ${exchange.response.status}`
          : '',
        finding.replay?.command ?? '',
      ].join('\n');
      const known = groups.get(key);
      if (known) {
        known.tests.push({ title: test.title, file: test.file });
        continue;
      }
      const request: RequestView | undefined = exchange && {
        method: exchange.request.method,
        url: exchange.request.url,
        headers: headersOf(exchange.request.headers),
        body: bodyOf(exchange.request.body),
      };
      groups.set(key, {
        anchor: `failure-${groups.size + 1}`,
        requirement: finding.requirement,
        message: finding.message,
        fields: finding.fields,
        tests: [{ title: test.title, file: test.file }],
        request,
        response: exchange && {
          status: exchange.response.status,
          headers: headersOf(exchange.response.headers),
          body: bodyOf(exchange.response.body),
        },
        curl: request && shellCurl(request),
        replay: finding.replay && { seed: finding.replay.seed, command: finding.replay.command },
        evidence: exchange ? undefined : finding.evidence,
        // A property's evidence ends with fast-check's report: its counterexample.
        detail: exchange && finding.replay ? finding.evidence : undefined,
      });
    }
  }
  return [...groups.values()];
}

/** The redaction the result states, in a line. */
const redactionOf = ({ redaction }: ConformanceReport): string =>
  `${redaction.marker} replaces every value of the headers ${redaction.headers.join(', ')}, of the fields ${redaction.fields.join(', ')} (in URLs, bodies and messages), and every credential the run configured or was issued.`;

/** The page's view of `report`, with the trend from the requirement history. */
export function pageView(report: ConformanceReport, history: History): PageView {
  const runs = comparableRuns(report, history.entries).slice(-TREND_RUNS);
  const requirements = report.requirements.map((r) => requirementOf(r, runs));
  const areaNames = [...new Set(requirements.map((r) => r.area))];
  return {
    verdict: verdictOf(report),
    header: {
      target: report.target,
      baseUrl: report.baseUrl,
      environment: report.environment,
      profile: report.profile,
      selection: report.selection,
      suiteVersion: `${report.suite.name} ${report.suite.version} (result schema ${report.schemaVersion})`,
      contract: `spec and schemas ${report.contract.spec.slice(0, 12)}…, catalogue ${report.contract.catalogue.slice(0, 12)}…`,
      seed: report.propertySeed,
      digest: report.digest?.combined,
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      requestsSent: report.requestsSent,
    },
    redaction: redactionOf(report),
    changes: changesOf(report, runs),
    known: knownOf(report),
    areas: areaNames.map((name, index) => {
      const inArea = requirements.filter((r) => r.area === name);
      return { name, anchor: `area-${index + 1}`, counts: countsOf(inArea), requirements: inArea };
    }),
    notVerified: notVerifiedOf(report.requirements),
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
    trendRuns: runs.map((run) => ({ startedAt: run.startedAt, verdict: run.verdict })),
    historyNote:
      history.unreadable > 0
        ? `${history.unreadable} line(s) of the requirement history are not a run's entry and were left out`
        : undefined,
  };
}
