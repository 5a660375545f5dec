// The exchanges of the test running in this worker. What the worker's session sends on the test's behalf (a
// shared read: a walk, a token) is the test's too: its latency samples, its HAR entries, its attachment.
import type { Exchange } from '../http/exchange.ts';

let running: Exchange[] | undefined;

/** Names the running test's exchanges (undefined: no test is running). */
export function collectTestExchanges(exchanges: Exchange[] | undefined): void {
  running = exchanges;
}

export const runningTestExchanges = (): Exchange[] | undefined => running;
