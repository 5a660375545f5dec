// The contract's checks on one recorded exchange of a known operation, as findings: a requirement checked
// (pass), failed, not verified (the recording lacks the body), warned or noted about.
// The same rules as the live suite: status listed by the operation, JSON bodies, schema violations
// attributed to their most specific requirement, score iff SCORED, no end before its start, page within
// the limit, order within the page; nulls read as absent with a warning.
import {
  descendingProblems,
  describeRecordProblem,
  endBeforeStartProblems,
  scoreStateProblems,
} from '../checks/invariants.ts';
import type { Operation } from '../contract/operation-model.ts';
import {
  appliesTo,
  jsonBodyRequirement,
  requirementOf,
  successRequirement,
} from '../contract/requirements.ts';
import { attributed, conditionalRequirementAt, requirementAt } from '../contract/rule-requirements.ts';
import { formatNote, formatViolation, validate } from '../contract/validators.ts';
import { fieldPattern, withoutNullProperties } from '../http/absent-nulls.ts';
import { isJsonContentType } from '../http/content-type.ts';
import { succeeded } from '../http/exchange.ts';
import type { Finding, FindingOutcome } from '../protocol/finding.ts';
import type { RecordedExchange } from './recorded-exchange.ts';

/** The outcomes a recorded exchange can show: a recording stops nothing and blocks nothing. */
export type ExchangeOutcome = Extract<FindingOutcome, 'pass' | 'fail' | 'not-verified' | 'warning' | 'note'>;

/** A finding of one exchange; its message leaves out where the exchange is (so equal findings group). */
export type ExchangeFinding = Finding & { outcome: ExchangeOutcome };

/** The requirement a schema pointer belongs to when nothing is wrong there. */
const owner = requirementAt;

/** The first record of a body: a collection's first item, or the body itself. */
const FIRST_RECORD = '/records/0';

/**
 * `derive`, computed once for each key its arguments give. The rules below are functions of the contract
 * alone, and walking the schemas for them took most of the time of checking an exchange.
 */
function once<Args extends unknown[], Value>(
  derive: (...args: Args) => Value,
  keyOf: (...args: Args) => string,
): (...args: Args) => Value {
  const known = new Map<string, Value>();
  return (...args) => {
    const key = keyOf(...args);
    if (!known.has(key)) known.set(key, derive(...args));
    return known.get(key) as Value;
  };
}

/** Score iff SCORED, as the record schema's union states it (none for records without the rule). */
const scoreRule = once(
  (schema: string) => conditionalRequirementAt(schema, FIRST_RECORD),
  (schema) => schema,
);

/** A record's end never before its start: the rule of the operations that serve records with both. */
const END_RULE = 'INV-END-NOT-BEFORE-START';

/** The requirements a body of `op` answered with `schema` verifies. */
export const bodyRequirements = once(
  (op: Operation, schema: string): string[] => {
    const found = [owner(schema, ''), owner(schema, FIRST_RECORD), scoreRule(schema)];
    if (appliesTo(END_RULE, op)) found.push(END_RULE);
    if (op.isCollection) found.push('PAG-PAGE-WITHIN-LIMIT', orderRule(op));
    return [...new Set(found.filter((id) => typeof id === 'string'))];
  },
  (op, schema) => `${op.operationId} ${schema}`,
);

/** Order within a page: by start, except recoveries (ordered by their sleep's start, not in the page). */
const orderRule = (op: Operation) =>
  op.operationId === 'listRecoveries' ? undefined : requirementOf(op, 'ORD-');

/** The page size the request asked for: its valid `limit`, or the operation's default. */
function limitOf(op: Operation, url: string): number | undefined {
  const asked = new URL(url, 'http://recording.invalid').searchParams.get('limit');
  const param = op.queryParams.find((p) => p.name === 'limit')?.schema;
  if (asked === null) return typeof param?.default === 'number' ? param.default : undefined;
  return /^[1-9]\d*$/.test(asked) ? Number(asked) : undefined;
}

function recordsOf(op: Operation, body: unknown): Record<string, unknown>[] {
  if (!body || typeof body !== 'object') return [];
  if (!op.isCollection) return [body as Record<string, unknown>];
  const records = (body as { records?: unknown }).records;
  return Array.isArray(records)
    ? records.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
    : [];
}

/**
 * Why the request itself may not be one the operation accepts (its JSON body is not JSON or breaks the
 * request schema; a 401 or 403 to credentials the recording cannot judge), or undefined when nothing shows it.
 * Such requests are the negative ones a suite builds on purpose: a 4xx answers them as the live suite
 * judges them (a client error, PTN-INVALID-BODY's reading), whatever statuses the operation lists.
 */
function invalidRequest(op: Operation, exchange: RecordedExchange): string | undefined {
  // The live suite sends missing, malformed and revoked tokens on purpose; a recording redacts them, so a
  // 401 (or a 403, which the seed does not name) of an operation that needs credentials cannot be told from
  // the answer to a bad token or to one lacking the scope.
  if (op.security.kind !== 'none' && (exchange.status === 401 || exchange.status === 403))
    return exchange.requestHeaders.authorization === undefined
      ? 'the request carries no credentials'
      : 'the recording cannot show whether its credentials were valid';
  if (op.requestSchema === null || exchange.requestBody === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(exchange.requestBody);
  } catch {
    return 'the request body is not JSON';
  }
  const { errors } = validate(op.requestSchema, body);
  return errors.length > 0
    ? `the request body breaks ${op.requestSchema} (${formatViolation(errors[0] as (typeof errors)[number])})`
    : undefined;
}

