// The suite's HTTP client outside the run's workers (`npm run login`, `npm run doctor`, the run's preflight,
// self tests): rate budgets of its own unless a pacer is given (the run's, for its preflight), and its requests
// counted nowhere unless a run's log is given.
import { devNull } from 'node:os';
import { ApiClient, type ApiClientOptions } from './api-client.ts';
import { leasingPacer, localTurns, type Pacer } from './pacer.ts';
import { RequestCounter } from './request-counter.ts';
import type { Transport } from './transport.ts';

export const standaloneClient = (
  transport: Transport,
  options: Omit<ApiClientOptions, 'pacer' | 'requests'>,
  /** A run's request log to count in (the run's preflight), else none. */
  requestLog: string = devNull,
  /** The run's budgets (a shard's part of the target's), else budgets of its own. */
  pacer?: Pacer,
): ApiClient =>
  new ApiClient(transport, {
    ...options,
    pacer: pacer ?? ownPacer(),
    requests: new RequestCounter(requestLog),
  });

/** Budgets of the client's own, made only where no run's pacer is given. */
function ownPacer(): Pacer {
  const turns = localTurns();
  return leasingPacer(turns.source, turns.shown);
}
