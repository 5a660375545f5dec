// The exchanges a test that did not pass keeps: redacted, the last few and every one a finding names, each
// with its id (src/protocol/attachments.ts; src/runner/report/test-exchanges.ts reads them).
import type { TestInfo } from '@playwright/test';
import { type Exchange, redactedRecord } from '../../http/exchange.ts';
import { EXCHANGES_ATTACHMENT } from '../../protocol/attachments.ts';
import { exchangeId } from '../../protocol/exchange-sink.ts';
import { findingsOf } from '../../protocol/finding.ts';

/** The exchanges a test that did not pass attaches: the last few, and every one a finding names. */
function keptExchanges(exchanges: readonly Exchange[], testInfo: TestInfo) {
  const named = new Set(findingsOf(testInfo.annotations).flatMap((finding) => finding.exchange ?? []));
  const recent = exchanges.length - RECENT_EXCHANGES;
  return exchanges.flatMap((exchange, index) => {
    const id = exchangeId(testInfo.testId, index);
    return index >= recent || named.has(id) ? [{ id, ...redactedRecord(exchange) }] : [];
  });
}

/** How many of its last exchanges a test that did not pass keeps. */
const RECENT_EXCHANGES = 25;

/** Attaches the exchanges a test that did not pass keeps (none when it ended as expected or sent none). */
export async function attachKeptExchanges(exchanges: readonly Exchange[], testInfo: TestInfo): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus || exchanges.length === 0) return;
  await testInfo.attach(EXCHANGES_ATTACHMENT, {
    body: JSON.stringify(keptExchanges(exchanges, testInfo), null, 2),
    contentType: 'application/json',
  });
}
