// The suite's HTTP transport, on node:http(s): one round trip (following up to maxRedirects redirects) with
// a deadline for the whole response. Not Playwright's request context: Playwright records every call of it
// as a test step, and a failed call's error (a reset, a timeout) carries its call log, request headers
// and bearer token included, into every report before the suite can redact it. A kept-alive connection the
// target closed while idle is the transport's race (RFC 9112 §9.3.1), retried as Node's docs advise.
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { stopRequested } from '../run-state/stop-file.ts';
import { CERTIFICATE_ERROR } from './certificate.ts';

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Redirects to follow (0: a 3xx is the answer). */
  maxRedirects: number;
  /** Deadline for the complete response, body included. */
  timeoutMs?: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  dispose(): void;
}

/**
 * How a round trip failed: `timeout`, no answer before the deadline; `cut`, the connection was lost before the
 * answer was complete (a reset, a socket hung up, a body cut short); `race`, a write's kept-alive connection
 * was reset before any byte of its answer, as an idle connection the target had closed is (never sent again);
 * `interrupted`, the run is stopping; `other`, anything else (a refused connection, an unknown host, a
 * certificate, a redirect loop).
 */
export type TransportErrorKind = 'timeout' | 'cut' | 'race' | 'interrupted' | 'other';

/** Why a round trip failed, in words: `timed out after 1000 ms`, `read ECONNRESET`, `redirect loop: …`. */
export class TransportError extends Error {
  constructor(
    reason: string,
    readonly kind: TransportErrorKind = 'other',
    /** Node's code of the failure (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…), where it gave one. */
    readonly code?: string,
  ) {
    super(reason);
    this.name = 'TransportError';
  }
}

/** Node's codes of a connection lost under a request or its answer (a reset, a hang-up, a stream cut). */
const CUT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
/** Node's codes of a connection reset or closed under a request (a hang-up is ECONNRESET too). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** RFC 9110 §9.2.2: what a request of these methods does is the same sent once or twice. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function readBody(response: IncomingMessage): Promise<string> {
  const decoder = DECODERS[String(response.headers['content-encoding'] ?? '').toLowerCase()];
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder()) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
    response.on('aborted', () =>
      reject(new TransportError('connection closed before the body was complete', 'cut')),
    );
    response.on('error', reject);
  });
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );
}

/** The request after a redirect: 303 (and 301/302 after a POST) becomes a GET without a body. */
function redirected(request: TransportRequest, status: number, location: string): TransportRequest {
  const url = new URL(location, request.url).toString();
  if (status === 307 || status === 308 || (request.method !== 'POST' && status !== 303))
    return { ...request, url };
  const { 'content-type': _type, 'content-length': _length, ...headers } = request.headers;
  return { ...request, url, method: 'GET', headers, body: undefined };
}

/** What one transport's round trips share: keep-alive agents, the requests in flight, whether the run is stopping. */
interface Connections {
  agents: { http: HttpAgent; https: HttpsAgent };
  inFlight: Set<ClientRequest>;
  stopping: boolean;
  /** When a kept-alive connection to each origin, and each connection, last carried a whole answer (epoch ms). */
  lastAnswered: Map<string, number>;
  answeredOn: WeakMap<Socket, number>;
  idle: IdleConnections;
}

/**
 * How long a kept-alive connection may have been idle (since it last carried an answer): a write rides one
 * only while it is warm, idle less than `warmMs` (the agent hands out the connection freed last), else a
 * connection of its own, for a write is never sent again and so takes no chance on one a load balancer may
 * have forgotten while it was idle (some forget one after a second, without a word to the client); a reset of
 * a request on one idle at least `raceMs`, before any byte of its answer, is the race of keep-alive (the
 * server closed it as idle), one on a connection that has just answered is the target's.
 */
export interface IdleConnections {
  warmMs: number;
  raceMs: number;
}

export const IDLE_CONNECTIONS: IdleConnections = { warmMs: 500, raceMs: 500 };

const stopped = () => new TransportError('interrupted: the run is stopping', 'interrupted');

// A certificate that does not verify is named by its code (src/http/certificate.ts reads it).
/** A failure of the socket or of the body, as a TransportError. */
function transportFailure(error: Error): TransportError {
  const { code } = error as NodeJS.ErrnoException;
  const reason = code && CERTIFICATE_ERROR.test(code) ? `${code}: ${error.message}` : error.message;
  const kind = code && CUT_CODES.has(code) ? 'cut' : 'other';
  return error instanceof TransportError ? error : new TransportError(reason, kind, code);
}

/**
 * The outgoing request (not yet ended) and its body, tracked among the requests in flight; `fresh`: on a
 * connection of its own, never a kept-alive one.
 */
function outgoingRequest(connections: Connections, request: TransportRequest, fresh: boolean) {
  const url = new URL(request.url);
  const warmSince = Date.now() - connections.idle.warmMs;
  const cold = (connections.lastAnswered.get(url.origin) ?? 0) < warmSince;
  const own = fresh || (cold && !IDEMPOTENT_METHODS.has(request.method));
  const https = url.protocol === 'https:';
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  const headers = body ? { ...request.headers, 'content-length': String(body.length) } : request.headers;
  const outgoing = (https ? httpsRequest : httpRequest)(url, {
    method: request.method,
    headers,
    agent: own ? false : https ? connections.agents.https : connections.agents.http,
  });
  connections.inFlight.add(outgoing);
  outgoing.on('close', () => connections.inFlight.delete(outgoing));
  const answered = () => {
    if (own) return;
    connections.lastAnswered.set(url.origin, Date.now());
    if (outgoing.socket) connections.answeredOn.set(outgoing.socket, Date.now());
  };
  return { outgoing, body, answered };
}

