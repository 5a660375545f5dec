// Assertions that speak the contract's language: every failure names the requirement, the request
// (with a curl reproduction, credentials redacted) and the offending field or value.
import { formatViolation, validate } from '../contract/validators.ts';
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';

export class ConformanceFailure extends Error {
  constructor(
    readonly requirement: string,
    message: string,
  ) {
    // Redacted here, before Playwright sees it: a quoted body may carry a token the service just issued.
    super(redactText(`[${requirement}] ${message}`));
    this.name = 'ConformanceFailure';
  }
}

/** Fails with every problem found, so one run shows them all (capped to keep messages readable). */
export function expectNone(requirement: string, problems: readonly string[], context?: Exchange): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 15).map((problem) => `  - ${problem}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  const where = context ? `\n${describeExchange(context)}` : '';
  throw new ConformanceFailure(requirement, `${problems.length} violation(s):\n${shown.join('\n')}${where}`);
}

export function expectThat(
  requirement: string,
  condition: boolean,
  message: string,
  context?: Exchange,
): void {
  if (!condition) expectNone(requirement, [message], context);
}

export function expectStatus(
  requirement: string,
  exchange: Exchange,
  expected: number | readonly number[],
): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (allowed.includes(exchange.status)) return;
  const body = exchange.text.length > 300 ? `${exchange.text.slice(0, 300)}…` : exchange.text;
  throw new ConformanceFailure(
    requirement,
    `expected status ${allowed.join(' or ')}, got ${exchange.status}${body ? ` (body: ${body})` : ''}\n${describeExchange(exchange)}`,
  );
}

export function expectJsonContentType(requirement: string, exchange: Exchange): void {
  const type = exchange.headers['content-type'] ?? '';
  expectThat(
    requirement,
    /^application\/([\w.+-]+\+)?json\b/i.test(type),
    `content-type is "${type}", not application/json`,
    exchange,
  );
}

/** Validates `data` (a response body or part of it) against a schema of schemas/. */
export function expectSchema(
  requirement: string,
  schema: string,
  data: unknown,
  context?: Exchange,
  at = '',
): void {
  const result = validate(schema, data);
  expectNone(
    requirement,
    result.errors.map((violation) => (at ? `${at}: ` : '') + formatViolation(violation)),
    context,
  );
}

/** Never a 5xx: the one rule that holds for every request, valid or not. */
export function expectNo5xx(requirement: string, exchange: Exchange): void {
  expectThat(requirement, exchange.status < 500, `server error ${exchange.status}`, exchange);
}
