// The suite's HTTP client outside a conformance run (`npm run login`, `npm run doctor`, self tests): rate
// budgets of its own, and its requests counted nowhere (a run's request log belongs to the run).
import { devNull } from 'node:os';
import { ApiClient, type ApiClientOptions } from './api-client.ts';
import { leasingPacer, localTurns } from './pacer.ts';
import { RequestCounter } from './request-counter.ts';
import type { Transport } from './transport.ts';

export const standaloneClient = (
  transport: Transport,
  options: Omit<ApiClientOptions, 'pacer' | 'requests'>,
): ApiClient =>
  new ApiClient(transport, {
    ...options,
    pacer: leasingPacer(localTurns().source),
    requests: new RequestCounter(devNull),
  });