/** A request's connection as it went out: reused, idle for how long, and what it had read before. */
interface Connection {
  idleMs: number;
  bytesBefore: number;
}

/**
 * Whether `error` is the race of a kept-alive connection: reset under `outgoing`, a request sent on a reused
 * connection idle for `raceMs` at least, before any byte of its answer arrived.
 */
function raced(outgoing: ClientRequest, error: Error, sent: Connection | undefined, raceMs: number): boolean {
  const { code } = error as NodeJS.ErrnoException;
  return (
    outgoing.reusedSocket &&
    code !== undefined &&
    RESET_CODES.has(code) &&
    sent !== undefined &&
    sent.idleMs >= raceMs &&
    outgoing.socket?.bytesRead === sent.bytesBefore
  );
}

const race = (idleMs: number) =>
  `reset on a reused kept-alive connection idle for ${Math.round(idleMs)} ms, before any byte of its answer`;

/** One request and its complete response, before `deadline` (epoch ms); `fresh`: on a connection of its own. */
function roundTrip(
  connections: Connections,
  request: TransportRequest,
  deadline: number | undefined,
  fresh = false,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    if (connections.stopping || stopRequested()) return reject(stopped());
    const { outgoing, body, answered } = outgoingRequest(connections, request, fresh);
    let sent: Connection | undefined;
    outgoing.on('socket', (socket) => {
      const idleMs = Date.now() - (connections.answeredOn.get(socket) ?? Date.now());
      sent = { idleMs, bytesBefore: socket.bytesRead };
    });
    let settled = false;
    // Once the event loop has read what already arrived: an answer that came while this process was busy
    // (a stall of the worker, not of the target) is still an answer.
    const expire = () =>
      setImmediate(() => {
        if (!settled)
          outgoing.destroy(new TransportError(`timed out after ${request.timeoutMs} ms`, 'timeout'));
      });
    const timer = deadline === undefined ? undefined : setTimeout(expire, Math.max(0, deadline - Date.now()));
    const fail = (error: Error) => {
      settled = true;
      clearTimeout(timer);
      if (!sent || !raced(outgoing, error, sent, connections.idle.raceMs))
        return reject(transportFailure(error));
      const { code } = error as NodeJS.ErrnoException;
      reject(new TransportError(`${error.message}: ${race(sent.idleMs)}`, 'race', code));
    };
    outgoing.on('error', fail);
    outgoing.on('response', (response) => {
      sent = undefined;
      readBody(response).then((text) => {
        settled = true;
        clearTimeout(timer);
        answered();
        resolve({ status: response.statusCode ?? 0, headers: flatHeaders(response), text });
      }, fail);
    });
    outgoing.end(body);
  });
}

/**
 * One round trip; an idempotent request met by a kept-alive connection's race is sent again once, on a
 * connection of its own, with the time the race took added to its deadline (Node's documentation of
 * `request.reusedSocket` advises this retry): only a reset there, or a second race, is the target's. A write
 * met by the race keeps it (RFC 9112 §9.3.1: never sent again automatically).
 */
async function roundTripOrRetry(
  connections: Connections,
  request: TransportRequest,
  deadline: number | undefined,
): Promise<TransportResponse> {
  const started = Date.now();
  try {
    return await roundTrip(connections, request, deadline);
  } catch (error) {
    if (!(error instanceof TransportError) || error.kind !== 'race') throw error;
    if (!IDEMPOTENT_METHODS.has(request.method)) throw error;
    const extended = deadline === undefined ? undefined : deadline + (Date.now() - started);
    return roundTrip(connections, request, extended, true).catch((again: unknown) => {
      const second = again instanceof TransportError ? again : transportFailure(again as Error);
      throw new TransportError(
        `${error.message}; sent again on a new connection: ${second.message}`,
        second.kind,
        second.code,
      );
    });
  }
}

/** The response to `request`, following its redirects, all before one deadline. */
async function sendFollowingRedirects(
  connections: Connections,
  request: TransportRequest,
): Promise<TransportResponse> {
  const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
  const chain: string[] = [];
  let current = request;
  for (;;) {
    const response = await roundTripOrRetry(connections, current, deadline);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location || request.maxRedirects === 0)
      return response;
    chain.push(`${current.method} ${current.url} → ${response.status}`);
    if (chain.length > request.maxRedirects)
      throw new TransportError(
        `redirect loop: more than ${request.maxRedirects} redirect(s): ${chain.join(', ')}`,
      );
    current = redirected(current, response.status, location);
  }
}

/** The transport; `idle`: how long its kept-alive connections may be idle (IDLE_CONNECTIONS). */
export function nodeTransport(idle: IdleConnections = IDLE_CONNECTIONS): Transport {
  const connections: Connections = {
    agents: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
    inFlight: new Set(),
    stopping: false,
    lastAnswered: new Map(),
    answeredOn: new WeakMap(),
    idle,
  };
  // A SIGINT (Ctrl-C; the conformance CLI sends it to the run's process group) ends the requests in flight
  // and refuses new ones, as does the CLI's stop file (src/run-state/stop-file.ts) in a worker started after the
  // signal: Playwright is stopping the run, and a worker waiting for a target that does not answer would
  // keep it waiting.
  const interrupt = () => {
    connections.stopping = true;
    for (const outgoing of connections.inFlight) outgoing.destroy(stopped());
  };
  process.on('SIGINT', interrupt);
  return {
    send: (request) => sendFollowingRedirects(connections, request),
    dispose() {
      process.off('SIGINT', interrupt);
      connections.agents.http.destroy();
      connections.agents.https.destroy();
    },
  };
}
