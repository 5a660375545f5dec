// The one adapter between conformance.json (the result schema, src/result/schema.ts) and the page: builds the
// page's view (view-model.ts) from a result and the requirement history, and the history's line of a run.
// Nothing else of the page reads the result.

import { settingsLine, shellCurl } from '../../../http/shell-curl.ts';
import { REQUIREMENT_STATUSES } from '../../../result/outcomes.ts';
import { basePathOf, causesOf, gistOf, operationsText } from '../../render/causes.ts';
import { isUncounted, notVerifiedReasons } from '../../render/requirement-lines.ts';
import { besideFailuresText, passText, verdictCause } from '../../render/verdict-cause.ts';
import type { ConformanceReport, RequirementResult } from '../model.ts';
import { overBudget, p95Change } from '../overview.ts';
import type { History, HistoryEntry } from '../requirement-history.ts';
import { runSideLines } from '../run-side.ts';
import { trendOf } from './trend.ts';
import type {
  BodyView,
  CauseView,
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

type Deviation = NonNullable<ConformanceReport['expiredDeviations']>[number];

const countsOf = (requirements: readonly { status: Status }[]): Record<Status, number> =>
  Object.fromEntries(
    REQUIREMENT_STATUSES.map((status) => [status, requirements.filter((r) => r.status === status).length]),
  ) as Record<Status, number>;

function verdictOf(report: ConformanceReport): VerdictView {
  return {
    verdict: report.verdict,
    cause: verdictCause(report),
    basis: report.verdict === 'pass' ? passText(report) : undefined,
    beside: besideFailuresText(report),
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

function requirementOf(
  result: RequirementResult,
  runs: readonly HistoryEntry[],
  cards: readonly FailureView[],
): RequirementView {
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
    uncounted: isUncounted(result),
    cards: cards.filter((card) => card.requirement === result.id).map((card) => card.anchor),
    deviation: result.deviation,
    tests: result.tests,
    trend: { statuses, kind: trendOf(statuses) },
  };
}

const notVerifiedOf = (requirements: readonly RequirementResult[]): NotVerifiedView[] =>
  requirements
    .filter((r) => r.status === 'not-verified')
    .map((r) => ({
      id: r.id,
      level: r.level,
      area: r.area,
      uncounted: isUncounted(r),
      reasons: notVerifiedReasons(r),
    }));

const bodyOf = (body: Exchange['response']['body'] | undefined): BodyView | undefined =>
  body && (body.size > 0 || body.text !== '')
    ? { text: body.text, bytes: body.size, cut: body.truncated }
    : undefined;

const headersOf = (headers: Record<string, string>): [string, string][] => Object.entries(headers);

/** Where a request went, without the origin (each sandbox instance of a run has its own port). */
const pathOf = (url: string): string => url.replace(/^[a-z]+:\/\/[^/]+/i, '');

type Exchange = ConformanceReport['exchanges'][number];
type Finding = ConformanceReport['tests'][number]['findings'][number];

/** The request of a card, and the curl that sends it again (a body cut by the report is left out). */
function requestOf(exchange: Exchange): { request: RequestView; curl: FailureView['curl'] } {
  const request: RequestView = {
    method: exchange.request.method,
    url: exchange.request.url,
    headers: headersOf(exchange.request.headers),
    body: bodyOf(exchange.request.body),
  };
  const { command, placeholders } = shellCurl({
    ...request,
    body: request.body && !request.body.cut ? request.body.text : undefined,
  });
  return { request, curl: { command, placeholders, settings: settingsLine(placeholders, request.url) } };
}

/** A new card: the finding, its exchange (request, response, curl) and what broke, for its title. */
function cardOf(
  anchor: string,
  finding: Finding,
  exchange: Exchange | undefined,
  basePath: string,
): FailureView {
  const sent = exchange && requestOf(exchange);
  return {
    anchor,
    requirement: finding.requirement,
    title: gistOf(finding, exchange, basePath),
    message: finding.message,
    fields: finding.fields,
    tests: [],
    request: sent?.request,
    response: exchange && {
      status: exchange.response.status,
      headers: headersOf(exchange.response.headers),
      body: bodyOf(exchange.response.body),
    },
    curl: sent?.curl,
    replay: finding.replay && { seed: finding.replay.seed, command: finding.replay.command },
    evidence: exchange ? undefined : finding.evidence,
    // A property's evidence ends with fast-check's report: its counterexample.
    detail: exchange && finding.replay ? finding.evidence : undefined,
  };
}

/** The cards, and the card of each fail finding (by test title and the finding's index). */
function failuresOf(report: ConformanceReport): { cards: FailureView[]; cardOfFinding: Map<string, string> } {
  const exchanges = new Map(report.exchanges.map((exchange) => [exchange.id, exchange]));
  const basePath = basePathOf(report);
  const groups = new Map<string, FailureView>();
  const cardOfFinding = new Map<string, string>();
  for (const test of report.tests.filter((t) => t.status === 'failed')) {
    test.findings.forEach((finding, index) => {
      if (finding.outcome !== 'fail') return;
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
      const card = groups.get(key) ?? cardOf(`failure-${groups.size + 1}`, finding, exchange, basePath);
      groups.set(key, card);
      card.tests.push({ title: test.title, file: test.file });
      cardOfFinding.set(`${test.title}\n${index}`, card.anchor);
    });
  }
  return { cards: [...groups.values()], cardOfFinding };
}

/** The causes, each with its cards; each card takes the first cause it belongs to. */
function causesView(
  report: ConformanceReport,
  cards: readonly FailureView[],
  cardOfFinding: Map<string, string>,
): CauseView[] {
  const byAnchor = new Map(cards.map((card) => [card.anchor, card]));
  return causesOf(report).map((cause) => {
    const anchors = [
      ...new Set(cause.findings.flatMap(({ test, index }) => cardOfFinding.get(`${test}\n${index}`) ?? [])),
    ];
    for (const anchor of anchors) {
      const card = byAnchor.get(anchor);
      if (card && card.cause === undefined) card.cause = cause.id;
    }
    const first = (id: string) => anchors.find((anchor) => byAnchor.get(anchor)?.requirement === id);
    return {
      id: cause.id,
      field: cause.field,
      what: cause.what,
      operations: operationsText(cause.operations),
      requirements: cause.requirements.map((id) => ({ id, card: first(id) })),
      cards: anchors,
      curlCard: anchors.find((anchor) => byAnchor.get(anchor)?.curl),
      known: cause.known,
    };
  });
}

/** Each failed requirement's first card. */
const firstCards = (cards: readonly FailureView[]): Record<string, string> => {
  const first: Record<string, string> = {};
  for (const card of cards) first[card.requirement] ??= card.anchor;
  return first;
};

/** The redaction the result states, in a line. */
const redactionOf = ({ redaction }: ConformanceReport): string =>
  `${redaction.marker} replaces every value of the headers ${redaction.headers.join(', ')}, of the fields ${redaction.fields.join(', ')} (in URLs, bodies and messages), and every credential the run configured or was issued.`;

/** The page's view of `report`, with the trend from the requirement history. */
export function pageView(report: ConformanceReport, history: History): PageView {
  const runs = comparableRuns(report, history.entries).slice(-TREND_RUNS);
  const { cards, cardOfFinding } = failuresOf(report);
  const causes = causesView(report, cards, cardOfFinding);
  const requirements = report.requirements.map((r) => requirementOf(r, runs, cards));
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
    causes,
    failures: cards,
    cardOf: firstCards(cards),
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
