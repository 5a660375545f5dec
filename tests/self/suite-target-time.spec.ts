// A test's timeout bounds the check's own work, never the target's time (src/worker/session/run-waits.ts): while a
// request waits for its answer the timeout holds the bound, then it keeps the time waited, overlapping waits
// once; the API client tells each request's wait. Durations are bounded from both sides by the test's own
// clock, never asserted against a figure of the machine's speed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import type { ApiClientOptions } from '../../src/http/api-client.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { waitForTarget } from '../../src/worker/session/run-waits.ts';

test("a test's timeout counts none of its waits for the target: it holds the bound while one is in flight, then keeps the time waited, overlapping waits once", async () => {
  const info = test.info();
  const before = info.timeout;
  const outerStart = performance.now();
  const first = waitForTarget(30_000);
  expect(info.timeout).toBe(before + 30_000);
  await sleep(30);
  const second = waitForTarget(30_000);
  // The second's bound reaches past the first's: the reserve grows to cover it.
  expect(info.timeout).toBeGreaterThan(before + 30_000);
  first();
  await sleep(30);
  second();
  second();
  const outerMs = performance.now() - outerStart;
  const grown = info.timeout - before;
  expect(grown).toBeGreaterThanOrEqual(60);
  expect(grown).toBeLessThanOrEqual(Math.ceil(outerMs) + 1);
});

test('the API client tells each request its wait for the target, ended by the answer or its failure; the test keeps the time waited', async () => {
  let count = 0;
  // The first request answered 150 ms late; every later one's connection destroyed.
  const server = createServer((incoming, response) => {
    count += 1;
    incoming.resume();
    if (count > 1) return incoming.socket.destroy();
    setTimeout(() => response.end('{}'), 150);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = nodeTransport();
  const waits: string[] = [];
  try {
    const onTargetWait: ApiClientOptions['onTargetWait'] = (atMostMs) => {
      const end = waitForTarget(atMostMs);
      waits.push(`begin ${atMostMs}`);
      return () => {
        waits.push('end');
        end();
      };
    };
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const api = standaloneClient(transport, { baseUrl: origin, onTargetWait });
    const before = test.info().timeout;
    const started = performance.now();
    await api.send({ path: '/x' });
    const waitedMs = performance.now() - started;
    expect(test.info().timeout - before).toBeGreaterThanOrEqual(150);
    expect(test.info().timeout - before).toBeLessThanOrEqual(Math.ceil(waitedMs) + 1);
    await expect(api.send({ path: '/x' })).rejects.toThrow(/no response/);
    expect(waits).toEqual(['begin 30000', 'end', 'begin 30000', 'end']);
  } finally {
    transport.dispose();
    await new Promise((resolve) => server.close(resolve));
  }
});
