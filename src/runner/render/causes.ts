// The distinct causes of a result's failures, from the result alone (an old result has them too): failures
// that broke the same schema rule are one cause, whatever operations and requirements they fail; failures
// that got the same status for the same kind of request (one operation and its parameters, or one check's
// violation) are one cause. A cause names its field or status, what the answer held, its operations and
// the requirements it fails: every form shows the same causes (page, conformance.md, the job summary).
import type { ConformanceResult, ResultExchange, ResultFinding } from '../../result/schema.ts';
import { roundedBeside } from '../../text/rounded.ts';

/** A failure as a person reads it: where in the answer (a field, or the status), and what it held. */
export interface FailureGist {
  /** `/score/strain` (within a record: a collection's `/records/N` and every array index left out), `status`. */
  field?: string;
  /** `24.94 > 21`, `500: a next_token with a character in the middle changed: server error 500`. */
  what: string;
  /** `GET /v2/cycle/{id}`: the request's method and path, ids as `{id}`. */
  operation?: string;
  /** How many violations the finding lists (its "N violation(s):"), 1 where it states one. */
  violations: number;
}

export interface Cause extends Omit<FailureGist, 'operation' | 'violations'> {
  /** `cause-1`…: an anchor, in the order the result meets them. */
  id: string;
  operations: string[];
  requirements: string[];
  /** Its failures: the test (by title) and the finding's index among the test's findings. */
  findings: { test: string; index: number }[];
  /** Every test of it is a known failure (CONFORMANCE_EXPECTATIONS): it does not fail the run. */
  known: boolean;
}

/** `cycle.json /score/strain: must be <= 21 (maximum), got 24.94 [cycle-score.json#/…/maximum]` (formatViolation). */
const SCHEMA_LINE =
  /([\w-]+)\.json (\(root\)|\/\S*): (.+?) \((\w+)\), got (.+?)(?: \[([^\]]+)\])?(?: → [A-Z0-9-]+)?$/;
const COMPARISON = /^must be (<=|>=|<|>) (\S+)$/;
const NEGATED: Record<string, string> = { '<=': '>', '>=': '<', '<': '>=', '>': '<=' };

/** A violation's pointer within a record: `/records/3/score/strain` and `/score/strain` are `/score/strain`. */
const withinRecord = (pointer: string): string =>
  pointer === '(root)'
    ? '/'
    : pointer.replace(/^\/records\/\d+(?=\/|$)/, '').replace(/\/\d+(?=\/|$)/g, '/*') || '/';

/** The violations a finding lists ("N violation(s):" then "  - …" lines), or its message's first line. */
function violationLines(message: string): { lines: string[]; count: number } {
  const [first = '', ...rest] = message.split('\n');
  const counted = /^(\d+) violation\(s\):?$/.exec(first.trim());
  if (!counted) return { lines: [first], count: 1 };
  const lines = rest.flatMap((line) => /^\s*- (.*)$/.exec(line)?.[1] ?? []);
  return { lines, count: Number(counted[1]) };
}

/** A schema violation's rule (where it is written) and how it reads: `24.94 > 21`. */
function schemaGist(line: string): { rule: string; field: string; what: string } | undefined {
  const match = SCHEMA_LINE.exec(line);
  if (!match) return undefined;
  const [, schema, pointer = '', message = '', keyword = '', got = '', location] = match;
  const comparison = COMPARISON.exec(message);
  const [, operator = '', limit = ''] = comparison ?? [];
  // An older result quotes the value as sent (24.938200000000002).
  const value = Number.isFinite(Number(got)) ? roundedBeside(Number(got), Number(limit)) : got;
  const what = comparison ? `${value} ${NEGATED[operator]} ${limit}` : `${message}, got ${got}`;
  return {
    rule: location ?? `${schema}#${withinRecord(pointer)}/${keyword}`,
    field: withinRecord(pointer),
    what,
  };
}

/** A request's path without its origin and the target's base path, each id (digits, uuid) as `{id}`. */
function operationOf(exchange: ResultExchange, basePath: string): { shown: string; kind: string } {
  const url = new URL(exchange.request.url, 'http://target');
  const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
  const template = path
    .split('/')
    .map((part) => (/^\d+$|^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(part) ? '{id}' : part))
    .join('/');
  const shown = `${exchange.request.method} ${template || '/'}`;
  return { shown, kind: `${shown}?${[...new Set(url.searchParams.keys())].sort().join('&')}` };
}

