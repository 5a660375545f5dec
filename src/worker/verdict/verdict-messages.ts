// What a verdict says: a status assertion's message, an exchange's first line and its evidence, and a
// long list of violations grouped by kind, so that a failure stays readable (verdicts.ts).
import { describeExchange, type Exchange } from '../../http/exchange.ts';
import { exchangeRef } from '../../protocol/exchange-sink.ts';

/** A finding's evidence of an exchange: its line and curl, and its id in the result. */
export const exchangeEvidence = (exchange: Exchange): { evidence: string; exchange?: string } => {
  const id = exchangeRef(exchange);
  return { evidence: describeExchange(exchange), ...(id ? { exchange: id } : {}) };
};

/** `GET http://…/v2/cycle?limit=0 → 200`, without the curl line. */
export const firstLine = (exchange: Exchange): string => describeExchange(exchange).split('\n')[0] ?? '';

/** `expected status 200, got 404 (body: …)`: what a status assertion says. */
export function statusMessage(expected: string, exchange: Exchange): string {
  const body = exchange.text.length > 300 ? `${exchange.text.slice(0, 300)}…` : exchange.text;
  return `expected ${expected}, got ${exchange.status}${body ? ` (body: ${body})` : ''}`;
}

/** A failure lists at most this many violations (or kinds of violation), and names as many fields. */
export const LISTED = 15;

/** Violations alike but for their numbers (indexes, pages, ids, values): one kind, its first one shown. */
export function groupedLines(problems: readonly { text: string }[]): string[] {
  const kinds = new Map<string, { text: string; count: number }>();
  for (const { text } of problems) {
    const key = text.replace(/\d+(?:\.\d+)?/g, '#');
    const kind = kinds.get(key) ?? { text, count: 0 };
    kind.count += 1;
    kinds.set(key, kind);
  }
  const listed = [...kinds.values()].slice(0, LISTED);
  const lines = listed.map(({ text, count }) => `  - ${count > 1 ? `${count} like this: ` : ''}${text}`);
  const left = problems.length - listed.reduce((sum, kind) => sum + kind.count, 0);
  return left > 0 ? [...lines, `  … and ${left} more of ${kinds.size - listed.length} other kinds`] : lines;
}
