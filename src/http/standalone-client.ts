// The suite's HTTP client outside a conformance run (`npm run login`, `npm run doctor`, self tests): a
// throttle of its own, and its requests counted nowhere (a run's request log belongs to the run).
import { devNull } from 'node:os';
import { ApiClient, type ApiClientOptions } from './api-client.ts';
import { RequestCounter } from './request-counter.ts';
import { Throttle } from './throttle.ts';
import type { Transport } from './transport.ts';

export const standaloneClient = (
  transport: Transport,
  options: Omit<ApiClientOptions, 'throttle' | 'requests'>,
): ApiClient =>
  new ApiClient(transport, { ...options, throttle: new Throttle(), requests: new RequestCounter(devNull) });