/** A text with its numbers, long tokens and quoted bodies left out: what varies between requests. */
const shapeOf = (text: string): string =>
  text
    .replace(/ \(body: .*$/, '')
    .replace(/[A-Za-z0-9_.-]{20,}/g, '…')
    .replace(/\d+/g, '#');

/** A finding's gist: its first violation's field and what it held, on its request's operation. */
export function gistOf(
  finding: ResultFinding,
  exchange: ResultExchange | undefined,
  basePath = '',
): FailureGist {
  const { lines, count } = violationLines(finding.message);
  const [first = finding.message] = lines;
  const operation = exchange ? operationOf(exchange, basePath).shown : undefined;
  const schema = lines.map(schemaGist).find((gist) => gist !== undefined);
  if (schema) return { field: schema.field, what: schema.what, operation, violations: count };
  // A result written before findings named their fields (1.0.0): a server error is the status's failure.
  const byStatus = finding.fields
    ? finding.fields.includes('/status')
    : (exchange?.response.status ?? 0) >= 500;
  const status = exchange && byStatus ? exchange.response.status : undefined;
  const text = first.replace(/ \(body: .*$/, '');
  if (status !== undefined)
    return { field: 'status', what: `${status}: ${text}`, operation, violations: count };
  const field = finding.fields?.[0]?.replace(/^\/body(?=\/)/, '');
  return { field: field && withinRecord(field), what: text, operation, violations: count };
}

/** What ties a finding to others of its cause: each schema rule it breaks, else its request kind and check. */
function facetsOf(
  finding: ResultFinding,
  exchange: ResultExchange | undefined,
  basePath: string,
): string[][] {
  const rules = violationLines(finding.message).lines.flatMap((line) => schemaGist(line)?.rule ?? []);
  // A finding breaking several rules belongs to each rule's cause.
  if (rules.length > 0) return [...new Set(rules)].map((rule) => [`rule ${rule}`]);
  const gist = gistOf(finding, exchange, basePath);
  const answer = `${gist.field ?? ''} ${exchange?.response.status ?? ''}`;
  const check = `check ${finding.requirement} ${answer} ${shapeOf(gist.what)}`;
  return [exchange ? [check, `request ${operationOf(exchange, basePath).kind} ${answer}`] : [check]];
}

/** The groups of items that share a facet, each group in first-met order (a union of overlapping sets). */
function groupsOf<T>(items: readonly { item: T; facets: readonly string[] }[]): T[][] {
  const groupOfFacet = new Map<string, number>();
  const groups: T[][] = [];
  for (const { item, facets } of items) {
    const met = [...new Set(facets.flatMap((facet) => groupOfFacet.get(facet) ?? []))].sort((a, b) => a - b);
    const [into = groups.length] = met;
    if (into === groups.length) groups.push([]);
    for (const other of met.slice(1)) {
      groups[into]?.push(...(groups[other] ?? []));
      groups[other] = [];
      for (const [facet, index] of groupOfFacet) if (index === other) groupOfFacet.set(facet, into);
    }
    groups[into]?.push(item);
    for (const facet of facets) groupOfFacet.set(facet, into);
  }
  return groups.filter((group) => group.length > 0);
}

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

type Met = { test: string; index: number; finding: ResultFinding; exchange?: ResultExchange };

/** The target's base path (`/developer`), which the operations of a cause leave out. */
export const basePathOf = (result: Pick<ConformanceResult, 'baseUrl'>): string =>
  new URL(result.baseUrl, 'http://target').pathname.replace(/\/$/, '');

/** The result's causes, in the order its failed tests meet them. */
export function causesOf(result: ConformanceResult): Cause[] {
  const exchanges = new Map(result.exchanges.map((exchange) => [exchange.id, exchange]));
  const basePath = basePathOf(result);
  const known = new Set(result.deviations.map((deviation) => deviation.test));
  const seeds = result.tests
    .filter((test) => test.status === 'failed')
    .flatMap((test) =>
      test.findings.flatMap((finding, index) => {
        if (finding.outcome !== 'fail') return [];
        const exchange = finding.exchange === undefined ? undefined : exchanges.get(finding.exchange);
        const item: Met = { test: test.title, index, finding, exchange };
        return facetsOf(finding, exchange, basePath).map((facets) => ({ item, facets }));
      }),
    );
  return groupsOf(seeds).map((group, n) => {
    const [first] = group as [Met];
    const { operation: _, violations: __, ...gist } = gistOf(first.finding, first.exchange, basePath);
    return {
      id: `cause-${n + 1}`,
      ...gist,
      operations: unique(
        group.flatMap((met) => (met.exchange ? operationOf(met.exchange, basePath).shown : [])),
      ),
      requirements: unique(group.map((met) => met.finding.requirement)).sort(),
      findings: uniqueFindings(group),
      known: group.every((met) => known.has(met.test)),
    };
  });
}

const uniqueFindings = (group: readonly Met[]): Cause['findings'] => [
  ...new Map(
    group.map((met) => [`${met.test}\n${met.index}`, { test: met.test, index: met.index }]),
  ).values(),
];

/** At most this many operations are named in a line; the rest are counted. */
const NAMED_OPERATIONS = 3;

/** `GET /v2/cycle/{id}, GET /v2/cycle and 2 more`. */
export function operationsText(operations: readonly string[]): string {
  const named = operations.slice(0, NAMED_OPERATIONS).join(', ');
  const more = operations.length - NAMED_OPERATIONS;
  return more > 0 ? `${named} and ${more} more` : named;
}

/** A cause in one line: "`/score/strain` 24.94 > 21 on GET /v2/cycle/{id}: INV-STRAIN-RANGE, OP-GET-CYCLE". */
export function causeLine(cause: Cause, code = (text: string) => `\`${text}\``): string {
  const where = cause.operations.length > 0 ? ` on ${operationsText(cause.operations)}` : '';
  return `${cause.field ? `${code(cause.field)} ` : ''}${cause.what}${where}: ${cause.requirements.join(', ')}`;
}
