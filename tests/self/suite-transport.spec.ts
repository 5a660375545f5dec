// The transport's races (src/http/transport.ts, RFC 9112 §9.3.1) against a server that resets requests on
// command: a reset on a reused kept-alive connection before any byte of the answer is sent again once, on a
// new connection, when the request is idempotent; a write keeps it, not verified, and rides only a warm
// connection; a reset on a new connection, or a second one, is the target's. Nothing here depends on the
// machine's speed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { RequestRefused } from '../../src/http/request-refused.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { IDLE_CONNECTIONS, nodeTransport, type Transport } from '../../src/http/transport.ts';

/** What the server does with a request: `n`, its count on its connection (1-based); `connection`, the connection's. */
type Plan = (request: {
  n: number;
  connection: number;
  method: string;
}) => 'answer' | 'reset' | 'reset-after-headers';

interface Served {
  origin: string;
  /** Every request, with its connection's number and its count on it. */
  seen: { connection: number; n: number; method: string }[];
  close(): Promise<void>;
}

async function serve(plan: Plan): Promise<Served> {
  const seen: Served['seen'] = [];
  const connections = new WeakMap<Socket, { connection: number; n: number }>();
  let opened = 0;
  const sockets = new Set<Socket>();
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const socket = incoming.socket;
    const state = connections.get(socket) ?? { connection: ++opened, n: 0 };
    connections.set(socket, state);
    state.n += 1;
    const request = { connection: state.connection, n: state.n, method: incoming.method ?? 'GET' };
    seen.push(request);
    incoming.resume();
    const what = plan(request);
    if (what === 'reset') return socket.resetAndDestroy();
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
    if (what === 'reset-after-headers') {
      response.flushHeaders();
      setImmediate(() => socket.resetAndDestroy());
      return;
    }
    response.end('{"ok":true}');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A transport whose kept-alive connections stay warm for writes as long as a test may take, and on which any
 * reset of a reused one before any byte of an answer is the race: the machine's speed decides nothing.
 */
const warmTransport = (): Transport => nodeTransport({ warmMs: 3_600_000, raceMs: 0 });

/**
 * Against `plan`: a first GET that opens the connection, then `method` on it, once the first has settled, by
 * `transport` (default: warmTransport).
 */
async function reuse(
  plan: Plan,
  method: string,
  use: (served: Served, sent: Promise<unknown>) => Promise<void>,
  transport = warmTransport(),
) {
  const served = await serve(plan);
  try {
    const send = (m: string) =>
      transport.send({
        method: m,
        url: `${served.origin}/x`,
        headers: {},
        maxRedirects: 0,
        timeoutMs: 30_000,
      });
    expect((await send('GET')).status).toBe(200);
    // The connection is back in the agent's pool once the first answer's end has been read.
    await sleep(20);
    const sent = send(method);
    await sent.catch(() => {});
    await use(served, sent);
  } finally {
    transport.dispose();
    await served.close();
  }
}

/** Resets the second request of the first connection: a kept-alive connection the server had closed. */
const resetReused: Plan = ({ connection, n }) => (connection === 1 && n === 2 ? 'reset' : 'answer');

test('an idempotent request reset on a reused connection before any byte of its answer is sent again once, on a new connection', async () => {
  for (const method of ['GET', 'DELETE'])
    await reuse(resetReused, method, async (served, sent) => {
      expect((await (sent as Promise<{ status: number }>)).status).toBe(200);
      expect(served.seen).toEqual([
        { connection: 1, n: 1, method: 'GET' },
        { connection: 1, n: 2, method },
        { connection: 2, n: 1, method },
      ]);
    });
});

test('a write reset on a reused connection before any byte of its answer is the race of the transport: never sent again', async () => {
  for (const method of ['POST', 'PATCH'])
    await reuse(resetReused, method, async (served, sent) => {
      await expect(sent).rejects.toMatchObject({ kind: 'race', code: 'ECONNRESET' });
      await expect(sent).rejects.toThrow(
        /reset on a reused kept-alive connection idle for \d+ ms, before any byte of its answer/,
      );
      expect(served.seen).toHaveLength(2);
    });
});

test("a reset on the new connection too is the target's: the connection lost, both resets named", async () => {
  await reuse(
    ({ connection, n }) => (connection === 1 && n === 1 ? 'answer' : 'reset'),
    'GET',
    async (served, sent) => {
      await expect(sent).rejects.toMatchObject({ kind: 'cut' });
      await expect(sent).rejects.toThrow(/before any byte of its answer; sent again on a new connection: /);
      expect(served.seen).toHaveLength(3);
    },
  );
});

test("a reset on a kept-alive connection that has just answered is the target's, never the race: not sent again", async () => {
  await reuse(
    resetReused,
    'GET',
    async (served, sent) => {
      await expect(sent).rejects.toMatchObject({ kind: 'cut', code: 'ECONNRESET' });
      expect(served.seen).toHaveLength(2);
    },
    // Every connection idle for less than an hour: none is idle long enough for the server to have closed it.
    nodeTransport({ warmMs: 3_600_000, raceMs: 3_600_000 }),
  );
});

test('a reset once the answer has begun, or on a new connection, is never sent again', async () => {
  await reuse(
    ({ connection, n }) => (connection === 1 && n === 2 ? 'reset-after-headers' : 'answer'),
    'GET',
    async (served, sent) => {
      await expect(sent).rejects.toMatchObject({ kind: 'cut' });
      expect(served.seen).toHaveLength(2);
    },
  );
  const served = await serve(() => 'reset');
  const transport = nodeTransport();
  try {
    const sent = transport.send({ method: 'GET', url: `${served.origin}/x`, headers: {}, maxRedirects: 0 });
    await expect(sent).rejects.toMatchObject({ kind: 'cut', code: 'ECONNRESET' });
    expect(served.seen).toHaveLength(1);
  } finally {
    transport.dispose();
    await served.close();
  }
});

test('a write rides a kept-alive connection only while it is warm (it carried an answer within 500 ms); else one of its own', async () => {
  expect(IDLE_CONNECTIONS).toEqual({ warmMs: 500, raceMs: 500 });
  const served = await serve(() => 'answer');
  // Warm for as long as the test may take, then never warm: the machine's speed decides nothing.
  const [warm, cold] = [warmTransport(), nodeTransport({ warmMs: -1, raceMs: 0 })];
  const send = (transport: Transport, method: string) =>
    transport.send({ method, url: `${served.origin}/x`, headers: {}, maxRedirects: 0 });
  try {
    for (const transport of [warm, cold]) {
      await send(transport, 'GET');
      await sleep(20);
      await send(transport, 'POST');
      await send(transport, 'GET');
    }
    // The cold transport's write went on a connection of its own; its read reused the kept-alive one.
    expect(served.seen.map(({ connection, method }) => `${method} ${connection}`)).toEqual([
      'GET 1',
      'POST 1',
      'GET 1',
      'GET 2',
      'POST 3',
      'GET 2',
    ]);
  } finally {
    warm.dispose();
    cold.dispose();
    await served.close();
  }
});

test("through the API client, a write's race stops its check, not verified, on the transport's side", async () => {
  const served = await serve(resetReused);
  const transport = warmTransport();
  try {
    const api = standaloneClient(transport, { baseUrl: served.origin });
    expect((await api.send({ path: '/x' })).status).toBe(200);
    await sleep(20);
    const refused = await api.send({ method: 'POST', path: '/x', json: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestRefused);
    expect(refused).toMatchObject({ side: 'transport', finding: { outcome: 'not-verified' } });
    expect((refused as RequestRefused).message).toMatch(
      /^POST http:\S+\/x got no answer: read ECONNRESET: reset on a reused kept-alive connection idle for \d+ ms, before any byte of its answer, a race of the transport \(RFC 9112 §9\.3\.1\), not the target's failure/,
    );
  } finally {
    transport.dispose();
    await served.close();
  }
});
