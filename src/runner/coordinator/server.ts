// The run's coordinator, served by the runner process (global setup) on 127.0.0.1 for the run's workers:
// - one rate budget per credential that the target limits, for every worker and project of the run
//   (src/http/rate-budget.ts), bounded by the run's deadline; what the run waits for is said on the console
//   (rate-limit-console.ts);
// - the requests the target kept refusing with 429, by operation, so that later ones stop at once
//   (src/worker/session/rate-limit-judge.ts);
// - a memo of what a check observes once for many (a walk of a collection, the run's test data): the first
//   worker to ask reads it, the others wait for its value (src/worker/session/run-memo.ts);
// - the target's answer times, from which every worker's request timeout is learned (src/http/request-timeout.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { leasingPacer, localTurns, type Pacer } from '../../http/pacer.ts';
import type { RateObservation } from '../../http/rate-budget.ts';
import { AnswerTimes } from '../../http/request-timeout.ts';
import {
  type MemoClaim,
  ROUTES,
  type Route,
  type UnansweredRead,
} from '../../protocol/coordinator-routes.ts';
import { clientLabels, RateLimitConsole } from './rate-limit-console.ts';

/** A memo entry: being read by a worker, read, or left without an answer (until the next asker reads again). */
type MemoEntry =
  | { kind: 'claimed' }
  | { kind: 'value'; value: unknown }
  | { kind: 'unanswered'; read: UnansweredRead };

export interface RunCoordinator {
  url: string;
  /** The run's rate budgets in this process, for the requests the runner sends itself (the preflight). */
  pacer: Pacer;
  /** Names the clients of a target instance for the console (`target`: its name in a matrix run, else ''). */
  nameClients(config: SuiteConfig, target: string): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

type Handler = (body: Record<string, unknown>) => Promise<unknown> | unknown;

/** The rate budgets' routes: a credential's next turn, and the first stop of a request the target refused. */
function rateRoutes(turns: ReturnType<typeof localTurns>, waits: RateLimitConsole) {
  /** The first stop of each request the target kept refusing, by credential and operation. */
  const stops = new Map<string, string>();
  return {
    [ROUTES.turn]: async (body) => {
      const credential = String(body.credential);
      const turn = await turns.source(credential, body.seen as RateObservation | undefined);
      waits.turned(credential, turn, turns.budgets.get(credential));
      return turn;
    },
    [ROUTES.shownRate]: async (body) => ({
      shown: await turns.shown(String(body.credential), body.seen as RateObservation | undefined),
    }),
    [ROUTES.rateLimitStop]: (body) => {
      const [credential, request] = [String(body.credential), String(body.request)];
      const key = `${credential}\n${request}`;
      if (typeof body.stop === 'string' && !stops.has(key)) {
        stops.set(key, body.stop);
        waits.stopped(credential, request, body.stop);
      }
      return { stop: stops.get(key) };
    },
  } satisfies Partial<Record<Route, Handler>>;
}

/** The memo's routes: a claim on a key, its value, its release (with the read left unanswered, if it was). */
function memoRoutes() {
  const memo = new Map<string, MemoEntry>();
  return {
    [ROUTES.memoClaim]: (body): MemoClaim => {
      const key = String(body.key);
      const entry = memo.get(key);
      if (entry?.kind === 'value') return entry;
      if (entry?.kind === 'claimed') return { kind: 'wait' };
      // The attempt a waiter waited for got no answer: it is blocked by it; a new asker reads again.
      if (entry?.kind === 'unanswered' && body.waited === true) return entry;
      memo.set(key, { kind: 'claimed' });
      return { kind: 'yours' };
    },
    [ROUTES.memoPut]: (body) => {
      memo.set(String(body.key), { kind: 'value', value: body.value });
      return {};
    },
    [ROUTES.memoRelease]: (body) => {
      const key = String(body.key);
      if (body.unanswered) memo.set(key, { kind: 'unanswered', read: body.unanswered as UnansweredRead });
      else memo.delete(key);
      return {};
    },
  } satisfies Partial<Record<Route, Handler>>;
}

/** The answer times' route: a target's times added, its timeouts by operation answered. */
function timeoutRoutes() {
  const answers = new Map<string, AnswerTimes>();
  return {
    [ROUTES.timeouts]: (body) => {
      const target = String(body.target);
      const times = answers.get(target) ?? new AnswerTimes();
      answers.set(target, times);
      for (const [operation, ms] of body.answers as [string, number][]) times.add(operation, ms);
      return times.table();
    },
  } satisfies Partial<Record<Route, Handler>>;
}

/**
 * Starts the coordinator; `deadline` (epoch ms) is when the run's budget of time ends; `share`, the part of
 * each credential's announced rate budget the run may spend (1/n for a shard of n: they share the clients).
 */
export async function startRunCoordinator(deadline: number, share = 1): Promise<RunCoordinator> {
  const turns = localTurns(deadline, share);
  const waits = new RateLimitConsole();
  const routes: Record<Route, Handler> = { ...rateRoutes(turns, waits), ...memoRoutes(), ...timeoutRoutes() };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const route = (routes as Record<string, Handler | undefined>)[request.url ?? ''];
    const answer = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (!route || request.method !== 'POST') return answer(404, { error: 'no such route' });
    bodyOf(request)
      .then(route)
      .then(
        (value) => answer(200, value),
        (error: unknown) => answer(500, { error: String(error) }),
      );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pacer: leasingPacer(turns.source, turns.shown),
    nameClients: (config, target) => waits.name(clientLabels(config, target)),
    close: () =>
      new Promise<void>((resolve) => {
        waits.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