type Add = (requirement: string, outcome: ExchangeOutcome, message: string) => void;

/** The status judged; true when it is one the operation lists. */
function judgeStatus(op: Operation, exchange: RecordedExchange, add: Add): boolean {
  const statusRule = successRequirement(op);
  const invalid =
    exchange.status >= 400 && exchange.status < 500 && !op.statuses.includes(exchange.status)
      ? invalidRequest(op, exchange)
      : undefined;
  if (invalid !== undefined) {
    // Not a departure from the documented statuses: the request was not one the operation accepts.
    add(statusRule, 'note', `status ${exchange.status} to an invalid request (${invalid})`);
    return false;
  }
  if (!op.statuses.includes(exchange.status)) {
    add(
      statusRule,
      'fail',
      `status ${exchange.status} is not one ${op.operationId} lists (${op.statuses.join(', ')})`,
    );
    return false;
  }
  add(statusRule, 'pass', `status ${exchange.status}`);
  return true;
}

/** The parsed body against `schema`: its violations, its null fields (read as absent), its notes. */
function judgeBody(op: Operation, schema: string, parsed: unknown, add: Add): unknown {
  const { value: body, nullPointers } = withoutNullProperties(parsed);
  const nullFields = [...new Set(nullPointers.map(fieldPattern))];
  if (nullFields.length > 0)
    add(
      'SCH-NULL-FOR-ABSENT',
      'warning',
      `${op.method} ${op.path} sends null for ${nullFields.join(', ')}: read as absent`,
    );
  const result = validate(schema, body);
  for (const violation of result.errors)
    add(attributed(violation).requirement, 'fail', formatViolation(violation));
  for (const note of result.notes) {
    const pointer = note.pointer.replace(/^\/records\/\d+/, '/records/*');
    add(owner(schema, note.pointer), 'note', `${op.method} ${op.path}: ${formatNote({ ...note, pointer })}`);
  }
  return body;
}

/** A collection's page: its size against the request's limit and the maximum, its records' order. */
function judgePage(
  op: Operation,
  exchange: RecordedExchange,
  records: Record<string, unknown>[],
  add: Add,
): void {
  const limit = limitOf(op, exchange.url);
  const maximum = op.queryParams.find((p) => p.name === 'limit')?.schema.maximum;
  if (limit !== undefined && maximum !== undefined && limit > maximum && records.length > maximum)
    add(
      'PAG-LIMIT-OVER-MAX',
      'fail',
      `the page holds ${records.length} records for limit ${limit}, more than the maximum ${maximum}`,
    );
  else if (limit !== undefined && records.length > limit)
    add(
      'PAG-PAGE-WITHIN-LIMIT',
      'fail',
      `the page holds ${records.length} records; the request's limit is ${limit}`,
    );
  const orderId = orderRule(op);
  if (orderId)
    for (const problem of descendingProblems(records, (r) => r.start, 'start'))
      add(orderId, 'fail', describeRecordProblem(problem));
}

export function checkExchange(op: Operation, exchange: RecordedExchange): ExchangeFinding[] {
  const out: ExchangeFinding[] = [];
  const add: Add = (requirement, outcome, message) => out.push({ requirement, outcome, message });
  if (!judgeStatus(op, exchange, add)) return out;
  const schema = op.responses.get(exchange.status)?.schema ?? null;
  if (!succeeded(exchange) || schema === null) return out;

  const jsonRule = jsonBodyRequirement(op);
  const type = exchange.responseHeaders['content-type'] ?? '';
  if (isJsonContentType(type)) add(jsonRule, 'pass', 'application/json');
  else add(jsonRule, 'fail', `content-type is "${type}", not application/json`);

  const bodyRules = bodyRequirements(op, schema);
  if (exchange.body === undefined) {
    for (const id of bodyRules) add(id, 'not-verified', exchange.bodyMissing ?? 'no body recorded');
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.body);
  } catch {
    add(jsonRule, 'fail', 'the body is not JSON');
    return out;
  }
  const records = recordsOf(op, judgeBody(op, schema, parsed, add));
  const scoreId = scoreRule(schema);
  if (scoreId)
    for (const problem of scoreStateProblems(records)) add(scoreId, 'fail', describeRecordProblem(problem));
  if (appliesTo(END_RULE, op))
    for (const problem of endBeforeStartProblems(records))
      add(END_RULE, 'fail', describeRecordProblem(problem));
  if (op.isCollection) judgePage(op, exchange, records, add);
  const failed = new Set(out.filter((o) => o.outcome === 'fail').map((o) => o.requirement));
  for (const id of bodyRules)
    if (!failed.has(id)) add(id, 'pass', op.isCollection ? `${records.length} record(s)` : 'body');
  return out;
}
