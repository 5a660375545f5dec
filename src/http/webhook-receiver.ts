// The suite's webhook receiver: an HTTP server that records every request it gets (method, path, headers,
// raw body) and answers 200. Two uses:
// - on the embedded sandbox, a check starts one on 127.0.0.1 and a free port and registers it through the
//   sandbox administration API (src/worker/partner-data/sandbox-admin.ts);
// - on any other target, global setup starts one for the run (src/runner/run/run-webhook-receiver.ts) that appends
//   each delivery to the run's webhook log (a JSON line each), which the checks of every worker read.

import { appendFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJsonLines } from '../run-state/json-lines.ts';
import { reportPath } from '../run-state/reports-dir.ts';

export interface Delivery {
  receivedAt: number;
  method: string;
  /** The request target (path and query). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, byte for byte (what a signature is computed over). */
  body: Buffer;
}

export interface WebhookReceiver {
  /** The URL to register: `http://<host>:<port><path>`. */
  url: string;
  /** Every request received so far, in order of arrival. */
  readonly deliveries: readonly Delivery[];
  /**
   * Resolves with the deliveries that match, as soon as there is one, or with whatever matches (possibly
   * nothing) after `timeoutMs`.
   */
  waitFor(matches: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** The path of the URL to register (default /webhooks). */
  path?: string;
  /** Default 127.0.0.1 and a free port. */
  host?: string;
  port?: number;
  /** A file each delivery is appended to, as a JSON line (the run's webhook log). */
  log?: string;
}

/** A header of a delivery (repeated headers joined with ", "), or undefined when absent. */
export function deliveryHeader(delivery: Delivery, name: string): string | undefined {
  const value = delivery.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body of a delivery as UTF-8 text. */
export const deliveryText = (delivery: Delivery): string => delivery.body.toString('utf8');

/** Credentials a service may send along are not kept in the log. */
const UNLOGGED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const logLine = (delivery: Delivery): string =>
  `${JSON.stringify({
    ...delivery,
    headers: Object.fromEntries(
      Object.entries(delivery.headers).filter(([name]) => !UNLOGGED_HEADERS.has(name)),
    ),
    body: delivery.body.toString('base64'),
  })}\n`;

/** The deliveries a webhook log holds (none when the file does not exist yet). */
export function readDeliveryLog(file: string): Delivery[] {
  return readJsonLines<Omit<Delivery, 'body'> & { body: string }>(file).map((logged) => ({
    ...logged,
    body: Buffer.from(logged.body, 'base64'),
  }));
}

/**
 * Resolves with the deliveries `current()` matches as soon as there is one, or with whatever matches after
 * `timeoutMs`; `subscribe` calls back on every new delivery and returns its unsubscription.
 */
export function waitForDeliveries(
  current: () => readonly Delivery[],
  subscribe: (onDelivery: () => void) => () => void,
  matches: (delivery: Delivery) => boolean,
  timeoutMs: number,
): Promise<Delivery[]> {
  const found = () => current().filter(matches);
  if (found().length > 0) return Promise.resolve(found());
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve(found());
    };
    const unsubscribe = subscribe(() => {
      if (found().length > 0) finish();
    });
    const timer = setTimeout(finish, timeoutMs);
  });
}

/** Keeps each delivery (and logs it when there is a log), answers 200, and wakes whoever waits for one. */
const deliveryHandler =
  (deliveries: Delivery[], waiters: ReadonlySet<() => void>, log?: string) =>
  (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery: Delivery = {
        receivedAt: Date.now(),
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      deliveries.push(delivery);
      if (log) appendFileSync(log, logLine(delivery));
      response.writeHead(200).end();
      for (const wake of [...waiters]) wake();
    });
  };

/** Starts a receiver (default: on 127.0.0.1 and a free port, path /webhooks). */
export async function startWebhookReceiver({
  path = '/webhooks',
  host = '127.0.0.1',
  port = 0,
  log,
}: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer(deliveryHandler(deliveries, waiters, log));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${path}`,
    deliveries,
    waitFor: (matches, timeoutMs) =>
      waitForDeliveries(
        () => deliveries,
        (onDelivery) => {
          waiters.add(onDelivery);
          return () => waiters.delete(onDelivery);
        },
        matches,
        timeoutMs,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The run's webhook log (under the run's reports directory). */
export const runWebhookLog = (): string => reportPath('.run/webhooks.jsonl');
