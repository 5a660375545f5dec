// A local webhook receiver for the webhook tests: an HTTP server on 127.0.0.1 (a free port) that records
// every request it gets (method, path, headers, raw body) and answers 200. Registered with the sandbox
// administration API (sandbox-admin.ts); the tests wait for the deliveries they expect.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** The URL to register: `http://127.0.0.1:<port><path>`. */
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

/** A header of a delivery (repeated headers joined with ", "), or undefined when absent. */
export function deliveryHeader(delivery: Delivery, name: string): string | undefined {
  const value = delivery.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body of a delivery as UTF-8 text. */
export const deliveryText = (delivery: Delivery): string => delivery.body.toString('utf8');

/** Starts a receiver on 127.0.0.1 and a free port; `path` is the path of the URL to register. */
export async function startWebhookReceiver(path = '/webhooks'): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({
        receivedAt: Date.now(),
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(200).end();
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    deliveries,
    waitFor(matches, timeoutMs) {
      const found = () => deliveries.filter(matches);
      if (found().length > 0) return Promise.resolve(found());
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(onDelivery);
          resolve(found());
        };
        const onDelivery = () => {
          if (found().length > 0) finish();
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.add(onDelivery);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
