// The exchanges of a test that did not pass, as its worker attached them (src/worker/suite/kept-exchanges.ts: redacted,
// each with its id), for the result's `exchanges`: each kept once, and named by the test's summary.
import { readFileSync } from 'node:fs';
import type { TestCase } from '@playwright/test/reporter';
import { EXCHANGES_ATTACHMENT } from '../../protocol/attachments.ts';
import type { ResultExchange } from '../../result/schema.ts';
import type { TestResultSummary } from './model.ts';

type Attached = Omit<ResultExchange, 'test'>;

/** The exchanges the last attempt of `test` attached, under the test's `title` in the report. */
export function testExchanges(test: TestCase, title: string): ResultExchange[] {
  const attachment = test.results.at(-1)?.attachments.find(({ name }) => name === EXCHANGES_ATTACHMENT);
  if (!attachment) return [];
  const text =
    attachment.body?.toString('utf8') ?? (attachment.path ? readFileSync(attachment.path, 'utf8') : '[]');
  return (JSON.parse(text) as Attached[]).map((exchange) => ({ ...exchange, test: title }));
}

/**
 * The test's summary naming its kept exchanges; a finding names an exchange any test of the run kept (a read
 * shared between checks is kept by the first test its failure ended), and one no test kept is left unnamed.
 */
export function withExchanges(
  summary: TestResultSummary,
  exchanges: readonly ResultExchange[],
  keptInRun: ReadonlySet<string>,
): TestResultSummary {
  if (exchanges.length === 0 && !summary.findings.some((finding) => finding.exchange)) return summary;
  const own = exchanges.map((exchange) => exchange.id);
  return {
    ...summary,
    ...(own.length > 0 ? { exchanges: own } : {}),
    findings: summary.findings.map(({ exchange, ...finding }) =>
      exchange && keptInRun.has(exchange) ? { ...finding, exchange } : finding,
    ),
  };
}
