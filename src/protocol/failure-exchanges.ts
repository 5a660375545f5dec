// The exchange a check's failure rests on, kept with the failure, so that the result keeps it and the finding
// names it also where the test that failed did not send the request: a read the worker's checks share (a
// walk, a single read, findings computed once) is sent by the first test that asks, and its failure ends
// every test that asks after. The first test in the worker that ends with such a failure keeps the exchange
// among its own (the result's `exchanges`); every later one names that one.
import type { Exchange } from '../http/exchange.ts';
import { exchangeId } from './exchange-sink.ts';
import type { Finding } from './finding.ts';

/** A failure's finding, and the exchange it rests on (src/worker/verdict/verdicts.ts ConformanceFailure). */
const restingOn = new WeakMap<Finding, Exchange>();
/** The id under which a test of this worker kept an exchange. */
const keptAs = new WeakMap<Exchange, string>();

export function restOn(finding: Finding, exchange: Exchange): void {
  restingOn.set(finding, exchange);
}

/**
 * Keeps the exchanges the test's ending failures rest on: each among the test's `exchanges` (added there
 * when a shared read sent it), unless an earlier test kept it; returns the ids the test keeps them under.
 */
export function keepExchangesOf(
  findings: readonly (Finding | undefined)[],
  exchanges: Exchange[],
  testId: string,
): Set<string> {
  const ids = new Set<string>();
  for (const finding of findings) {
    const exchange = finding && restingOn.get(finding);
    if (!exchange) continue;
    let index = exchanges.indexOf(exchange);
    if (index < 0 && keptAs.has(exchange)) continue;
    if (index < 0) index = exchanges.push(exchange) - 1;
    const id = exchangeId(testId, index);
    keptAs.set(exchange, id);
    ids.add(id);
  }
  return ids;
}

/** The finding naming the exchange it rests on as it was kept (unchanged when none was). */
export function withKeptExchange(finding: Finding): Finding {
  const exchange = restingOn.get(finding);
  const id = exchange && keptAs.get(exchange);
  return id ? { ...finding, exchange: id } : finding;
}
