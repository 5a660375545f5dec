// The exchanges of the test running in this worker. What the worker's session sends on the test's behalf (a
// shared read: a walk, a token) is the test's too: its latency samples, its HAR entries, its attachment.
// Each has an id the result keeps (`<test id>-<its number>`), by which a finding names the exchange it
// rests on.
import type { Exchange } from '../http/exchange.ts';

let running: { exchanges: Exchange[]; testId: string } | undefined;

/** Names the running test's exchanges (undefined: no test is running). */
export function collectTestExchanges(exchanges: Exchange[] | undefined, testId = ''): void {
  running = exchanges && { exchanges, testId };
}

export const runningTestExchanges = (): Exchange[] | undefined => running?.exchanges;

/** The id of the `index`-th exchange of test `testId` in the result (src/result/schema.ts `exchanges`). */
export const exchangeId = (testId: string, index: number): string => `${testId}-${index + 1}`;

/** The id of an exchange of the running test, or undefined for one it did not send. */
export function exchangeRef(exchange: Exchange): string | undefined {
  const index = running?.exchanges.indexOf(exchange) ?? -1;
  return running && index >= 0 ? exchangeId(running.testId, index) : undefined;
}
