// A fault-injecting HTTP proxy for the hostile-target self tests: it forwards every request to an upstream
// origin (the Host header kept, so the sandbox's redirects come back through the proxy) and, as a plan
// decides per request, never answers, resets the connection, cuts the response body short, or answers late.
// It sees every response, so it knows every token the upstream issued.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout } from 'node:timers/promises';

/**
 * hang: never answer. reset: TCP reset instead of the response. truncate: a well-formed response whose body
 * stops in the middle (Content-Length matching what is sent). cut: the headers promise the whole body, the
 * connection closes halfway through it. html500: an HTML error page with status 500 instead of the answer.
 * lateMs: the upstream's answer, unchanged, that many ms late.
 */
export type Fault = 'hang' | 'reset' | 'truncate' | 'cut' | 'html500' | { lateMs: number };

const ERROR_PAGE = '<!doctype html><title>500 Internal Server Error</title><h1>Internal Server Error</h1>';

export interface ProxiedRequest {
  /** 1-based, in order of arrival. */
  index: number;
  method: string;
  /** Path and query. */
  path: string;
  authorized: boolean;
  /** Sent on a connection the client does not keep (`Connection: close`): the transport's retry after a race. */
  closing: boolean;
}

/** Decides a request's fault; `body` is the upstream's response body (undefined for a `hang` decision). */
export type FaultPlan = (request: ProxiedRequest, body?: string) => Fault | undefined;

export interface FaultProxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every token the upstream issued (access and refresh tokens, authorization codes). */
  readonly issued: Set<string>;
  /** The part of a token that reached the client in a truncated or cut body (also a secret). */
  readonly partial: Set<string>;
  /** Every request a fault was applied to. */
  readonly faulted: (ProxiedRequest & { fault: Fault })[];
  /** Called when a fault is applied (e.g. to look at the run while a request hangs). */
  onFault?: (request: ProxiedRequest & { fault: Fault }) => void;
  close(): Promise<void>;
}

const TOKEN_VALUE = /"(?:access_token|refresh_token)"\s*:\s*"([^"]+)"/g;
const CODE_PARAM = /[?&]code=([^&]+)/;

/** Where to cut a body: in the middle of its first token (or of the body). */
function cutPoint(body: string): number {
  const token = TOKEN_VALUE.exec(body);
  TOKEN_VALUE.lastIndex = 0;
  return token ? token.index + token[0].length - Math.floor(token[1].length / 2) - 1 : body.length >> 1;
}

export async function startFaultProxy(upstream: string, plan: FaultPlan): Promise<FaultProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let count = 0;
  const proxy: FaultProxy = {
    origin: '',
    issued: new Set(),
    partial: new Set(),
    faulted: [],
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const apply = (request: ProxiedRequest, fault: Fault) => {
    const entry = { ...request, fault };
    proxy.faulted.push(entry);
    proxy.onFault?.(entry);
  };
  const respond = async (
    request: ProxiedRequest,
    client: ServerResponse,
    status: number,
    headers: IncomingMessage['headers'],
    body: Buffer,
  ) => {
    const text = body.toString('utf8');
    for (const [, token] of text.matchAll(TOKEN_VALUE)) proxy.issued.add(token);
    const code = CODE_PARAM.exec(String(headers.location ?? ''))?.[1];
    if (code) proxy.issued.add(decodeURIComponent(code));
    const fault = plan(request, text);
    if (fault) apply(request, fault);
    if (fault === 'hang') return;
    if (typeof fault === 'object') await setTimeout(fault.lateMs);
    if (fault === 'reset') return client.socket?.resetAndDestroy();
    if (fault === 'html500') return client.writeHead(500, { 'content-type': 'text/html' }).end(ERROR_PAGE);
    const sent = fault === 'truncate' || fault === 'cut' ? body.subarray(0, cutPoint(text)) : body;
    if (sent !== body) {
      const start = text.search(/"(?:access_token|refresh_token)"\s*:\s*"/);
      const arrived =
        start < 0
          ? ''
          : sent
              .toString('utf8')
              .slice(start)
              .replace(/^[^:]*:\s*"/, '');
      if (arrived.length >= 8) proxy.partial.add(arrived);
    }
    const length = fault === 'truncate' ? sent.length : body.length;
    const { 'transfer-encoding': _chunked, ...rest } = headers;
    client.writeHead(status, { ...rest, 'content-length': String(length) });
    if (fault === 'cut') client.write(sent, () => client.socket?.destroy());
    else client.end(sent);
  };
  const server = createServer((incoming, client) => {
    const request: ProxiedRequest = {
      index: ++count,
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      authorized: incoming.headers.authorization !== undefined,
      closing: incoming.headers.connection === 'close',
    };
    if (plan(request) === 'hang') return apply(request, 'hang');
    const headers = { ...incoming.headers };
    delete headers['accept-encoding'];
    const upstreamRequest = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          void respond(request, client, response.statusCode ?? 502, response.headers, Buffer.concat(chunks));
        });
      },
    );
    upstreamRequest.on('error', () => client.socket?.destroy());
    incoming.pipe(upstreamRequest);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
